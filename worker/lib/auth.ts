import Bowser from 'bowser';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { jwtVerify, SignJWT } from 'jose';
import { apiKeys, companyHomes, sessions, users } from '../db/schema';
import { type AppEnv, type Bindings, type Caller, type Db, isDevelopment } from '../env';
import { GENERAL_MESSAGES } from './common-messages';
import { openCompany } from './db';
import { accountOf, companyHome, type Home } from './directory';
import { apiError, unauthorized } from './errors';
import { randomId, sha256Hex } from './ids';
import { decide, RULES, type RuleName } from './permissions';
import { secrets } from './secrets';
import { companyMoving } from './shards';
import { subscriptionOf } from './subscription';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
const encoder = new TextEncoder();

/** `co`: the company whose shard runs the token check (docs/decisions/0174). */
export interface AccessClaims {
  userId: string;
  ver: number;
  sid: string;
  /** Missing in tokens signed before shards: the directory names the company. */
  companyId?: string;
}

export async function signAccessToken(env: Bindings, claims: AccessClaims): Promise<string> {
  return new SignJWT({ ver: claims.ver, sid: claims.sid, ...(claims.companyId ? { co: claims.companyId } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(encoder.encode(secrets(env).jwt));
}

async function readToken(env: Bindings, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secrets(env).jwt), {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub'],
    });
    // a token without a session (issued before sessions existed) no longer signs anyone in
    if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number' || typeof payload.sid !== 'string') return null;
    return { userId: payload.sub, ver: payload.ver, sid: payload.sid, companyId: typeof payload.co === 'string' ? payload.co : undefined };
  } catch {
    return null;
  }
}

/** A session's last-active time is written at most this often: not a D1 write per request. */
export const SESSION_TOUCH_MS = 5 * 60_000;

/** Bowser's longer names, shortened for the sessions list. */
const SHORT_NAMES: Record<string, string> = { 'Microsoft Edge': 'Edge', 'Chrome OS': 'ChromeOS' };

/** Parsed by bowser, the same parser as the link analytics' breakdowns. */
export function deviceLabel(userAgent: string | undefined): string {
  if (!userAgent) return '';
  const parsed = Bowser.parse(userAgent);
  const browser = SHORT_NAMES[parsed.browser.name ?? ''] ?? parsed.browser.name ?? '';
  const system = SHORT_NAMES[parsed.os.name ?? ''] ?? parsed.os.name ?? '';
  if (browser && system) return `${browser} on ${system}`;
  return browser || system;
}

const SYSTEMS = new Set(Object.values(Bowser.OS_MAP).map((name) => SHORT_NAMES[name] ?? name));

/** So a screen can name them in its own language. */
export function deviceParts(device: string): { browser: string; os: string } {
  const at = device.lastIndexOf(' on ');
  if (at > 0) return { browser: device.slice(0, at), os: device.slice(at + ' on '.length) };
  return SYSTEMS.has(device) ? { browser: '', os: device } : { browser: device, os: '' };
}

/** `insert` goes into the caller's `db.batch()` with the login's other writes. */
export async function newSession(
  env: Bindings,
  db: Db,
  user: { id: string; tokenVersion: number; companyId: string },
  clientType: number,
  userAgent: string | undefined,
  now = new Date(),
) {
  const id = randomId();
  const insert = db.insert(sessions).values({
    id,
    userId: user.id,
    clientType,
    device: deviceLabel(userAgent),
    tokenVersion: user.tokenVersion,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000),
  });
  const accessToken = await signAccessToken(env, { userId: user.id, ver: user.tokenVersion, sid: id, companyId: user.companyId });
  return { id, insert, accessToken };
}

/** Runs after the token version bump in the same batch, keeping the caller's own session alive. */
export const keepSessionStatement = (db: Db, userId: string, sessionId: string) =>
  db
    .update(sessions)
    .set({ tokenVersion: sql`(select ${users.tokenVersion} from ${users} where ${users.id} = ${userId})` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));

export const renewedToken = (env: Bindings, caller: Caller, tokenVersion: number) =>
  signAccessToken(env, { userId: caller.id, ver: tokenVersion, sid: caller.sessionId, companyId: caller.companyId });

/** How long a device token stays valid; each good login hands out a fresh one. */
export const DEVICE_TOKEN_LIFETIME_SECONDS = 90 * 24 * 3600;
const DEVICE_TOKEN_TYPE = 'device+jwt';
// A key of its own: a device token can never pass as an access token, nor the reverse.
const deviceKey = (env: Bindings) => encoder.encode(`device-token:${secrets(env).jwt}`);

/** OWASP "device cookies": grants no access; logins presenting one are throttled per device token only. */
export async function signDeviceToken(env: Bindings, userId: string, email: string): Promise<string> {
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'HS256', typ: DEVICE_TOKEN_TYPE })
    .setSubject(userId)
    .setJti(randomId())
    .setIssuedAt()
    .setExpirationTime(`${DEVICE_TOKEN_LIFETIME_SECONDS}s`)
    .sign(deviceKey(env));
}

/** A device token's user, e-mail and id, or null when it is missing, forged, expired or malformed. */
export async function readDeviceToken(env: Bindings, token: string | undefined): Promise<{ userId: string; email: string; id: string } | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, deviceKey(env), {
      algorithms: ['HS256'],
      typ: DEVICE_TOKEN_TYPE,
      requiredClaims: ['exp', 'sub', 'jti'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.email !== 'string') return null;
    return { userId: payload.sub, email: payload.email, id: payload.jti };
  } catch {
    return null;
  }
}

/**
 * The user, the session row and the company's state in one query: signing out ends one session,
 * while a token version bump (password change, demotion, deletion) ends them all at once.
 */
async function authenticate(c: Context<AppEnv>, acceptsApiKeys: boolean): Promise<{ caller: Caller; home: Home; moving: boolean }> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  // a browser cannot set Authorization on a WebSocket: the live socket's token rides as its second subprotocol
  const bearer = match ? match[1]!.trim() : socketToken(c);
  if (!bearer) throw unauthorized('Unauthorized');
  if (bearer.startsWith(API_KEY_PREFIX)) {
    if (!acceptsApiKeys) throw unauthorized('Unauthorized');
    const found = await userOfApiKey(c, bearer);
    if (!found) throw unauthorized('Unauthorized');
    // no session: the key's id stands in (it names no session row, so no session call applies)
    return { caller: callerOf(found.user, `key:${found.keyId}`), home: found.home, moving: found.moving };
  }
  const claims = await readToken(c.env, bearer);
  if (!claims) throw unauthorized('Unauthorized');
  const companyId = claims.companyId ?? (await accountOf(c.var.control, claims.userId))?.companyId;
  if (!companyId) throw unauthorized('Unauthorized');
  let home = await companyHome(c.env, companyId);
  let row = home && (await tokenRow(home.db, claims));
  // the company moved, or is moving, since this isolate last looked: ask the control plane again,
  // once (a home `incoming` is a copy not yet opened, which only the control plane can tell)
  if (home && (!row || row.home?.state !== 'active')) {
    home = await companyHome(c.env, companyId, true);
    row = home && (await tokenRow(home.db, claims));
  }
  const now = Date.now();
  if (
    !home ||
    !row ||
    row.user.companyId !== companyId ||
    row.user.tokenVersion !== claims.ver ||
    row.session.tokenVersion !== row.user.tokenVersion ||
    row.session.revokedAt ||
    row.session.expiresAt.getTime() <= now
  )
    throw unauthorized('Unauthorized');
  const moving = row.home?.state !== 'active';
  if (!moving && now - row.session.lastSeenAt.getTime() >= SESSION_TOUCH_MS) touchSession(c, home.db, claims.sid, now);
  return { caller: callerOf(row.user, claims.sid), home, moving };
}

async function tokenRow(db: Db, claims: AccessClaims) {
  const [row] = await db
    .select({
      user: users,
      session: { tokenVersion: sessions.tokenVersion, expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt, lastSeenAt: sessions.lastSeenAt },
      home: { state: companyHomes.state },
    })
    .from(users)
    .innerJoin(sessions, and(eq(sessions.id, claims.sid), eq(sessions.userId, users.id)))
    .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
    .where(and(eq(users.id, claims.userId), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** The subprotocol a live socket (team/live.routes.ts) names first; its token follows as the second. */
export const LIVE_PROTOCOL = 'freightdesk.live';

/** The access token of a WebSocket upgrade that offers `LIVE_PROTOCOL, <token>`; '' otherwise. */
function socketToken(c: Context<AppEnv>): string {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') return '';
  const [name, token] = (c.req.header('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  return name === LIVE_PROTOCOL && token ? token : '';
}

function callerOf(user: typeof users.$inferSelect, sessionId: string): Caller {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    userType: user.userType,
    parentId: user.parentId,
    isEmailVerified: user.isEmailVerified,
    subscriptionEndDate: user.subscriptionEndDate,
    isTrialPeriod: user.isTrialPeriod,
    companyId: user.companyId,
    sessionId,
  };
}

/** API keys (worker/links/keys.service.ts) start so. */
const API_KEY_PREFIX = 'fd_live_';
/** A key's last-used time is written at most this often. */
const LAST_USED_EVERY_MS = 60_000;

/** Its last-used time moves at most once a minute, in one guarded statement after the answer. */
async function userOfApiKey(c: Context<AppEnv>, key: string) {
  const control = c.var.control;
  const now = Date.now();
  const [found] = await control
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.hash, await sha256Hex(key)))
    .limit(1);
  if (!found || (found.expiresAt && found.expiresAt.getTime() <= now)) return undefined;
  const companyId = found.companyId || (await accountOf(control, found.userId))?.companyId;
  const keyRow = (h: Home) =>
    h.db
      .select({ user: users, home: { state: companyHomes.state } })
      .from(users)
      .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
      .where(and(eq(users.id, found.userId), isNull(users.deletedAt)))
      .limit(1)
      .then((rows) => rows[0]);
  let home = companyId ? await companyHome(c.env, companyId) : undefined;
  let row = home && (await keyRow(home));
  // the company moved since this isolate last looked (as in `authenticate`)
  if (home && companyId && (!row || row.home?.state !== 'active')) {
    home = await companyHome(c.env, companyId, true);
    row = home && (await keyRow(home));
  }
  if (!home || !row) return undefined;
  const lastUsed = found.lastUsedAt?.getTime() ?? 0;
  if (now - lastUsed >= LAST_USED_EVERY_MS) {
    const touch = control
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(and(eq(apiKeys.id, found.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now - LAST_USED_EVERY_MS)))))
      .then(
        () => undefined,
        (err: unknown) => console.error('api key last-used update failed', err),
      );
    try {
      c.executionCtx.waitUntil(touch);
    } catch {
      // no execution context (a direct app.request in a script): the write runs on its own
    }
  }
  return { user: row.user, keyId: found.id, home, moving: row.home?.state !== 'active' };
}

/** Writes the session's last-active time, guarded so requests racing past the check write once; the answer does not wait for it. */
function touchSession(c: Context<AppEnv>, db: Db, sessionId: string, now: number) {
  const write = db
    .update(sessions)
    .set({ lastSeenAt: new Date(now) })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, new Date(now - SESSION_TOUCH_MS))))
    .then(
      () => undefined,
      (err) => console.error('session touch failed', err),
    );
  try {
    c.executionCtx.waitUntil(write);
  } catch {
    // no execution context (a direct app.request in a script): the write runs on its own
  }
}

/** `development` answers 404 outside development; every other rule needs a valid token (401), then 403 or through. */
export function allow(name: RuleName): MiddlewareHandler<AppEnv> {
  const rule = RULES[name];
  const middleware = createMiddleware<AppEnv>(async (c, next) => {
    if (rule === 'development' && !isDevelopment(c.env)) throw apiError(GENERAL_MESSAGES.notFound);
    if (rule !== 'public' && rule !== 'development') {
      // API keys authenticate the link calls only (not the keys' own management)
      const { caller, home, moving } = await authenticate(c, name === 'links');
      const verdict = decide(rule, caller.userType, subscriptionOf(caller).isSubscriptionActive);
      if (!verdict.ok) throw apiError(verdict.refusal);
      // while the company moves its data reads as before, and a change waits (503, Retry-After)
      if (moving && c.req.method !== 'GET' && c.req.method !== 'HEAD') throw companyMoving();
      c.set('caller', caller);
      openCompany(c, home);
    }
    await next();
  });
  // the rule's name rides on the middleware (read back from `app.routes` by lib/route-table.ts);
  // the declared type stays a plain middleware, so Hono's route and client types infer as before
  return Object.assign(middleware, { rule: name }) as MiddlewareHandler<AppEnv>;
}
