import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { emailTokens, loginEvents, users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { signAccessToken } from '../lib/auth';
import { isUniqueViolation } from '../lib/db';
import { badRequest, conflict } from '../lib/errors';
import { randomId, randomToken, sha256Hex } from '../lib/ids';
import { linkMail, sendMail } from '../lib/mailer';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { normalizePhone } from '../lib/phone';
import { checkLimit, clientIp, countHit, enforceLimit, LIMITS } from '../lib/rate-limit';
import { secrets } from '../lib/secrets';
import { subscriptionOf } from '../lib/subscription';
import { MESSAGES, normalizeEmail, registrationError, resetPasswordError, type RegisterInput } from './auth.schema';

const HOUR = 3_600_000;
export const VERIFY_TOKEN_TTL = 48 * HOUR;
export const RESET_TOKEN_TTL = 1 * HOUR;
export const WRONG_CREDENTIALS = 'Wrong email or password';
export const RESET_SENT = 'If this e-mail is registered, a password reset link has been sent to it';

export const findLiveUserByEmail = async (db: Db, email: string) =>
  (
    await db
      .select()
      .from(users)
      .where(and(eq(users.email, normalizeEmail(email)), isNull(users.deletedAt)))
      .limit(1)
  )[0];

/**
 * Login. Wrong credentials answer 400, not 401: the web client treats any 401 as "log out
 * silently", and the login screen must show the message. Failures are throttled per account
 * and per address; good logins from one busy office IP are never limited.
 */
export async function login(env: Bindings, db: Db, req: Request, input: { email: string; password: string; clientType: number }) {
  const email = normalizeEmail(input.email);
  const ipKey = `login-ip:${clientIp(req)}`;
  const emailKey = `login-email:${email}`;
  const tooMany = 'Too many failed logins, please try again later';
  await checkLimit(env, ipKey, LIMITS.loginFailuresPerIp, tooMany);
  await checkLimit(env, emailKey, LIMITS.loginFailuresPerEmail, tooMany);
  const user = email ? await findLiveUserByEmail(db, email) : undefined;
  const ok = await verifyPassword(input.password, user?.passwordHash ?? null, secrets(env).pepper);
  if (!user || !ok) {
    await Promise.all([countHit(env, ipKey, LIMITS.loginFailuresPerIp), countHit(env, emailKey, LIMITS.loginFailuresPerEmail)]);
    throw badRequest(WRONG_CREDENTIALS);
  }
  await db.insert(loginEvents).values({ id: randomId(), userId: user.id, clientType: input.clientType, createdAt: new Date() });
  return {
    accessToken: await signAccessToken(env, user.id, user.tokenVersion),
    userId: user.id,
    userType: user.userType,
    name: user.name,
    email: user.email,
    isSubscriptionActive: subscriptionOf(user).isSubscriptionActive,
  };
}

/** Stores a hashed single-use token and mails its link. */
export async function sendTokenMail(env: Bindings, db: Db, user: { id: string; email: string }, kind: 'verify' | 'reset') {
  const token = randomToken();
  const now = Date.now();
  await db.insert(emailTokens).values({
    id: randomId(),
    userId: user.id,
    kind,
    tokenHash: await sha256Hex(token),
    email: user.email,
    expiresAt: new Date(now + (kind === 'verify' ? VERIFY_TOKEN_TTL : RESET_TOKEN_TTL)),
    createdAt: new Date(now),
  });
  const base = env.PUBLIC_URL.replace(/\/$/, '');
  const mail =
    kind === 'verify'
      ? linkMail(user.email, 'Verify your e-mail', 'Please confirm your e-mail address by opening this link:', `${base}/emailVerify/${token}`)
      : linkMail(user.email, 'Password recovery', 'To set a new password, open this link (valid for one hour):', `${base}/passwordRecovery/${token}`);
  await sendMail(env, db, mail);
}

/** Days of the trial a self-registered manager starts with. */
export const TRIAL_DAYS = 14;

export async function register(env: Bindings, db: Db, req: Request, input: RegisterInput) {
  const error = registrationError(input);
  if (error) throw badRequest(error);
  await enforceLimit(env, `register-ip:${clientIp(req)}`, LIMITS.registerPerIp);
  const email = normalizeEmail(input.email!);
  if (await findLiveUserByEmail(db, email)) throw conflict('This e-mail is already registered');
  const user = {
    id: randomId(),
    name: input.name!.trim(),
    email,
    passwordHash: await hashPassword(input.password!, secrets(env).pepper),
    userType: 'manager' as const,
    registrationDate: new Date(),
    // a new manager starts with a trial so the product can be tried before paying
    isTrialPeriod: true,
    subscriptionEndDate: new Date(Date.now() + TRIAL_DAYS * 86_400_000),
    country: input.country!,
    phone: normalizePhone(input.phone!, input.country!)!,
  };
  try {
    await db.insert(users).values(user);
  } catch (err) {
    // two registrations raced past the check: the unique index decided
    if (isUniqueViolation(err, 'users.email')) throw conflict('This e-mail is already registered');
    throw err;
  }
  await sendTokenMail(env, db, user, 'verify');
  return { message: 'Registration successful. Please check your e-mail to verify your address.' };
}

/** Answers the same whether or not the e-mail exists. */
export async function sendPasswordHash(env: Bindings, db: Db, rawEmail: string) {
  const email = normalizeEmail(rawEmail);
  if (!email) throw badRequest(MESSAGES.emailEmpty);
  await enforceLimit(env, `mail:${email}`, LIMITS.mailPerAddress, 'Too many e-mails requested, please try again later');
  const user = await findLiveUserByEmail(db, email);
  if (user) await sendTokenMail(env, db, user, 'reset');
  return { message: RESET_SENT };
}

const INVALID_LINK = 'This link is invalid or has expired';

async function takeToken(db: Db, rawToken: string, kind: 'verify' | 'reset') {
  const tokenHash = await sha256Hex(rawToken);
  const now = new Date();
  // Marking it used in the same statement that finds it makes the token single-use under races.
  const [token] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning();
  if (!token) throw badRequest(INVALID_LINK);
  return token;
}

export async function resetPassword(env: Bindings, db: Db, rawToken: string, newPassword: string) {
  const error = resetPasswordError(newPassword, newPassword);
  if (error) throw badRequest(error);
  const token = await takeToken(db, rawToken, 'reset');
  const passwordHash = await hashPassword(newPassword, secrets(env).pepper);
  await db
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(and(eq(users.id, token.userId), isNull(users.deletedAt)));
  return { message: 'Your password has been changed' };
}

export async function verifyEmail(db: Db, rawToken: string) {
  const token = await takeToken(db, rawToken, 'verify');
  const [user] = await db
    .update(users)
    .set({ isEmailVerified: true })
    .where(and(eq(users.id, token.userId), eq(users.email, token.email), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (!user) throw badRequest(INVALID_LINK);
  return { message: 'Your e-mail has been verified' };
}

/** Ends every session of the user: older tokens carry an older version. */
export async function logout(db: Db, userId: string) {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
  return { message: 'Logged out' };
}
