import { and, eq, isNull } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { jwtVerify, SignJWT } from 'jose';
import { users } from '../db/schema';
import type { AppEnv, Bindings, Caller } from '../env';
import { forbidden, unauthorized } from './errors';
import { randomId } from './ids';
import { type Area, canReach } from './permissions';
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
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
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
  const caller: Caller = {
    id: user.id,
    name: user.name,
    email: user.email,
    userType: user.userType,
    parentId: user.parentId,
    isEmailVerified: user.isEmailVerified,
    subscriptionEndDate: user.subscriptionEndDate,
    isTrialPeriod: user.isTrialPeriod,
  };
  c.set('caller', caller);
  await next();
});

/** Lets the caller through only if the permissions table gives its role the area. */
export const requireArea = (...areas: Area[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const caller = c.var.caller;
    const active = subscriptionOf(caller).isSubscriptionActive;
    if (!areas.some((area) => canReach(caller.userType, area, active))) {
      const roleAllowed = areas.some((area) => canReach(caller.userType, area, true));
      throw forbidden(roleAllowed ? 'Your subscription is not active' : 'You are not allowed to do this');
    }
    await next();
  });

export const isActive = (caller: Caller) => subscriptionOf(caller).isSubscriptionActive;

/**
 * For calls narrower or wider than one area: only these roles, and (unless staff) only with an
 * active subscription when `needsSubscription`. The access matrix lists each such route.
 */
export const requireRoles = (roles: readonly Caller['userType'][], needsSubscription: boolean) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const caller = c.var.caller;
    if (!roles.includes(caller.userType)) throw forbidden('You are not allowed to do this');
    if (needsSubscription && !subscriptionOf(caller).isSubscriptionActive) throw forbidden('Your subscription is not active');
    await next();
  });
