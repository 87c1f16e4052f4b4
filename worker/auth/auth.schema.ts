import * as z from 'zod';
import { type Check, inOrder } from '../lib/checks';
import { LANGUAGES } from '../lib/languages';
import { problem } from '../lib/messages';
import { ROLES } from '../lib/permissions';
import { isCountryCode, normalizePhone } from '../lib/phone';
import { hasInvisibleChars, normalizeEmail } from '../lib/text';
import { AUTH_MESSAGES } from './auth.messages';
import { CLIENT_TYPES } from './sessions.schema';

export const languageSchema = z.enum(LANGUAGES, { message: problem(AUTH_MESSAGES.language) });

export { AUTH_MESSAGES, hasInvisibleChars, normalizeEmail };

export const MIN_PASSWORD = 6;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The one e-mail check. The address as given, before normalising: invisible characters make it invalid. */
export const isEmail = (email: string) => email.length <= 320 && !hasInvisibleChars(email) && EMAIL_RE.test(normalizeEmail(email));

/** An e-mail field of a form: 'Email is Empty', then 'Email is not valid' (invisible characters included). */
export function emailError(email: string): string | null {
  if (!email.trim()) return problem(AUTH_MESSAGES.emailEmpty);
  // before trimming: trim() would quietly drop a trailing U+FEFF or U+2028
  if (hasInvisibleChars(email) || !isEmail(email.trim())) return problem(AUTH_MESSAGES.emailInvalid);
  return null;
}

export function nameError(name: string): string | null {
  if (!name.trim()) return problem(AUTH_MESSAGES.nameEmpty);
  if (hasInvisibleChars(name)) return problem(AUTH_MESSAGES.nameInvisible);
  return null;
}

export const lookupEmail = (message: string = problem(AUTH_MESSAGES.emailEmpty)) =>
  z
    .string()
    .max(320)
    .refine((v) => v.trim() !== '', { message })
    .refine((v) => !hasInvisibleChars(v), { message: problem(AUTH_MESSAGES.emailInvalid) });

const str = z.string().max(1000).optional().default('');

export const sessionIdParam = z.object({ id: z.string().min(1).max(64) });

export const loginSchema = z.object({
  email: z.string().max(320),
  password: z.string().max(1000),
  clientType: z.number().int().min(0).max(100).optional().default(CLIENT_TYPES.web),
  // the device token a previous good login on this device handed out (docs/decisions/0034-device-tokens.md)
  deviceToken: z.string().max(2000).optional(),
  // a language picked on the login screen before signing in: saved on the user (decision 0023)
  language: languageSchema.optional(),
});

/** Checked in the spec's order, stopping at the first failure; the screen uses the same schema. */
export const registerSchema = z
  .object({ name: str, email: str, password: str, country: str, phone: str, repeatPassword: str, language: languageSchema.optional() })
  .superRefine(
    inOrder([
      ['name', (v) => nameError(v.name)],
      ['email', (v) => emailError(v.email)],
      [
        'password',
        (v) => (!v.password ? problem(AUTH_MESSAGES.passwordEmpty) : v.password.length < MIN_PASSWORD ? problem(AUTH_MESSAGES.passwordShort) : null),
      ],
      ['country', (v) => (isCountryCode(v.country) ? null : problem(AUTH_MESSAGES.country))],
      ['phone', (v) => (normalizePhone(v.phone, v.country) ? null : problem(AUTH_MESSAGES.phone))],
      [
        'repeatPassword',
        (v) => (!v.repeatPassword ? problem(AUTH_MESSAGES.repeatEmpty) : v.repeatPassword !== v.password ? problem(AUTH_MESSAGES.mismatch) : null),
      ],
    ]),
  )
  .transform((v) => ({
    name: v.name.trim(),
    email: normalizeEmail(v.email),
    password: v.password,
    country: v.country,
    phone: normalizePhone(v.phone, v.country)!,
    language: v.language,
  }));
export type RegisterInput = z.input<typeof registerSchema>;
export type Registration = z.output<typeof registerSchema>;

/** POST /api/auth/sendPasswordHash: 'Email is Empty'; any other address is answered alike. */
export const emailSchema = z.object({
  email: z
    .string()
    .max(320)
    .refine((v) => normalizeEmail(v) !== '', { message: problem(AUTH_MESSAGES.emailEmpty) }),
});
export const hashParam = z.object({ hash: z.string().min(1).max(200) });

const newPassword = z.string().max(1000);
const resetChecks: Check<{ newPassword: string }>[] = [
  ['newPassword', (v) => (v.newPassword.length < MIN_PASSWORD ? problem(AUTH_MESSAGES.passwordShort) : null)],
];
export const newPasswordSchema = z.object({ newPassword }).superRefine(inOrder(resetChecks));
export const resetPasswordFormSchema = z
  .object({ newPassword, repeatPassword: z.string() })
  .superRefine(
    inOrder<{ newPassword: string; repeatPassword: string }>([
      ...resetChecks,
      ['repeatPassword', (v) => (v.repeatPassword !== v.newPassword ? problem(AUTH_MESSAGES.mismatch) : null)],
    ]),
  );

export const loginAnswerSchema = z.strictObject({
  accessToken: z.string(),
  userId: z.string(),
  userType: z.enum(ROLES),
  name: z.string(),
  email: z.string(),
  isSubscriptionActive: z.boolean(),
  deviceToken: z.string(),
  /** The user's language after this sign-in (docs/decisions/0023-languages.md). */
  language: languageSchema,
});
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

export const sessionSchema = z.strictObject({
  _id: z.string(),
  clientType: z.number(),
  /** 'Web app', 'Load-board extension': English; screens name the client by `clientType`. */
  client: z.string(),
  /** Browser and system at sign-in, e.g. 'Chrome on Windows'; '' when unknown. English: screens use `browser` and `os`. */
  device: z.string(),
  browser: z.string(),
  os: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionDto = z.infer<typeof sessionSchema>;
