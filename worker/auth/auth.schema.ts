import * as z from 'zod';
import { isCountryCode, normalizePhone } from '../lib/phone';

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
} as const;

const str = z.string().max(1000).optional().default('');

export const loginSchema = z.object({
  email: z.string().max(320),
  password: z.string().max(1000),
  clientType: z.number().int().min(0).max(100).optional().default(0),
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
export const isEmail = (email: string) => email.length <= 320 && EMAIL_RE.test(email);
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * The registration checks in the spec's order, stopping at the first failure.
 * Answers the message to show, or null when the form may be sent.
 */
export function registrationError(input: Partial<Record<keyof RegisterInput, string>>): string | null {
  const name = (input.name ?? '').trim();
  const email = (input.email ?? '').trim();
  const password = input.password ?? '';
  const country = input.country ?? '';
  const phone = input.phone ?? '';
  const repeat = input.repeatPassword ?? '';
  if (!name) return MESSAGES.nameEmpty;
  if (!email) return MESSAGES.emailEmpty;
  if (!isEmail(email)) return MESSAGES.emailInvalid;
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
