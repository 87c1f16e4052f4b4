import i18next, { type TFunction } from 'i18next';
import { shortDate } from '../../lib/format';
import { ROLE_NAMES } from '../../lib/roles';
import type { UserDto, UserType } from './api';

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
