// No server imports: the login page reads the same table to translate the shared schemas' messages.
import { MESSAGES } from '../auth/auth.messages';

/**
 * Stable codes for the messages the translated screens show (docs/decisions/0023-languages.md):
 * the API answers `{message, code}` for these (the contract `{message}` stays), and the screens
 * translate by the code, never by the English text. Messages without a code are shown as sent.
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
  // the payment screen's (worker/payments/payments.schema.ts PAYMENT_MESSAGES, copied: that file
  // carries zod, which the login page must not load; a test holds the two equal)
  months: 'Months to buy: minimum 1',
  maxMonths: 'Months to buy: at most 36',
  arca: 'Visa Payment Temporary not supported. Please pay with Idram.',
  notVerified: 'Email is not verified',
  linkFailed: 'Payment Failed, please try again',
  discountUsed: 'Your promo discount was already used for another order',
  orderNotFound: 'Order not found',
  // answers, not errors: the e-mail verification page shows them
  verified: 'Your e-mail has been verified',
  alreadyVerified: 'Your e-mail is already verified',
} as const;

export type MessageCode = keyof typeof MESSAGE_CODES;

const byMessage = new Map<string, MessageCode>(Object.entries(MESSAGE_CODES).map(([code, message]) => [message, code as MessageCode]));

/** The code of one of the messages above, or undefined. */
export const codeOfMessage = (message: string): MessageCode | undefined => byMessage.get(message);
