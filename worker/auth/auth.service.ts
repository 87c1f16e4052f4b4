import { and, desc, eq, exists, gt, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { emailTokens, loginEvents, sessions, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { deviceParts, newSession, readDeviceToken, signDeviceToken } from '../lib/auth';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { CONTROL, shardDb } from '../lib/d1';
import { accountByEmail, findUserByEmail, type Home, placeUser, userHome } from '../lib/directory';
import { apiError, unauthorized } from '../lib/errors';
import { randomId, randomToken, sha256Hex, toHex } from '../lib/ids';
import { DEFAULT_LANGUAGE, type Language, languageFromHeader } from '../lib/languages';
import { textOf } from '../lib/messages';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { beginAttempt, clientIp, enforceLimit, LIMITS } from '../lib/rate-limit';
import { secrets } from '../lib/secrets';
import { subscriptionOf } from '../lib/subscription';
import { enqueueMails, linkMail, mailStatements } from '../mail/mailer';
import { mailText } from '../mail/texts';
import { AUTH_MESSAGES, hasInvisibleChars, type LoginAnswer, normalizeEmail, type Registration } from './auth.schema';
import { clientLabel, type SessionDto } from './sessions.schema';

const HOUR = 3_600_000;
export const VERIFY_TOKEN_TTL = 48 * HOUR;
export const RESET_TOKEN_TTL = 1 * HOUR;
export const RESET_SENT = 'If this e-mail is registered, a password reset link has been sent to it';

/** The live user of an e-mail in one shard (a caller's own company). */
export const findLiveUserByEmail = async (db: Db, email: string) =>
  (
    await db
      .select()
      .from(users)
      .where(and(eq(users.email, normalizeEmail(email)), isNull(users.deletedAt)))
      .limit(1)
  )[0];

/** 409 'This e-mail is already registered' when a live account has the address anywhere (a deleted one's may be taken again). */
export async function emailIsFree(control: Db, email: string) {
  if (await accountByEmail(control, normalizeEmail(email))) throw apiError(AUTH_MESSAGES.emailTaken);
}

type NewAccount = Omit<typeof users.$inferInsert, 'companyId'> & { id: string; email: string };

/** Two creations racing for one e-mail meet the directory's unique index: 409, and the loser writes nothing. */
export const insertAccount = (env: Bindings, control: Db, user: NewAccount, parent: { companyId: string } | null): Promise<Home> =>
  placeUser(env, control, user, parent, (home, row) => sendTokenMail(env, home.db, row, 'verify', [home.db.insert(users).values(row)]));

/** The bucket of an account's failed logins from untrusted clients (also fed by wrong current passwords). */
export const loginEmailKey = (email: string) => `login-email:${normalizeEmail(email)}`;

/**
 * Wrong credentials answer 400, not 401: the web client treats any 401 as "log out silently".
 * Failures are throttled the OWASP "device cookie" way: a valid device token is limited on its own,
 * so guessing from anywhere never locks out the owner's devices.
 */
export async function login(
  env: Bindings,
  control: Db,
  req: Request,
  input: { email: string; password: string; clientType: number; deviceToken?: string; language?: Language },
): Promise<LoginAnswer> {
  const email = normalizeEmail(input.email);
  // an address with invisible characters is nobody's: it fails like an unknown one
  const found = email && !hasInvisibleChars(input.email) ? await findUserByEmail(env, control, email) : undefined;
  const user = found?.row;
  const device = await readDeviceToken(env, input.deviceToken);
  const trusted = !!device && !!user && device.userId === user.id && device.email === email;
  const buckets = trusted
    ? ([[`login-device:${device!.id}`, LIMITS.loginFailuresPerDevice]] as const)
    : ([
        [loginEmailKey(email), LIMITS.loginFailuresPerEmail],
        [`login-ip:${clientIp(req)}`, LIMITS.loginFailuresPerIp],
      ] as const);
  const attempt = await beginAttempt(env, buckets, AUTH_MESSAGES.tooManyLogins);
  let ok = false;
  try {
    ok = await verifyPassword(input.password, user?.passwordHash ?? null, secrets(env).pepper);
  } finally {
    await attempt.settle(!ok);
  }
  if (!user || !found || !ok) throw apiError(AUTH_MESSAGES.wrongCredentials);
  const db = found.home.db;
  const now = new Date();
  const session = await newSession(env, db, user, input.clientType, req.headers.get('user-agent') ?? undefined, now);
  const language = await signInLanguage(db, user, req, input.language);
  await db.batch([
    db.insert(loginEvents).values({ id: randomId(), userId: user.id, clientType: input.clientType, createdAt: now }),
    ...(language !== user.language ? [db.update(users).set({ language }).where(eq(users.id, user.id))] : []),
    session.insert,
    // the user's sessions that ran out stay a while for nobody: cleared at the next sign-in
    db.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, now))),
  ]);
  return {
    accessToken: session.accessToken,
    userId: user.id,
    userType: user.userType,
    name: user.name,
    email: user.email,
    isSubscriptionActive: subscriptionOf(user).isSubscriptionActive,
    deviceToken: await signDeviceToken(env, user.id, user.email),
    language,
  };
}

/** One picked on the login screen is saved; else, at a first sign-in, the browser's when it is one of ours. */
async function signInLanguage(db: Db, user: { id: string; language: Language }, req: Request, picked: Language | undefined): Promise<Language> {
  if (picked) return picked;
  const browser = languageFromHeader(req.headers.get('accept-language'));
  if (!browser || browser === user.language) return user.language;
  const [before] = await db.select({ id: loginEvents.id }).from(loginEvents).where(eq(loginEvents.userId, user.id)).limit(1);
  return before ? user.language : browser;
}

/** `guard`: a condition the mail needs, e.g. that the e-mail change landed. */
export async function tokenMailStatements(
  env: Bindings,
  db: Db,
  user: { id: string; email: string; language?: Language },
  kind: 'verify' | 'reset',
  guard?: SQL,
) {
  const token = mailToken(user.id);
  const now = Date.now();
  const insertToken = db.insert(emailTokens).values({
    id: randomId(),
    userId: user.id,
    kind,
    tokenHash: await sha256Hex(token),
    email: user.email,
    expiresAt: new Date(now + (kind === 'verify' ? VERIFY_TOKEN_TTL : RESET_TOKEN_TTL)),
    createdAt: new Date(now),
  });
  const base = env.PUBLIC_URL.replace(/\/$/, '');
  const text = mailText(user.language);
  const mail =
    kind === 'verify'
      ? linkMail(user.email, text.verifySubject, text.verifyIntro, `${base}/emailVerify/${token}`)
      : linkMail(user.email, text.resetSubject, text.resetIntro, `${base}/passwordRecovery/${token}`);
  const mails = mailStatements(env, db, [{ ...mail, kind }], guard, new Date(now));
  return { statements: [insertToken, ...mails.statements] as BatchItem<'sqlite'>[], mailIds: mails.ids };
}

/** Stores a hashed single-use token and its mail in one batch (with `alongside`, the change that asks for it), then queues the mail. */
export async function sendTokenMail(
  env: Bindings,
  db: Db,
  user: { id: string; email: string; language?: Language },
  kind: 'verify' | 'reset',
  alongside: BatchItem<'sqlite'>[] = [],
) {
  const { statements, mailIds } = await tokenMailStatements(env, db, user, kind);
  await db.batch([...alongside, ...statements] as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  await enqueueMails(env, mailIds);
}

/** Days of the trial a self-registered manager starts with. */
export const TRIAL_DAYS = 14;

export async function register(env: Bindings, control: Db, req: Request, input: Registration) {
  await enforceLimit(env, `register-ip:${clientIp(req)}`, LIMITS.registerPerIp);
  await emailIsFree(control, input.email);
  const user = {
    id: randomId(),
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password, secrets(env).pepper),
    userType: 'manager' as const,
    registrationDate: new Date(),
    // a new manager starts with a trial so the product can be tried before paying
    isTrialPeriod: true,
    subscriptionEndDate: new Date(Date.now() + TRIAL_DAYS * 86_400_000),
    country: input.country,
    phone: input.phone,
    // the login screen's language, else the browser's when it is one of ours (decision 0023)
    language: input.language ?? languageFromHeader(req.headers.get('accept-language')) ?? DEFAULT_LANGUAGE,
  };
  await insertAccount(env, control, user, null);
  return { message: 'Registration successful. Please check your e-mail to verify your address.' };
}

/** Answers the same whether or not the e-mail exists. */
export async function sendPasswordHash(env: Bindings, control: Db, rawEmail: string) {
  const email = normalizeEmail(rawEmail);
  await enforceLimit(env, `mail:${email}`, LIMITS.mailPerAddress, AUTH_MESSAGES.tooManyMails);
  // an address with invisible characters is nobody's (answered the same, as for any unknown one)
  const found = hasInvisibleChars(rawEmail) ? undefined : await findUserByEmail(env, control, email);
  if (found) await sendTokenMail(env, found.home.db, found.row, 'reset');
  return { message: RESET_SENT };
}

/** The user's id first, so the link finds the user's shard; only its hash is stored. */
export function mailToken(userId: string): string {
  const id = toHex(new TextEncoder().encode(userId));
  return (id.length / 2).toString(16).padStart(2, '0') + id + randomToken();
}

const RANDOM_HEX = 64;
function userIdOfToken(raw: string): string | undefined {
  if (!/^[0-9a-f]+$/.test(raw) || raw.length <= 2 + RANDOM_HEX) return undefined;
  const idHex = raw.slice(2, raw.length - RANDOM_HEX);
  if (idHex.length !== Number.parseInt(raw.slice(0, 2), 16) * 2) return undefined;
  const bytes = new Uint8Array(idHex.match(/../g)!.map((b) => Number.parseInt(b, 16)));
  return new TextDecoder().decode(bytes);
}

/** A token from before shards names no user: it is in the first database. */
export async function tokenDb(env: Bindings, control: Db, rawToken: string): Promise<Db> {
  const userId = userIdOfToken(rawToken);
  if (!userId) return shardDb(env, CONTROL);
  return (await userHome(env, control, userId))?.db ?? shardDb(env, CONTROL);
}

async function takeToken(db: Db, rawToken: string, kind: 'verify' | 'reset') {
  const tokenHash = await sha256Hex(rawToken);
  const now = new Date();
  // Marking it used in the same statement that finds it makes the token single-use under races.
  const [token] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning();
  if (!token) throw apiError(AUTH_MESSAGES.invalidLink);
  return token;
}

export const endResetLinks = (db: Db, userId: string, now = new Date()) =>
  db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, 'reset'), isNull(emailTokens.usedAt)));

/** Using one link ends every other of the user's (OWASP Forgot Password), in the same batch. */
export async function resetPassword(env: Bindings, db: Db, rawToken: string, newPassword: string) {
  const tokenHash = await sha256Hex(rawToken);
  const now = new Date();
  const liveLink = and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.kind, 'reset'), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now));
  // a first look, so an unknown or spent link costs no password hashing; the batch below decides
  const [seen] = await db.select({ userId: emailTokens.userId }).from(emailTokens).where(liveLink).limit(1);
  if (!seen) throw apiError(AUTH_MESSAGES.invalidLink);
  const passwordHash = await hashPassword(newPassword, secrets(env).pepper);
  const stillLive = exists(db.select({ id: emailTokens.id }).from(emailTokens).where(liveLink));
  // One batch is one transaction: the password changes only while this link is still unused,
  // and the same batch ends all the user's reset links, so of two links used at once one wins.
  const [changed] = await db.batch([
    db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(and(eq(users.id, seen.userId), isNull(users.deletedAt), stillLive))
      .returning({ id: users.id }),
    db
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.userId, seen.userId), eq(emailTokens.kind, 'reset'), isNull(emailTokens.usedAt), stillLive)),
  ]);
  if (!changed.length) throw apiError(AUTH_MESSAGES.invalidLink);
  // the user id is for the route (its live sockets close), not for the answer
  return { message: 'Your password has been changed', userId: seen.userId };
}

export async function verifyEmail(db: Db, rawToken: string) {
  const token = await takeToken(db, rawToken, 'verify').catch(async (err) => {
    // a used (or expired) link of an account that is verified now says so (rule 0140),
    // instead of "invalid or has expired": opening the mail's link twice is no error
    if (await linkOfVerifiedAccount(db, rawToken)) return null;
    throw err;
  });
  if (!token) return { message: textOf(AUTH_MESSAGES.alreadyVerified), code: AUTH_MESSAGES.alreadyVerified.code };
  const [user] = await db
    .update(users)
    .set({ isEmailVerified: true })
    .where(and(eq(users.id, token.userId), eq(users.email, token.email), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (!user) throw apiError(AUTH_MESSAGES.invalidLink);
  return { message: textOf(AUTH_MESSAGES.verified), code: AUTH_MESSAGES.verified.code };
}

/** Whether a verification link (any state) belongs to a live account whose same e-mail is verified. */
async function linkOfVerifiedAccount(db: Db, rawToken: string) {
  const tokenHash = await sha256Hex(rawToken);
  const [row] = await db
    .select({ id: users.id })
    .from(emailTokens)
    .innerJoin(users, and(eq(users.id, emailTokens.userId), eq(users.email, emailTokens.email)))
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.kind, 'verify'), eq(users.isEmailVerified, true), isNull(users.deletedAt)))
    .limit(1);
  return !!row;
}

/** One conditional statement: of simultaneous sign-outs with one token exactly one answers 200. */
export async function logout(db: Db, caller: Caller) {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, caller.sessionId), eq(sessions.userId, caller.id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (!ended.length) throw unauthorized('Unauthorized');
  return { message: 'Logged out' };
}

/** A session is active while not signed out, not expired, and issued under the user's current token version. */
const activeSessionOf = (userId: string, now: Date) =>
  and(
    eq(sessions.userId, userId),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
    eq(sessions.tokenVersion, sql`(select ${users.tokenVersion} from ${users} where ${users.id} = ${userId})`),
  );

export async function listSessions(db: Db, caller: Caller): Promise<SessionDto[]> {
  const rows = await db.select().from(sessions).where(activeSessionOf(caller.id, new Date())).orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((r) => ({
    _id: r.id,
    clientType: r.clientType,
    client: clientLabel(r.clientType),
    device: r.device,
    ...deviceParts(r.device),
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    current: r.id === caller.sessionId,
  }));
}

/** DELETE /api/auth/sessions/{id}: signs one of the caller's own active sessions out; any other id answers 404. */
export async function revokeSession(db: Db, caller: Caller, sessionId: string) {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), activeSessionOf(caller.id, new Date())))
    .returning({ id: sessions.id });
  if (!ended.length) throw apiError(COMMON_MESSAGES.sessionNotFound);
  return { message: 'Session signed out' };
}
