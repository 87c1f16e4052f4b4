// No server imports: the login page reads the same table to translate the shared schemas' messages.
import { AUTH_MESSAGES } from '../auth/auth.messages';
import { GENERAL_MESSAGES } from './common-messages';

/** The login page's texts by their bare codes, until the screens translate by the answer's code alone. */
export const MESSAGE_CODES = Object.fromEntries(Object.values({ ...AUTH_MESSAGES, ...GENERAL_MESSAGES }).map((e) => [e.code, e.text])) as Record<
  keyof typeof AUTH_MESSAGES | keyof typeof GENERAL_MESSAGES,
  string
>;

export type MessageCode = keyof typeof MESSAGE_CODES;

const byMessage = new Map<string, MessageCode>(Object.entries(MESSAGE_CODES).map(([code, message]) => [message, code as MessageCode]));

/** The code of one of the messages above, or undefined. */
export const codeOfMessage = (message: string): MessageCode | undefined => byMessage.get(message);

export { keyOfCode } from './messages';
