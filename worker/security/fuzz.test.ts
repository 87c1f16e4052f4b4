import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../app';
import { call, createTeam, createUser, sessionToken, type TestUser } from '../test/helpers';
import { snapshotDb } from './db-snapshot';

/**
 * Property-based hostile input: every API route gets random and hostile bodies, params and
 * headers from several roles. Every answer must be a 4xx with a `message` (or a 2xx), never a
 * 5xx, and a refused request must leave the database exactly as it was.
 */
const FIELD_NAMES = [
  'email',
  'password',
  'name',
  'newName',
  'newEmail',
  'newPassword',
  'userId',
  'id',
  'filterId',
  'settingID',
  'orderId',
  'amount',
  'months',
  'from',
  'promoName',
  'effectType',
  'effectValue',
  'generateAmount',
  'list',
  'mcList',
  'usersList',
  'contacts',
  'type',
  'dateFrom',
  'dateTo',
  'managerId',
  'parentId',
  'includeParent',
  'userToBePaidId',
  'paymentType',
  'isActive',
  'newDate',
  'newParent',
  'userNewType',
  'newFilters',
  'mcSettings',
  'lines',
  'clientId',
  'clientType',
  'country',
  'phone',
  'repeatPassword',
  'newUserType',
  'parentUser',
  'updateFilterId',
  'isVisible',
  'allMC',
  'onlyCreator',
  'remindersEnabled',
  'language',
  'userIds',
  'align',
  'paymentId',
  'reason',
  'monthsRemoved',
  'price',
  'effectiveFrom',
];

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '"; DROP TABLE users; --',
    '<script>alert(1)</script>',
    'javascript:alert(1)',
    '../../etc/passwd',
    '\u0000\u202e\uFFFF',
    '%00',
    '1e309',
    '-1',
    'x'.repeat(5000),
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileString, { maxKeys: 3 }),
);
const deepJson = fc.integer({ min: 50, max: 400 }).map((depth) => {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
});
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 6 }).map((o) => ({ json: o })),
  fc.anything({ maxDepth: 3 }).map((o) => ({ json: o })),
  deepJson.map((o) => ({ json: o })),
  fc.constantFrom('{"a":', 'not json', '[1,2', '{"email":"x"}}', '\u0000', '').map((raw) => ({ raw })),
);
const paramValue = fc.oneof(
  fc.constantFrom('x', '0', '-1', 'null', 'undefined', '%27%20OR%201%3D1', 'a'.repeat(300), '..%2F..'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/),
);

const routes = [
  ...new Map(
    app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/')).map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }]),
  ).values(),
];

function fill(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/:[A-Za-z_]+\??/g, () => values[i++ % values.length] ?? 'x');
}

let users: TestUser[] = [];
beforeAll(async () => {
  const team = await createTeam();
  const admin = await createUser('admin');
  const marketing = await createUser('marketing');
  users = [admin, team.manager, team.agents[0], team.director, marketing];
});

describe('hostile input on every route', () => {
  it('covers the API', () => {
    expect(routes.length).toBeGreaterThan(10);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s never answers 5xx and refusals change nothing',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(
          body,
          fc.array(paramValue, { minLength: 1, maxLength: 3 }),
          fc.integer({ min: 0, max: 5 }),
          fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16'),
          async (b, params, who, contentType) => {
            const user = who < users.length ? users[who] : undefined;
            // a fuzzed call may have ended the user's sessions (logout, password change): sign afresh
            const token = user ? await sessionToken(user.id) : undefined;
            const before = await snapshotDb();
            const res = await call(route.method, fill(route.path, params), {
              token,
              headers: { 'content-type': contentType },
              ...(route.method === 'GET' ? {} : 'raw' in b ? { rawBody: b.raw } : { rawBody: JSON.stringify(b.json) ?? 'null' }),
            });
            expect(res.status, `${route.method} ${route.path} -> ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
            if (res.status >= 400) {
              expect(typeof res.body?.message, res.text.slice(0, 200)).toBe('string');
              expect(await snapshotDb(), 'a refused request changed the database').toBe(before);
            }
          },
        ),
        { numRuns: 8 },
      );
    },
    120_000,
  );
});
