import { getCountryCallingCode } from 'libphonenumber-js/min';
import * as z from 'zod';
import { AUTH_MESSAGES, emailError, languageSchema, lookupEmail, MIN_PASSWORD, nameError, normalizeEmail } from '../auth/auth.schema';
import { type Check, inOrder } from '../lib/checks';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { dateField } from '../lib/dates';
import { problem } from '../lib/messages';
import { pageQueryShape, pageShape } from '../lib/paging.schema';
import { ROLES, type Role } from '../lib/permissions';
import { isCountryCode, normalizePhone } from '../lib/phone';
import { USER_MESSAGES } from './users.messages';

export const USER_TYPES = ROLES;
export type UserType = Role;

export { USER_MESSAGES };

const text = (max = 200) => z.string().max(max).optional().default('');
export const idParam = z.object({ id: z.string().min(1).max(64) });

/** A country's bare calling code (what the form pre-fills) counts as no phone; null for a wrong phone. */
export function createUserPhone(phone = '', country = ''): { phone: string; country: string } | null {
  const code = isCountryCode(country) ? country : '';
  const digits = phone.replace(/\D/g, '');
  if (!digits || (code && digits === getCountryCallingCode(code))) return { phone: '', country: code };
  const normalized = normalizePhone(phone, country);
  return normalized ? { phone: normalized, country: code } : null;
}

const createUserShape = {
  email: text(320),
  password: text(1000),
  name: text(),
  newUserType: z.enum(USER_TYPES).optional(),
  phone: text(40),
  country: text(2),
  parentUser: z.string().max(64).nullable().optional(),
};
type CreateUserFields = z.output<z.ZodObject<typeof createUserShape>>;
const createUserChecks: Check<CreateUserFields>[] = [
  ['email', (v) => emailError(v.email)],
  [
    'password',
    (v) => (!v.password ? problem(AUTH_MESSAGES.passwordEmpty) : v.password.length < MIN_PASSWORD ? problem(USER_MESSAGES.passwordShortCreate) : null),
  ],
  ['name', (v) => nameError(v.name)],
  ['phone', (v) => (createUserPhone(v.phone, v.country) ? null : problem(AUTH_MESSAGES.phone))],
];
const createdUser = (v: CreateUserFields) => ({ ...v, name: v.name.trim(), email: normalizeEmail(v.email), ...createUserPhone(v.phone, v.country)! });

export const createUserSchema = z.object(createUserShape).superRefine(inOrder(createUserChecks)).transform(createdUser);
export type CreateUserInput = z.input<typeof createUserSchema>;
export type NewUser = z.output<typeof createUserSchema>;

/** The server checks the parent itself, against the database. */
export const adminCreateUserSchema = z
  .object(createUserShape)
  .superRefine(
    inOrder([...createUserChecks, ['parentUser', (v) => (v.newUserType === 'agent' && !v.parentUser ? problem(USER_MESSAGES.parentRequired) : null)]]),
  )
  .transform(createdUser);

export const newNameSchema = z
  .object({ newName: text() })
  .superRefine(inOrder([['newName', (v) => nameError(v.newName)]]))
  .transform((v) => ({ newName: v.newName.trim() }));

// `currentPassword` is our addition: required when the caller changes its own e-mail or password
// (the server knows whose account it is; the profile screen adds the check with `ownAccount`)
const currentPassword = text(1000);
const needsCurrentPassword: Check<{ currentPassword: string }> = [
  'currentPassword',
  (v) => (v.currentPassword ? null : problem(USER_MESSAGES.currentPasswordEmpty)),
];

const emailChecks: Check<{ newEmail: string }>[] = [['newEmail', (v) => emailError(v.newEmail)]];
export const newEmailSchema = z
  .object({ newEmail: text(320), currentPassword })
  .superRefine(inOrder(emailChecks))
  .transform((v) => ({ ...v, newEmail: normalizeEmail(v.newEmail) }));

const passwordChecks: Check<{ newPassword: string; repeatPassword: string }>[] = [
  ['newPassword', (v) => (v.newPassword ? null : problem(USER_MESSAGES.passwordEmptyUpdate))],
  ['repeatPassword', (v) => (v.repeatPassword ? null : problem(USER_MESSAGES.passwordEmptyUpdate))],
  ['repeatPassword', (v) => (v.repeatPassword === v.newPassword ? null : problem(AUTH_MESSAGES.mismatch))],
  ['newPassword', (v) => (v.newPassword.length < MIN_PASSWORD ? problem(AUTH_MESSAGES.passwordShort) : null)],
];
export const newPasswordSchema = z
  .object({ newPassword: text(1000), currentPassword })
  .superRefine((v, ctx) => inOrder(passwordChecks)({ ...v, repeatPassword: v.newPassword }, ctx));

type EmailForm = { newEmail: string; currentPassword: string };
type PasswordForm = { newPassword: string; repeatPassword: string; currentPassword: string };

export const emailFormSchema = (ownAccount: boolean) =>
  z
    .object({ newEmail: z.string(), currentPassword: z.string() })
    .superRefine(inOrder<EmailForm>([...emailChecks, ...(ownAccount ? [needsCurrentPassword] : [])]));

export const passwordFormSchema = (ownAccount: boolean) =>
  z
    .object({ newPassword: z.string(), repeatPassword: z.string(), currentPassword: z.string() })
    .superRefine(inOrder<PasswordForm>([...passwordChecks, ...(ownAccount ? [needsCurrentPassword] : [])]));

/** `newParent` is our addition: the parent a user needs in its new role (an agent's manager, a manager's director). */
export const userTypeSchema = z.object({
  userNewType: z.enum(USER_TYPES, { message: problem(USER_MESSAGES.wrongType) }),
  newParent: z.string().max(64).nullable().optional(),
});
/** PUT /api/user/update/language/{id} (docs/decisions/0023-languages.md). */
export const languageBodySchema = z.object({ language: languageSchema });

export const remindersSchema = z.object({ remindersEnabled: z.boolean({ message: problem(USER_MESSAGES.remindersFlag) }) });
export const trialStateSchema = z.object({ isActive: z.boolean({ message: problem(USER_MESSAGES.trialFlag) }) });
export const trialDateSchema = z.object({
  newDate: dateField(problem(USER_MESSAGES.badDate), (date) => date.getUTCFullYear() >= 2000 && date.getUTCFullYear() <= 2200),
});
export const parentSchema = z.object({ newParent: z.string().max(64).nullable() });
export const deleteUserSchema = z.object({
  userId: z.string().min(1, problem(COMMON_MESSAGES.chooseUser)).max(64),
  /** The admin erases the team's Contact History for good with it (docs/decisions/0185-erasing-a-deleted-team.md). */
  eraseHistory: z.boolean().optional().default(false),
});
export const childUsersSchema = z.object({
  parentId: z
    .string({ message: problem(USER_MESSAGES.chooseManager) })
    .min(1, problem(USER_MESSAGES.chooseManager))
    .max(64),
  includeParent: z.boolean().optional().default(false),
});
export const byEmailSchema = z.object({ email: lookupEmail(problem(AUTH_MESSAGES.emailEmpty)) });

export const userSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  userType: z.enum(USER_TYPES),
  isEmailVerified: z.boolean(),
  isTrialPeriod: z.boolean(),
  subscriptionEndDate: z.string().nullable(),
  registrationDate: z.string(),
  date: z.string(),
  parent: z.strictObject({ _id: z.string(), name: z.string(), email: z.string() }).nullable(),
  phone: z.string(),
  country: z.string(),
  /** E-mails before the subscription ends (Profile: Reminders). */
  remindersEnabled: z.boolean(),
  /** Screens, mails and Idram's page in this language. */
  language: languageSchema,
});
export type UserDto = z.infer<typeof userSchema>;

/** GET /api/user/page: the Users List a page at a time; GET /api/user still answers the whole list (spec section 7). */
export const userPageQuerySchema = z.object({
  ...pageQueryShape,
  sort: z.enum(['registrationDate', 'name', 'email', 'userType', 'parent', 'country', 'phone', 'subscriptionEnd']).default('registrationDate'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  type: z.enum(USER_TYPES).optional(),
  parent: z.string().min(1).max(64).optional(),
});
export type UserPageQuery = z.output<typeof userPageQuerySchema>;
export const usersPageSchema = z.strictObject({
  ...pageShape(userSchema),
  /** The list's users without the search and filters (the screen's "n of all"). */
  all: z.number(),
  /** The headline's Total Managers and Total Agents: the whole list's, whatever the search. */
  managers: z.number(),
  agents: z.number(),
});
export type UsersPage = z.infer<typeof usersPageSchema>;
