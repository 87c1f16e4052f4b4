import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../lib/messages';
import { decide, ROLES, type Role, RULES, type RuleName } from '../lib/permissions';
import { call, createUser, sessionToken, type TestUser, testEnv, tokenFromMail } from '../test/helpers';
import { appRoutes } from '../test/routes';

/** Expected statuses come from the permissions table; a route added without a rule fails the first test. */
const allRoutes = appRoutes();
/**
 * Split in PARTS files: the pool wraps each Durable Object prototype in one more Proxy per
 * construction, so one file of 130 routes took 17 minutes and overflowed the stack.
 */
export const PARTS = 4;
/** The spec writes these calls with a trailing slash: the app's `strict: false` answers them through the route without one. */
const SPEC_SLASHED = [
  'PUT /api/user/update/filterOverride/',
  'PUT /api/broker/update/isactive/',
  'PUT /api/broker/update/delete/',
  'GET /api/mcSettings/',
  'DELETE /api/mcSettings/',
  'POST /api/mcSettings/byParentId/',
  'POST /api/mcSettings/add/',
  'POST /api/activeLoad/delete/',
  'POST /api/activeLoad/add/',
  'GET /api/promocode/',
];
// development-only calls are not in the production Worker at all (worker/dev/index.ts)
const productRoutes = allRoutes.filter((r) => r.path.startsWith('/api/') && !r.path.startsWith('/api/dev/'));
const routes = [
  ...productRoutes,
  ...SPEC_SLASHED.map((call) => {
    const [method, path] = call.split(' ') as [string, string];
    const route = productRoutes.find((r) => r.method === method && r.path === path.slice(0, -1));
    if (!route) throw new Error(`no route for the spec's ${call}`);
    return { ...route, path };
  }),
];

type Identity = { label: string; role: Role; active: boolean; userId: string };

const fill = (path: string) => path.replace(/:[A-Za-z_]+\??/g, 'ZZZZZZZZZZZZZZZZ');
const send = (method: string, path: string, token: string) =>
  call(method, fill(path), { token: token || undefined, ...(method === 'GET' ? {} : { body: {} }) });

const refusedAs = (body: { message?: string; code?: string } | undefined, refusal: Message) => body?.message === refusal.text && body.code === refusal.code;
const expected = (rule: RuleName, who: Identity): 'allowed' | 403 => (decide(RULES[rule], who.role, who.active).ok ? 'allowed' : 403);
const isOpen = (rule: RuleName) => rule === 'public' || rule === 'development';

export function accessMatrix(part: number) {
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

  describe(`access matrix, part ${part + 1} of ${PARTS}`, () => {
    it.runIf(part === 0)('every route of the app names exactly one access rule', () => {
      const wrong = allRoutes.filter((r) => r.rules.length !== 1).map((r) => `${r.method} ${r.path}: ${r.rules.join(', ') || 'no allow()'}`);
      expect(wrong, "routes without exactly one allow('rule')").toEqual([]);
      expect(productRoutes.length).toBeGreaterThan(80);
    });

    it.each(routes.filter((_, i) => i % PARTS === part).map((r) => [`${r.method} ${r.path}`, r] as const))(
      '%s',
      async (_name, route) => {
        const rule = route.rules[0]!;
        const failures: string[] = [];
        for (const bad of badTokens) {
          const res = await send(route.method, route.path, bad.token);
          if (isOpen(rule)) {
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
          else if (want === 403 && !refusedAs(res.body, (decide(RULES[rule], who.role, who.active) as { refusal: Message }).refusal))
            failures.push(`${who.label}: refused with "${res.body?.message}" (${res.body?.code})`);
          else if (want === 'allowed' && (res.status === 401 || res.status === 403))
            failures.push(`${who.label}: expected to be let through, got ${res.status} ${res.body?.message}`);
          if (res.status >= 400 && typeof res.body?.message !== 'string') failures.push(`${who.label}: no message`);
        }
        expect(failures).toEqual([]);
      },
      120_000,
    );
  });
}
