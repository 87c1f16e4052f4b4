import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../app';
import type { Bindings } from '../env';
import { allShards, d1Of } from '../lib/d1';
import { runReminders } from '../subscriptions/reminders';
import { createTeam, createUser, type TestUser, testEnv } from '../test/helpers';

/**
 * The query plan of every statement the list screens run: each call goes through the app with
 * a D1 binding that records the SQL it is given, and every recorded SELECT is explained with
 * its own parameters. No full table scan is allowed on the tables that grow with use.
 */
const BIG_TABLES = [
  'users',
  'broker_filters',
  'broker_filter_mcs',
  'broker_filter_users',
  'call_history',
  'active_loads',
  'payments',
  'payment_items',
  'payment_refunds',
  'payment_receipts',
  'subscription_reminders',
  'links',
  'link_click_stats',
  'api_keys',
  'login_events',
  'promo_uses',
  'mc_settings',
  'mc_lines',
];

interface Recorded {
  sql: string;
  params: unknown[];
}

function recordingDb(real: D1Database, log: Recorded[]): D1Database {
  const wrap = (stmt: D1PreparedStatement, entry: Recorded): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') {
          return (...args: unknown[]) => {
            const bound = { sql: entry.sql, params: args };
            log.push(bound);
            return wrap(target.bind(...args), bound);
          };
        }
        if (prop === '__real') return target;
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (sql: string) => wrap(target.prepare(sql), { sql, params: [] });
      }
      if (prop === 'batch') {
        return (stmts: D1PreparedStatement[]) => target.batch(stmts.map((s) => (s as unknown as { __real?: D1PreparedStatement }).__real ?? s));
      }
      // the app queries through D1 sessions (lib/db.ts): record theirs too
      if (prop === 'withSession') {
        return (constraint?: string) => recordingDb((target as D1Database).withSession(constraint) as unknown as D1Database, log);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The test's bindings with every database recording (the control plane and each shard: every
 * database has the same schema, so a statement is explained on `DB` whichever ran it).
 */
function recordingEnv(log: Recorded[]): Bindings {
  const env: Record<string, unknown> = { ...testEnv };
  for (const shard of allShards(testEnv)) env[shard] = recordingDb(d1Of(testEnv, shard), log);
  return env as unknown as Bindings;
}

async function recordCall(who: TestUser, method: string, path: string, body?: unknown): Promise<Recorded[]> {
  const log: Recorded[] = [];
  const env = recordingEnv(log);
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(400);
  return log;
}

async function fullScans(log: Recorded[]): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { sql, params } of log) {
    const key = `${sql}|${params.length}`;
    if (!/^\s*select/i.test(sql) || seen.has(key)) continue;
    seen.add(key);
    const plan = await testEnv.DB.prepare(`explain query plan ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    for (const { detail } of plan.results) {
      const m = /^SCAN (\w+)(.*)$/.exec(detail);
      if (m && BIG_TABLES.includes(m[1]!) && !/USING (COVERING )?INDEX/.test(m[2]!)) problems.push(`${detail}  <=  ${sql.slice(0, 160)}`);
    }
  }
  return problems;
}

let team: Awaited<ReturnType<typeof createTeam>>;
let admin: TestUser;
let apiKey: string;
let linkId: string;
beforeAll(async () => {
  team = await createTeam();
  admin = await createUser('admin');
  const key = await app.request(
    '/api/link/keys',
    { method: 'POST', headers: { authorization: `Bearer ${team.manager.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'plans' }) },
    testEnv,
  );
  apiKey = ((await key.json()) as { key: string }).key;
  const link = await app.request(
    '/api/link/generate',
    {
      method: 'POST',
      headers: { authorization: `Bearer ${team.manager.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'https://example.com/plans' }),
    },
    testEnv,
  );
  linkId = ((await link.json()) as { _id: string })._id;
});

const now = Date.now();
const LIST_CALLS: [string, () => [TestUser, string, string, unknown?]][] = [
  ['Users List (manager)', () => [team.manager, 'GET', '/api/user']],
  ['Users List (director)', () => [team.director, 'GET', '/api/user']],
  ['Profile', () => [team.manager, 'GET', `/api/user/${team.agents[0].id}`]],
  ['team lists', () => [team.manager, 'POST', '/api/user/managerChildUsers', { parentId: team.manager.id, includeParent: true }]],
  ['Payment History', () => [team.manager, 'GET', '/api/payment/paymentHistory']],
  ['monthly price with a pending discount', () => [team.manager, 'GET', '/api/payment/monthlyprice']],
  ['Payment History (agent)', () => [team.agents[0], 'GET', '/api/payment/paymentHistory']],
  ['Admin payments totals', () => [admin, 'GET', '/api/payment/summary']],
  ['Links list', () => [team.manager, 'GET', '/api/link']],
  ['Links list with an API key', () => [{ ...team.manager, token: apiKey }, 'GET', '/api/link']],
  ['API keys list', () => [team.manager, 'GET', '/api/link/keys']],
  ['Links export', () => [team.manager, 'GET', '/api/link/export.csv']],
  ["One link's clicks export", () => [team.manager, 'GET', `/api/link/${linkId}/clicks.csv`]],
  ['Promo lists', () => [admin, 'GET', '/api/promocode/usedAndPublic']],
  [
    'Contact History (manager)',
    () => [
      team.manager,
      'POST',
      '/api/callHistory/getHistory',
      {
        usersList: [team.manager.id, team.agents[0].id],
        mcList: [],
        phoneLogs: true,
        emailLogs: true,
        managerId: team.manager.id,
        dateFrom: new Date(now - 30 * 86_400_000).toISOString(),
        dateTo: new Date(now + 86_400_000).toISOString(),
      },
    ],
  ],
  ...(
    [
      ['Contact History page (manager)', () => [team.manager, { usersList: [], mcList: [] }]],
      [
        'Contact History page: users, MCs, kind, search, Company, sort by Agent (director)',
        () => [
          team.director,
          {
            managerId: team.manager.id,
            usersList: [team.agents[0].id],
            mcList: ['some-mc'],
            phoneLogs: false,
            search: 'logistics',
            company: 'TQL',
            sort: { column: 'agent', dir: 'asc' },
            page: 3,
            pageSize: 50,
            timeZone: 'America/Chicago',
          },
        ],
      ],
      ['Contact History page: agent, sort by Address', () => [team.agents[0], { search: '312 555', sort: { column: 'address', dir: 'desc' } }]],
    ] as [string, () => [TestUser, Record<string, unknown>]][]
  ).map(([name, make]): [string, () => [TestUser, string, string, unknown?]] => [
    name,
    () => {
      const [who, extra] = make();
      return [
        who,
        'POST',
        '/api/callHistory/page',
        { dateFrom: new Date(now - 30 * 86_400_000).toISOString(), dateTo: new Date(now + 86_400_000).toISOString(), ...extra },
      ];
    },
  ]),
  [
    'Contact History export sorted by Company (manager)',
    () => [
      team.manager,
      'POST',
      '/api/callHistory/export',
      {
        sort: { column: 'brokerName', dir: 'asc' },
        search: 'x',
        dateFrom: new Date(now - 30 * 86_400_000).toISOString(),
        dateTo: new Date(now + 86_400_000).toISOString(),
      },
    ],
  ],
  ['Active loads (team)', () => [team.manager, 'POST', '/api/activeLoad/team', {}]],
  ['Active loads (mine)', () => [team.agents[0], 'GET', '/api/activeLoad/my']],
  ['Broker filters search', () => [team.manager, 'POST', '/api/broker', { name: '', allMC: true, mcList: [], teamWithMe: true }]],
  ['Broker filters search, short term (agent)', () => [team.agents[0], 'POST', '/api/broker', { name: 'ri', allMC: true, mcList: [], teamWithoutMe: true }]],
  ["The extension's filter list (agent)", () => [team.agents[0], 'GET', '/api/broker/minified']],
  ['MC settings', () => [team.manager, 'GET', '/api/mcSettings']],
  ["The board's team contacts (agent)", () => [team.agents[0], 'GET', '/api/team/contacts']],
  ['Analytics', () => [admin, 'POST', '/api/analytics/loginHistory', { dateFrom: now - 7 * 86_400_000 }]],
];

describe('query plans of the list screens', () => {
  it.each(LIST_CALLS)('%s uses indexes on the big tables', async (_name, make) => {
    const [who, method, path, body] = make();
    const log = await recordCall(who, method, path, body);
    expect(log.length).toBeGreaterThan(0);
    expect(await fullScans(log)).toEqual([]);
  });
});

describe('query plans that must take one index', () => {
  it("the menu's queue count reads the partial index of waiting filters, not the team's filters", async () => {
    const log = await recordCall(team.manager, 'GET', '/api/broker/queue/count');
    const count = log.find((l) => /count\(\*\)/i.test(l.sql) && /broker_filters/.test(l.sql));
    expect(count).toBeDefined();
    const plan = await testEnv.DB.prepare(`explain query plan ${count!.sql}`)
      .bind(...count!.params)
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail)).toEqual([
      expect.stringMatching(/^SEARCH broker_filters USING (COVERING )?INDEX broker_filters_team_queue \(team_id=\?\)/),
    ]);
  });
});

describe('query plans of the scheduled jobs', () => {
  it('the reminders job reads the users ending soon through an index, not a scan', async () => {
    const manager = await createUser('manager', { subscriptionDays: 2.5 });
    await createUser('agent', { parentId: manager.id, subscriptionDays: 0.5 });
    const log: Recorded[] = [];
    const sent = await runReminders(recordingEnv(log));
    expect(sent.reminders).toBeGreaterThanOrEqual(2);
    expect(sent.digests).toBeGreaterThanOrEqual(1);
    const due = log.find((l) => /from "users" where .*"subscription_end_date" >/i.test(l.sql));
    expect(due).toBeDefined();
    // a range search of the end-date index: not even a scan of another index (all live users)
    const plan = await testEnv.DB.prepare(`explain query plan ${due!.sql}`)
      .bind(...due!.params)
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail)).toEqual([
      expect.stringMatching(/^SEARCH users USING INDEX users_subscription_end \(subscription_end_date>\? AND subscription_end_date<\?\)/),
    ]);
    expect(await fullScans(log)).toEqual([]);
  });
});
