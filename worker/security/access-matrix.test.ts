import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../app';
import { canReach, ROLES, type Role } from '../lib/permissions';
import { call, createUser, sessionToken, testEnv, tokenFromMail, type TestUser } from '../test/helpers';
import { apiRoutes, ROUTE_RULES, ruleFor, type RouteRule } from './route-access';

/**
 * The access matrix: every API route × every role (with an active and an expired subscription)
 * × the bad-token cases, with the expected status computed from the one permissions table
 * (`worker/lib/permissions.ts`) and the route's rule in `route-access.ts`. A route added
 * without a rule fails the first test.
 */
const routes = apiRoutes(app.routes);

type Identity = { label: string; role: Role; active: boolean; userId: string };
const identities: Identity[] = [];
const badTokens: { label: string; token: string }[] = [];

beforeAll(async () => {
  for (const role of ROLES) {
    const active = await createUser(role);
    identities.push({ label: `${role} (active)`, role, active: true, userId: active.id });
    if (role !== 'admin' && role !== 'marketing') {
      const expired = await createUser(role, { subscriptionDays: -1 });
      identities.push({ label: `${role} (expired)`, role, active: false, userId: expired.id });
    }
  }
  const secret = new TextEncoder().encode(testEnv.JWT_SECRET!);
  const victim: TestUser = await createUser('manager');
  const expired = await new SignJWT({ ver: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(victim.id)
    .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
    .sign(secret);
  const otherKey = await new SignJWT({ ver: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(victim.id)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough'));
  const unsigned = `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${btoa(JSON.stringify({ sub: victim.id, ver: 0, exp: 9e9 }))}.`;
  // a token issued before a password change (through the real reset flow)
  const beforeChange = victim.token;
  await call('POST', '/api/auth/sendPasswordHash', { body: { email: victim.email } });
  const hash = await tokenFromMail(victim.email, 'passwordRecovery');
  expect((await call('POST', `/api/auth/passwordHashVerify/${hash}`, { body: { newPassword: 'changed-pass' } })).status).toBe(200);
  badTokens.push(
    { label: 'no token', token: '' },
    { label: 'garbage token', token: 'not-a-jwt' },
    { label: 'expired token', token: expired },
    { label: 'token signed with another key', token: otherKey },
    { label: 'alg none token', token: unsigned },
    { label: 'token from before a password change', token: beforeChange },
  );
});

const fill = (path: string) => path.replace(/:[A-Za-z_]+\??/g, 'ZZZZZZZZZZZZZZZZ');
const send = (method: string, path: string, token: string) =>
  call(method, fill(path), { token: token || undefined, ...(method === 'GET' ? {} : { body: {} }) });

function expected(rule: RouteRule, who: Identity): 'allowed' | 403 {
  if (rule === 'public' || rule === 'authenticated') return 'allowed';
  const active = who.active;
  if ('area' in rule) return canReach(who.role, rule.area, active) ? 'allowed' : 403;
  const roleOk = rule.roles.includes(who.role);
  const subOk = !rule.needsSubscription || active || who.role === 'admin' || who.role === 'marketing';
  return roleOk && subOk ? 'allowed' : 403;
}

describe('access matrix', () => {
  it('has a rule for every API route, and no rule for a route that is gone', () => {
    const missing = routes.filter((r) => !ruleFor(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing, 'routes without a rule in worker/security/route-access.ts').toEqual([]);
    const known = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(ROUTE_RULES).filter((k) => !known.has(k))).toEqual([]);
    expect(routes.length).toBeGreaterThan(10);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s',
    async (_name, route) => {
      const rule = ruleFor(route.method, route.path)!;
      const failures: string[] = [];
      for (const bad of badTokens) {
        const res = await send(route.method, route.path, bad.token);
        if (rule === 'public') {
          if (res.status === 401 || res.status >= 500) failures.push(`${bad.label}: ${res.status}`);
        } else if (res.status !== 401) failures.push(`${bad.label}: expected 401, got ${res.status}`);
      }
      for (const who of identities) {
        // sign afresh: an earlier route (logout, password change) may have ended older sessions
        const token = await sessionToken(who.userId);
        const res = await send(route.method, route.path, token);
        const want = expected(rule, who);
        if (res.status >= 500) failures.push(`${who.label}: ${res.status}`);
        else if (want === 403 && res.status !== 403) failures.push(`${who.label}: expected 403, got ${res.status}`);
        else if (want === 'allowed' && (res.status === 401 || res.status === 403))
          failures.push(`${who.label}: expected to be let through, got ${res.status} ${res.body?.message}`);
        if (res.status >= 400 && typeof res.body?.message !== 'string') failures.push(`${who.label}: no message`);
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );
});
