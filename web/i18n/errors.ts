import { codeOfMessage, type MessageCode } from '../../worker/lib/message-codes';
import { t } from './startup';

/**
 * A message the screens show, in the user's language (docs/decisions/0023-languages.md): an API
 * error by the `code` it answered, a shared schema's message (the same constants the API answers)
 * by its code; anything else as it came, in English.
 */
export function messageText(message: string | null | undefined, code?: unknown): string {
  if (!message) return '';
  const known = (typeof code === 'string' ? code : undefined) ?? codeOfMessage(message);
  return known ? t(`messages.${known as MessageCode}`, { defaultValue: message }) : message;
}

/** A failed call's text: its `code` (ApiFailure's answer) or its message. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return messageText('Something went wrong');
  const data = (err as { data?: Record<string, unknown> | null }).data;
  return messageText(err.message || 'Something went wrong', data?.code);
}
