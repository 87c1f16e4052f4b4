// No imports but the tables': the login page takes these without zod or the phone metadata.
import { DIRECTORY_MESSAGES } from '../lib/directory.messages';
import { defineMessages } from '../lib/messages';

/**
 * The login page's messages (spec section 5): the account fields' checks, which registration,
 * password reset and the users area share, and the sign-in's refusals. Their codes are bare
 * (`wrongCredentials`), the catalogue's `messages.<code>` in the login page's bundle.
 */
export const AUTH_MESSAGES = defineMessages('', {
  nameEmpty: [400, 'Name is Empty'],
  nameInvisible: [400, 'Name contains invisible characters'],
  emailEmpty: [400, 'Email is Empty'],
  emailInvalid: [400, 'Email is not valid'],
  emailTaken: DIRECTORY_MESSAGES.emailTaken,
  passwordEmpty: [400, 'Password is Empty'],
  passwordShort: [400, 'Password minimum 6 symbols'],
  country: [400, 'Select your country'],
  phone: [400, 'Wrong phone number'],
  repeatEmpty: [400, 'Repeat password is Empty'],
  language: [400, 'language must be en, ru or hy', '`language` not one of en, ru, hy'],
  mismatch: [400, "Passwords don't match"],
  wrongCredentials: [400, 'Wrong email or password'],
  tooManyLogins: [429, 'Too many failed logins, please try again later'],
  tooManyMails: [429, 'Too many e-mails requested, please try again later'],
  invalidLink: [400, 'This link is invalid or has expired'],
  // answers, not errors: the e-mail verification page shows them
  verified: 'Your e-mail has been verified',
  alreadyVerified: 'Your e-mail is already verified',
});
