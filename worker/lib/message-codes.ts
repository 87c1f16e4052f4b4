// No server imports: the login page reads the same table to translate the shared schemas' messages.
import { MESSAGES } from '../auth/auth.messages';

/**
 * Stable codes for the messages the login page shows (docs/decisions/0023-languages.md): the API
 * answers `{message, code}` for these (the contract `{message}` stays), and the screens translate
 * by the code, never by the English text. Kept small, it is in the login page's bundle: every other
 * area's messages have their codes in worker/lib/error-codes.ts (server only).
 */
export const MESSAGE_CODES = {
  ...MESSAGES,
  wrongCredentials: 'Wrong email or password',
  tooManyLogins: 'Too many failed logins, please try again later',
  tooManyMails: 'Too many e-mails requested, please try again later',
  invalidLink: 'This link is invalid or has expired',
  somethingWrong: 'Something went wrong',
  notAllowed: 'You are not allowed to do this',
  notFound: 'Not found',
  tooManyRequests: 'Too many requests, please try again later',
  // answers, not errors: the e-mail verification page shows them
  verified: 'Your e-mail has been verified',
  alreadyVerified: 'Your e-mail is already verified',
} as const;

export type MessageCode = keyof typeof MESSAGE_CODES;

const byMessage = new Map<string, MessageCode>(Object.entries(MESSAGE_CODES).map(([code, message]) => [message, code as MessageCode]));

/** The code of one of the messages above, or undefined. */
export const codeOfMessage = (message: string): MessageCode | undefined => byMessage.get(message);

/**
 * The catalogue key of a code the API answers: the codes above are `messages.<code>`; an area's
 * (`lines.lineTaken`, worker/lib/error-codes.ts) are `<area>Messages.<key>`, in that area's part.
 */
export const keyOfCode = (code: string) => (code.includes('.') ? code.replace('.', 'Messages.') : `messages.${code}`);
