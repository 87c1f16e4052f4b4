import i18next, { type TFunction } from 'i18next';
import { USER_MESSAGES } from '../../../worker/users/users.schema';
import { messageText } from '../../i18n/errors';
import { shortDate } from '../../lib/format';
import { ROLE_NAMES } from '../../lib/roles';
import type { UserDto, UserType } from './api';

/**
 * The users area's own form messages (the shared schema's, checked on the screen before anything
 * is sent) as catalogue keys; the account fields' messages have codes (web/i18n/errors.ts).
 */
const FORM_MESSAGES = new Map<string, `userMessages.${'passwordShortCreate' | 'passwordEmptyUpdate' | 'parentRequired' | 'currentPasswordEmpty'}`>([
  [USER_MESSAGES.passwordShortCreate, 'userMessages.passwordShortCreate'],
  [USER_MESSAGES.passwordEmptyUpdate, 'userMessages.passwordEmptyUpdate'],
  [USER_MESSAGES.parentRequired, 'userMessages.parentRequired'],
  [USER_MESSAGES.currentPasswordEmpty, 'userMessages.currentPasswordEmpty'],
]);

/** A users form's message in the user's language: the schema's own by its key, else by its code, else as it is. */
export function formMessageText(message: string | null | undefined): string {
  const key = message ? FORM_MESSAGES.get(message) : undefined;
  return key ? i18next.t(key) : messageText(message);
}

/**
 * A user type as the lists write it: the role's name in lower case, which in English is the type
 * itself ("agent", as the spec's Users List shows it) and in Russian and Armenian the role's name.
 */
export const roleText = (t: TFunction, type: UserType) => t(ROLE_NAMES[type]).toLocaleLowerCase(i18next.language);

/** "Email verification pending", "No End Date" or a short date (spec: Users List). */
export function subscriptionEndText(t: TFunction, u: Pick<UserDto, 'isEmailVerified' | 'subscriptionEndDate'>) {
  if (!u.isEmailVerified) return t('users.verificationPending');
  if (!u.subscriptionEndDate) return t('users.noEndDate');
  return shortDate(u.subscriptionEndDate);
}
