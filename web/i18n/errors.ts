import { GENERAL_MESSAGES } from '../../worker/lib/common-messages';
import { fillText, keyOfCode, readProblem } from '../../worker/lib/messages';
import { currentLanguage, t } from './startup';

const SOMETHING_WRONG = GENERAL_MESSAGES.somethingWrong;

/**
 * A message the screens show, in the user's language: an API error by the `code` (and the
 * `params`) it answered, a shared schema's check by the code its problem carries; anything else
 * as it came, in English. A code whose text is not loaded shows the message as sent, and English
 * shows it as sent.
 */
export function messageText(message: string | null | undefined, code?: unknown, params?: unknown): string {
  if (!message) return '';
  // a shared schema's check: its code and values (worker/lib/messages.ts `problem()`)
  const problem = code ? null : readProblem(message);
  if (problem) return messageText(fillText(problem.entry.text, problem.params), problem.entry.code, problem.params);
  // English is the message itself, byte for byte (web/i18n/catalogues.test.ts holds the catalogue to it)
  if (typeof code !== 'string' || !code || currentLanguage() === 'en') return message;
  return t(keyOfCode(code), { ...(params as object), defaultValue: message });
}

/** A failed call's text: its `code` and `params` (ApiFailure's answer) or its message. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error) || !err.message) return messageText(SOMETHING_WRONG.text, SOMETHING_WRONG.code);
  const data = (err as { data?: Record<string, unknown> | null }).data;
  return messageText(err.message, data?.code, data?.params);
}
