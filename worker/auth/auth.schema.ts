import * as z from 'zod';
import { isCountryCode, normalizePhone } from '../lib/phone';
import { hasInvisibleChars, normalizeEmail } from '../lib/text';

export { hasInvisibleChars, normalizeEmail };

/** Shared by the server and the Manager Registration screen. */
export const MIN_PASSWORD = 6;

export const MESSAGES = {
  nameEmpty: 'Name is Empty',
  emailEmpty: 'Email is Empty',
  emailInvalid: 'Email is not valid',
  passwordEmpty: 'Password is Empty',
  passwordShort: 'Password minimum 6 symbols',
  country: 'Select your country',
  phone: 'Wrong phone number',
  repeatEmpty: 'Repeat password is Empty',
  mismatch: "Passwords don't match",
  nameInvisible: 'Name contains invisible characters',
} as const;

const str = z.string().max(1000).optional().default('');

export const loginSchema = z.object({
  email: z.string().max(320),
  password: z.string().max(1000),
  clientType: z.number().int().min(0).max(100).optional().default(0),
  // the device token a previous good login on this device handed out (README: Security)
  deviceToken: z.string().max(2000).optional(),
});

export const registerSchema = z.object({
  name: str,
  email: str,
  password: str,
  country: str,
  phone: str,
  repeatPassword: str,
});
export type RegisterInput = z.input<typeof registerSchema>;

export const emailSchema = z.object({ email: z.string().max(320) });
export const newPasswordSchema = z.object({ newPassword: z.string().max(1000) });
export const hashParam = z.object({ hash: z.string().min(1).max(200) });

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Checks the address as given, before normalising: invisible characters make it invalid. */
export const isEmail = (email: string) => email.length <= 320 && !hasInvisibleChars(email) && EMAIL_RE.test(normalizeEmail(email));

/** The e-mail checks every form shares: empty, then not valid (invisible characters included). */
export function emailError(email: string | undefined): typeof MESSAGES.emailEmpty | typeof MESSAGES.emailInvalid | null {
  if (!(email ?? '').trim()) return MESSAGES.emailEmpty;
  // before trimming: trim() would quietly drop a trailing U+FEFF or U+2028
  if (hasInvisibleChars(email!) || !isEmail(email!.trim())) return MESSAGES.emailInvalid;
  return null;
}

/** The name checks every form shares: empty, then invisible characters. */
export function nameError(name: string | undefined): typeof MESSAGES.nameEmpty | typeof MESSAGES.nameInvisible | null {
  if (!(name ?? '').trim()) return MESSAGES.nameEmpty;
  if (hasInvisibleChars(name!)) return MESSAGES.nameInvisible;
  return null;
}

/** A zod e-mail field for calls that only look an address up (userByEmail, promo assign). */
export const lookupEmail = (message: string = MESSAGES.emailEmpty) =>
  z
    .string()
    .max(320)
    .refine((v) => v.trim() !== '', { message })
    .refine((v) => !hasInvisibleChars(v), { message: MESSAGES.emailInvalid });

/**
 * The registration checks in the spec's order, stopping at the first failure.
 * Answers the message to show, or null when the form may be sent.
 */
export function registrationError(input: Partial<Record<keyof RegisterInput, string>>): string | null {
  const password = input.password ?? '';
  const country = input.country ?? '';
  const phone = input.phone ?? '';
  const repeat = input.repeatPassword ?? '';
  const problem = nameError(input.name) ?? emailError(input.email);
  if (problem) return problem;
  if (!password) return MESSAGES.passwordEmpty;
  if (password.length < MIN_PASSWORD) return MESSAGES.passwordShort;
  if (!isCountryCode(country)) return MESSAGES.country;
  if (!normalizePhone(phone, country)) return MESSAGES.phone;
  if (!repeat) return MESSAGES.repeatEmpty;
  if (repeat !== password) return MESSAGES.mismatch;
  return null;
}

/** Password reset screen checks. */
export function resetPasswordError(password: string, repeat: string): string | null {
  if (password.length < MIN_PASSWORD) return MESSAGES.passwordShort;
  if (password !== repeat) return MESSAGES.mismatch;
  return null;
}
