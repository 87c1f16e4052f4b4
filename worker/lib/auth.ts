import { and, eq, isNull } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { jwtVerify, SignJWT } from 'jose';
import { users } from '../db/schema';
import { type AppEnv, type Bindings, type Caller, isDevelopment } from '../env';
import { forbidden, notFound, unauthorized } from './errors';
import { randomId } from './ids';
import { decide, RULES, type RuleName } from './permissions';
import { secrets } from './secrets';
import { subscriptionOf } from './subscription';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
const encoder = new TextEncoder();

/** Signs an access token carrying the user's id and its current token version. */
export async function signAccessToken(env: Bindings, userId: string, tokenVersion: number): Promise<string> {
  return new SignJWT({ ver: tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(encoder.encode(secrets(env).jwt));
}

async function readToken(env: Bindings, token: string): Promise<{ userId: string; ver: number } | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secrets(env).jwt), {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null;
    return { userId: payload.sub, ver: payload.ver };
  } catch {
    return null;
  }
}

/** How long a device token stays valid; each good login hands out a fresh one. */
export const DEVICE_TOKEN_LIFETIME_SECONDS = 90 * 24 * 3600;
const DEVICE_TOKEN_TYPE = 'device+jwt';
// A key of its own: a device token can never pass as an access token, nor the reverse.
const deviceKey = (env: Bindings) => encoder.encode(`device-token:${secrets(env).jwt}`);

/**
 * A device token (OWASP "device cookies"): proof that this client once logged in as this user
 * with this e-mail. It grants no access; logins that present one are throttled per device token
 * only, so failures from elsewhere never lock out the owner's devices. `jti` names the device.
 */
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
 * Bearer auth: verifies the JWT, then loads the user from D1 and checks the token version,
 * so a password change, logout, demotion or deletion ends older sessions at once.
 */
async function authenticate(c: Context<AppEnv>): Promise<Caller> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) throw unauthorized('Unauthorized');
  const claims = await readToken(c.env, match[1]!.trim());
  if (!claims) throw unauthorized('Unauthorized');
  const [user] = await c.var.db
    .select()
    .from(users)
    .where(and(eq(users.id, claims.userId), isNull(users.deletedAt)))
    .limit(1);
  if (!user || user.tokenVersion !== claims.ver) throw unauthorized('Unauthorized');
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    userType: user.userType,
    parentId: user.parentId,
    isEmailVerified: user.isEmailVerified,
    subscriptionEndDate: user.subscriptionEndDate,
    isTrialPeriod: user.isTrialPeriod,
  };
}

/**
 * Every API route names its rule from the permissions table (`RULES`): `public` lets anyone
 * through, `development` answers 404 outside development, every other rule needs a valid token
 * (401) and then lets the caller through or answers 403 with the rule's message.
 */
export function allow(name: RuleName): MiddlewareHandler<AppEnv> {
  const rule = RULES[name];
  const middleware = createMiddleware<AppEnv>(async (c, next) => {
    if (rule === 'development' && !isDevelopment(c.env)) throw notFound('Not found');
    if (rule !== 'public' && rule !== 'development') {
      const caller = await authenticate(c);
      const verdict = decide(rule, caller.userType, subscriptionOf(caller).isSubscriptionActive);
      if (!verdict.ok) throw forbidden(verdict.message);
      c.set('caller', caller);
    }
    await next();
  });
  // the rule's name rides on the middleware (read back from `app.routes` by lib/route-table.ts);
  // the declared type stays a plain middleware, so Hono's route and client types infer as before
  return Object.assign(middleware, { rule: name }) as MiddlewareHandler<AppEnv>;
}
