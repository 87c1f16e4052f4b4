import { getCountryCallingCode } from 'libphonenumber-js/min';
import * as z from 'zod';
import { emailError, lookupEmail, MESSAGES, MIN_PASSWORD, nameError } from '../auth/auth.schema';
import { ROLES, type Role } from '../lib/permissions';
import { isCountryCode, normalizePhone } from '../lib/phone';

/** The user types: the roles of the permissions table, and the users table's enum. */
export const USER_TYPES = ROLES;
export type UserType = Role;

/** The users area's messages (spec section 5). Shared with the screens. */
export const USER_MESSAGES = {
  nameEmpty: 'Name is Empty',
  emailEmpty: 'Email is Empty',
  emailInvalid: 'Email is not valid',
  passwordEmpty: 'Password is Empty',
  passwordShortCreate: 'Password must be minimum 6 symbols',
  passwordEmptyUpdate: 'Password is empty',
  passwordShortUpdate: 'Password minimum 6 symbols',
  mismatch: "Passwords don't match",
  emailTaken: 'This e-mail is already registered',
  parentRequired: 'Select the parent manager',
  wrongParent: 'The parent must be a manager',
  wrongDirector: 'The parent must be a director',
  wrongType: 'Select the user type',
  badDate: 'Choose a valid date',
  phone: 'Wrong phone number',
  chooseManager: 'Choose a manager',
  nameInvisible: MESSAGES.nameInvisible,
  currentPasswordEmpty: 'Current password is empty',
  currentPasswordWrong: 'Current password is wrong',
} as const;

const text = (max = 200) => z.string().max(max).optional().default('');
export const idParam = z.object({ id: z.string().min(1).max(64) });

export const createUserSchema = z.object({
  email: text(320),
  password: text(1000),
  name: text(),
  newUserType: z.enum(USER_TYPES).optional(),
  phone: text(40),
  country: text(2),
  parentUser: z.string().max(64).nullable().optional(),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

/** Create user checks in the spec's order; answers the message, or null. */
export function createUserError(input: { email?: string; password?: string; name?: string }): string | null {
  const email = emailError(input.email);
  if (email) return email;
  if (!input.password) return USER_MESSAGES.passwordEmpty;
  if (input.password.length < MIN_PASSWORD) return USER_MESSAGES.passwordShortCreate;
  return nameError(input.name);
}

/**
 * Create user (admin): the phone is optional, and a country's bare calling code (what the form
 * pre-fills) counts as none. Answers the phone in E.164 and the country, or null for a wrong phone.
 */
export function createUserPhone(phone = '', country = ''): { phone: string; country: string } | null {
  const code = isCountryCode(country) ? country : '';
  const digits = phone.replace(/\D/g, '');
  if (!digits || (code && digits === getCountryCallingCode(code))) return { phone: '', country: code };
  const normalized = normalizePhone(phone, country);
  return normalized ? { phone: normalized, country: code } : null;
}

/** Profile: password update checks. */
export function passwordUpdateError(password: string, repeat: string): string | null {
  if (!password || !repeat) return USER_MESSAGES.passwordEmptyUpdate;
  if (password !== repeat) return USER_MESSAGES.mismatch;
  if (password.length < MIN_PASSWORD) return USER_MESSAGES.passwordShortUpdate;
  return null;
}

/** Profile: name update checks ('Name is Empty', then invisible characters). */
export const nameUpdateError = (name: string) => nameError(name);
/** Profile: e-mail update checks ('Email is Empty', 'Email is not valid'). */
export const emailUpdateError = (email: string) => emailError(email);

/**
 * Re-authentication: changing one's own e-mail or password needs the current password, checked
 * after the spec's messages. Answers the message for an empty one; the server checks the rest.
 */
export function currentPasswordError(currentPassword: string | undefined, isSelf: boolean): string | null {
  return isSelf && !currentPassword ? USER_MESSAGES.currentPasswordEmpty : null;
}

export const newNameSchema = z.object({ newName: text() });
// `currentPassword` is our addition: required when the caller changes its own e-mail or password
export const newEmailSchema = z.object({ newEmail: text(320), currentPassword: text(1000) });
export const newPasswordSchema = z.object({ newPassword: text(1000), currentPassword: text(1000) });
/** `newParent` is our addition: the parent a user needs in its new role (an agent's manager, a manager's director). */
export const userTypeSchema = z.object({
  userNewType: z.enum(USER_TYPES, { message: USER_MESSAGES.wrongType }),
  newParent: z.string().max(64).nullable().optional(),
});
export const trialStateSchema = z.object({ isActive: z.boolean({ message: 'isActive must be true or false' }) });
export const trialDateSchema = z.object({ newDate: z.union([z.string().max(40), z.number()]) });
export const parentSchema = z.object({ newParent: z.string().max(64).nullable() });
export const deleteUserSchema = z.object({ userId: z.string().min(1, 'Choose a user').max(64) });
/** A manager's team: POST /api/user/managerChildUsers and Pay for Team's POST /api/subscription/childUsersSubscriptions. */
export const childUsersSchema = z.object({
  parentId: z.string({ message: USER_MESSAGES.chooseManager }).min(1, USER_MESSAGES.chooseManager).max(64),
  includeParent: z.boolean().optional().default(false),
});
export const byEmailSchema = z.object({ email: lookupEmail(USER_MESSAGES.emailEmpty) });

/** A user as the screens receive it (spec: User entity). */
export interface UserDto {
  _id: string;
  name: string;
  email: string;
  userType: UserType;
  isEmailVerified: boolean;
  isTrialPeriod: boolean;
  subscriptionEndDate: string | null;
  registrationDate: string;
  date: string;
  parent: { _id: string; name: string; email: string } | null;
  phone: string;
  country: string;
}
