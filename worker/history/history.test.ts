import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { callBody } from '../../scripts/call-body.mjs';
import { app } from '../app';
import { callHistory, mcSettings } from '../db/schema';
import { d1Of } from '../lib/d1';
import { randomId } from '../lib/ids';
import { call, countRows, createTeam, createUser, errorBody, everyDb, type TestUser, testEnv } from '../test/helpers';
import { HISTORY_MESSAGES } from './history.messages';
import { DAY_MS } from './history.schema';

type Team = Awaited<ReturnType<typeof createTeam>>;

/** An MC straight into the user's shard: a manager's own (no parent) or an agent's setting pointing at one. */
async function addMc(user: TestUser, name: string, parentMcId: string | null = null) {
  const id = randomId();
  await user.db.insert(mcSettings).values({ id, userId: user.id, name, parentMcId, createdAt: new Date() });
  return id;
}

const NOW = Date.now();
const log = (user: TestUser, body: Record<string, unknown>) => call('POST', '/api/callHistory/log', { token: user.token, body });
const contact = (mcSettingId: string, extra: Record<string, unknown> = {}) => callBody({ clientId: randomId(), mcSettingId, loadDate: '2026-07-10', ...extra });
const range = (fromDaysAgo = 10, toDaysAhead = 1) => ({
  dateFrom: new Date(NOW - fromDaysAgo * DAY_MS).toISOString(),
  dateTo: new Date(NOW + toDaysAhead * DAY_MS).toISOString(),
});
const history = (user: TestUser, body: Record<string, unknown>) =>
  call('POST', '/api/callHistory/getHistory', {
    token: user.token,
    body: { usersList: [], mcList: [], phoneLogs: true, emailLogs: true, ...range(), ...body },
  });
const brokers = (rows: { brokerName: string }[]) => rows.map((r) => r.brokerName).sort();

async function logOk(user: TestUser, body: Record<string, unknown>) {
  const res = await log(user, body);
  if (res.status !== 201) throw new Error(`log: ${res.status} ${res.text}`);
  return res.body;
}

describe('POST /api/callHistory/log (extension ingestion)', () => {
  let team: Team;
  let teamMc: string;
  let agentMc: string;
  beforeAll(async () => {
    team = await createTeam();
    teamMc = await addMc(team.manager, 'Swift Haul MC 104233');
    agentMc = await addMc(team.agents[0], 'Swift Haul MC 104233', teamMc);
  });

  it("logs a call on the caller's own MC: 201, the row, the team and MC name fixed at write time", async () => {
    const body = contact(agentMc, { callDate: NOW - 3600_000 });
    const res = await log(team.agents[0], body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      parent: { name: team.agents[0].name },
      mcName: 'Swift Haul MC 104233',
      brokerName: 'Total Quality Logistics',
      address: '4289 Ivy Pointe Blvd, Cincinnati, OH',
      origin: 'Chicago, IL',
      dest: 'Dallas, TX',
      loadDate: '2026-07-10',
      callDate: new Date(NOW - 3600_000).toISOString(),
      kind: 'call',
      // stored normalised: E.164
      contact: '+13125550142',
      // an MC without a line (inserted straight into D1): no line, no caller number
      line: null,
      fromNumber: '',
      // an extension from before Truckstop sends no board: DAT
      board: 'dat',
    });
    const [row] = await team.agents[0].db.select().from(callHistory).where(eq(callHistory.id, res.body._id));
    expect(row).toMatchObject({ userId: team.agents[0].id, teamId: team.manager.id, mcSettingId: agentMc, clientId: body.clientId, board: 'dat' });
  });

  it.each([
    ['(312) 555-0142', '+13125550142'],
    ['312.555.0142 ext 12', '+13125550142;ext=12'],
    ['(555) 555-5555 x123', '+15555555555;ext=123'],
    ['312-555-0142 ext. 7', '+13125550142;ext=7'],
    ['1-800-555-0199', '+18005550199'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('takes the phone %s as DAT shows it and stores %s', async (shown, stored) => {
    const res = await log(team.agents[0], contact(agentMc, { contact: shown }));
    expect(res.status).toBe(201);
    expect(res.body.contact).toBe(stored);
    const [row] = await team.agents[0].db.select().from(callHistory).where(eq(callHistory.id, res.body._id));
    expect(row!.contact).toBe(stored);
  });

  it('a retry that writes the same number another way is the same contact: 200, one row', async () => {
    const body = contact(agentMc, { contact: '(312) 555-0142 x 12' });
    expect((await log(team.agents[0], body)).status).toBe(201);
    const before = await countRows('call_history');
    const again = await log(team.agents[0], { ...body, contact: '+1 312.555.0142 ext 12' });
    expect(again.status).toBe(200);
    expect(again.body.contact).toBe('+13125550142;ext=12');
    expect(await countRows('call_history')).toBe(before);
    // another extension is another contact
    expect((await log(team.agents[0], { ...body, contact: '(312) 555-0142 x 13' })).status).toBe(409);
  });

  it('a manager logs on its own MC into its own team; no callDate means now', async () => {
    const res = await log(team.manager, contact(teamMc, { kind: 'email', contact: 'dispatch@tql.example' }));
    expect(res.status).toBe(201);
    expect(Math.abs(new Date(res.body.callDate).getTime() - Date.now())).toBeLessThan(60_000);
    const [row] = await team.manager.db.select().from(callHistory).where(eq(callHistory.id, res.body._id));
    expect(row).toMatchObject({ teamId: team.manager.id, kind: 'email', contact: 'dispatch@tql.example' });
  });

  it('is idempotent on the client id: a retry answers 200 with the same row and inserts nothing', async () => {
    const body = contact(agentMc);
    const first = await log(team.agents[0], body);
    expect(first.status).toBe(201);
    const before = await countRows('call_history');
    const again = await log(team.agents[0], body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // a retry without callDate keeps the first contact date
    expect(await countRows('call_history')).toBe(before);
    // the same client id for a different contact is refused
    const reused = await log(team.agents[0], { ...body, brokerName: 'Coyote Logistics' });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe(HISTORY_MESSAGES.clientIdReused.text);
    expect(await countRows('call_history')).toBe(before);
    // client ids are per user: another user may use the same one
    const other = await log(team.manager, { ...body, mcSettingId: teamMc });
    expect(other.status).toBe(201);
    expect(await countRows('call_history')).toBe(before + 1);
  });

  it('two retries at once still store one row', async () => {
    const body = contact(agentMc);
    const before = await countRows('call_history');
    const [a, b] = await Promise.all([log(team.agents[0], body), log(team.agents[0], body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body._id).toBe(b.body._id);
    expect(await countRows('call_history')).toBe(before + 1);
  });

  it.each([
    [{ clientId: undefined }, HISTORY_MESSAGES.clientId.text],
    [{ clientId: '' }, HISTORY_MESSAGES.clientId.text],
    [{ clientId: 'has space' }, HISTORY_MESSAGES.clientId.text],
    [{ clientId: 'x'.repeat(101) }, HISTORY_MESSAGES.clientId.text],
    [{ mcSettingId: undefined }, HISTORY_MESSAGES.selectMc.text],
    [{ mcSettingId: '' }, HISTORY_MESSAGES.selectMc.text],
    [{ kind: 'fax' }, HISTORY_MESSAGES.kind.text],
    [{ brokerName: '  ' }, HISTORY_MESSAGES.brokerEmpty.text],
    [{ brokerName: undefined }, HISTORY_MESSAGES.brokerEmpty.text],
    [{ contact: 'call me' }, HISTORY_MESSAGES.phone.text],
    [{ contact: '' }, HISTORY_MESSAGES.phone.text],
    [{ contact: '555' }, HISTORY_MESSAGES.phone.text],
    [{ contact: '(312) 555-01' }, HISTORY_MESSAGES.phone.text],
    [{ kind: 'email', contact: '+1 312 555 0142' }, HISTORY_MESSAGES.email.text],
    [{ callDate: NOW + 3600_000 }, HISTORY_MESSAGES.contactDate.text],
    [{ callDate: NOW - 400 * DAY_MS }, HISTORY_MESSAGES.contactDate.text],
    [{ callDate: 'yesterday' }, HISTORY_MESSAGES.contactDate.text],
    [{ callDate: true }, HISTORY_MESSAGES.contactDate.text],
  ])('%o answers 400 %s and stores nothing', async (patch, message) => {
    const before = await countRows('call_history');
    const res = await log(team.agents[0], contact(agentMc, patch));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await countRows('call_history')).toBe(before);
  });

  it("only on the caller's own MC settings: the manager's MC, a teammate's, another team's answer 404", async () => {
    const other = await createTeam();
    const otherMc = await addMc(other.manager, 'Other MC');
    const teammateMc = await addMc(team.agents[1], 'Swift Haul MC 104233', teamMc);
    const before = await countRows('call_history');
    for (const mc of [teamMc, teammateMc, otherMc, 'unknown']) {
      const res = await log(team.agents[0], contact(mc));
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(HISTORY_MESSAGES.mcNotFound.text);
    }
    expect((await log(team.manager, contact(agentMc))).status).toBe(404);
    expect(await countRows('call_history')).toBe(before);
  });

  it('roles: agents and managers with a subscription; others 403, no token 401', async () => {
    const admin = await createUser('admin');
    const marketing = await createUser('marketing');
    const expired = await createUser('agent', { parentId: team.manager.id, subscriptionDays: -1 });
    const expiredMc = await addMc(expired, 'Swift Haul MC 104233', teamMc);
    const before = await countRows('call_history');
    const adminMc = await addMc(admin, 'Admin MC');
    expect((await log(admin, contact(adminMc))).status).toBe(403);
    expect((await log(team.director, contact(teamMc))).status).toBe(403);
    expect((await log(marketing, contact(teamMc))).status).toBe(403);
    const res = await log(expired, contact(expiredMc));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your subscription is not active');
    expect((await call('POST', '/api/callHistory/log', { body: contact(agentMc) })).status).toBe(401);
    expect(await countRows('call_history')).toBe(before);
  });
});

describe('POST /api/callHistory/getHistory', () => {
  let A: Team;
  let B: Team;
  let mcA: string;
  let mcA2: string;
  let a0Mc: string;
  let a0Mc2: string;
  let a1Mc: string;
  let mcB: string;
  let b0Mc: string;
  beforeAll(async () => {
    A = await createTeam();
    B = await createTeam();
    mcA = await addMc(A.manager, 'Alpha MC');
    mcA2 = await addMc(A.manager, 'Alpha Two MC');
    a0Mc = await addMc(A.agents[0], 'Alpha MC', mcA);
    a0Mc2 = await addMc(A.agents[0], 'Alpha Two MC', mcA2);
    a1Mc = await addMc(A.agents[1], 'Alpha MC', mcA);
    mcB = await addMc(B.manager, 'Beta MC');
    b0Mc = await addMc(B.agents[0], 'Beta MC', mcB);
    const day = (n: number) => NOW - n * DAY_MS;
    await logOk(A.agents[0], contact(a0Mc, { brokerName: 'A0 call today', callDate: day(0) - 60_000 }));
    await logOk(A.agents[0], contact(a0Mc, { brokerName: 'A0 email 2d', kind: 'email', contact: 'ops@broker.example', callDate: day(2) }));
    await logOk(A.agents[0], contact(a0Mc2, { brokerName: 'A0 call 5d on MC two', callDate: day(5) }));
    await logOk(A.agents[0], contact(a0Mc, { brokerName: 'A0 call 60d', callDate: day(60) }));
    await logOk(A.agents[1], contact(a1Mc, { brokerName: 'A1 call 1d', callDate: day(1) }));
    await logOk(A.manager, contact(mcA2, { brokerName: 'Manager call 3d', callDate: day(3) }));
    await logOk(B.agents[0], contact(b0Mc, { brokerName: 'B0 call 1d', callDate: day(1) }));
  });

  const TEAM_A_10D = ['A0 call 5d on MC two', 'A0 call today', 'A0 email 2d', 'A1 call 1d', 'Manager call 3d'];

  it("an agent gets its own rows only, newest first, with the spec's fields", async () => {
    const res = await history(A.agents[0], {});
    expect(res.status).toBe(200);
    expect(res.body.map((r: { brokerName: string }) => r.brokerName)).toEqual(['A0 call today', 'A0 email 2d', 'A0 call 5d on MC two']);
    expect(res.body[0]).toEqual({
      _id: expect.any(String),
      parent: { name: A.agents[0].name },
      mcName: 'Alpha MC',
      brokerName: 'A0 call today',
      address: '4289 Ivy Pointe Blvd, Cincinnati, OH',
      origin: 'Chicago, IL',
      dest: 'Dallas, TX',
      loadDate: '2026-07-10',
      callDate: new Date(NOW - 60_000).toISOString(),
      kind: 'call',
      contact: '+13125550142',
      line: null,
      fromNumber: '',
      board: 'dat',
    });
    // usersList of itself is fine; of anyone else 404; managerId is ignored for an agent
    expect((await history(A.agents[0], { usersList: [A.agents[0].id], managerId: A.manager.id })).body).toHaveLength(3);
    for (const other of [A.agents[1].id, A.manager.id, B.agents[0].id]) {
      const res2 = await history(A.agents[0], { usersList: [A.agents[0].id, other] });
      expect(res2.status).toBe(404);
      expect(res2.body.message).toBe(HISTORY_MESSAGES.userNotFound.text);
    }
  });

  it('an agent filters by its own MC settings', async () => {
    expect(brokers((await history(A.agents[0], { mcList: [a0Mc2] })).body)).toEqual(['A0 call 5d on MC two']);
    expect(brokers((await history(A.agents[0], { mcList: [b0Mc] })).body)).toEqual([]);
  });

  it("a manager gets its team's rows (its own and its agents'), never another team's", async () => {
    const res = await history(A.manager, { managerId: A.manager.id });
    expect(res.status).toBe(200);
    expect(brokers(res.body)).toEqual(TEAM_A_10D);
    expect(brokers((await history(A.manager, { usersList: [A.agents[1].id] })).body)).toEqual(['A1 call 1d']);
    expect(brokers((await history(A.manager, { usersList: [A.manager.id, A.agents[1].id] })).body)).toEqual(['A1 call 1d', 'Manager call 3d']);
    const foreign = await history(A.manager, { usersList: [A.agents[0].id, B.agents[0].id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(HISTORY_MESSAGES.userNotFound.text);
    const otherManager = await history(A.manager, { managerId: B.manager.id });
    expect(otherManager.status).toBe(404);
    expect(otherManager.body.message).toBe(HISTORY_MESSAGES.managerNotFound.text);
    expect(brokers((await history(B.manager, {})).body)).toEqual(['B0 call 1d']);
    // the teams are on different shards, and each team's rows are in its shard alone
    expect(A.manager.shard).not.toBe(B.manager.shard);
    for (const lead of [A.manager, B.manager]) {
      const holding = await Promise.all(
        everyDb().map(async ({ shard, db }) => ((await db.select().from(callHistory).where(eq(callHistory.teamId, lead.id))).length ? [shard] : [])),
      );
      expect(holding.flat()).toEqual([lead.shard]);
    }
  });

  it('a team MC matches the rows on it and on every agent setting pointing at it', async () => {
    expect(brokers((await history(A.manager, { mcList: [mcA] })).body)).toEqual(['A0 call today', 'A0 email 2d', 'A1 call 1d']);
    expect(brokers((await history(A.manager, { mcList: [mcA2] })).body)).toEqual(['A0 call 5d on MC two', 'Manager call 3d']);
    expect(brokers((await history(A.manager, { mcList: [mcA, mcA2] })).body)).toEqual(TEAM_A_10D);
    // another team's MC matches nothing of this team
    expect((await history(A.manager, { mcList: [mcB] })).body).toEqual([]);
  });

  it('Phone Calls and Emails toggles', async () => {
    expect(brokers((await history(A.manager, { phoneLogs: false })).body)).toEqual(['A0 email 2d']);
    expect((await history(A.manager, { emailLogs: false })).body).toHaveLength(4);
    expect((await history(A.manager, { phoneLogs: false, emailLogs: false })).body).toEqual([]);
  });

  it("a director picks one of its own managers; another director's manager answers 404", async () => {
    const none = await history(A.director, {});
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(HISTORY_MESSAGES.selectManager.text);
    expect(brokers((await history(A.director, { managerId: A.manager.id })).body)).toEqual(TEAM_A_10D);
    expect(brokers((await history(A.director, { managerId: A.manager.id, usersList: [A.agents[0].id], mcList: [mcA] })).body)).toEqual([
      'A0 call today',
      'A0 email 2d',
    ]);
    for (const managerId of [B.manager.id, A.agents[0].id, A.director.id, 'unknown']) {
      const res = await history(A.director, { managerId });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(HISTORY_MESSAGES.managerNotFound.text);
    }
    const foreignUser = await history(A.director, { managerId: A.manager.id, usersList: [B.agents[0].id] });
    expect(foreignUser.status).toBe(404);
  });

  it("the admin reads any manager's team; marketing and no token are refused", async () => {
    const admin = await createUser('admin');
    expect(brokers((await history(admin, { managerId: B.manager.id })).body)).toEqual(['B0 call 1d']);
    expect((await history(admin, {})).status).toBe(400);
    expect((await history(await createUser('marketing'), { managerId: A.manager.id })).status).toBe(403);
    const expired = await createUser('manager', { subscriptionDays: -1 });
    const res = await history(expired, {});
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your subscription is not active');
    expect((await call('POST', '/api/callHistory/getHistory', { body: range() })).status).toBe(401);
  });

  it('the range is [dateFrom, dateTo): ISO strings or ms timestamps', async () => {
    const from = NOW - 61 * DAY_MS;
    const res = await history(A.agents[0], { dateFrom: from, dateTo: from + 40 * DAY_MS });
    expect(res.status).toBe(200);
    expect(brokers(res.body)).toEqual(['A0 call 60d']);
    // the end is exclusive
    const rows = (await history(A.agents[0], {})).body as { callDate: string }[];
    const newest = new Date(rows[0]!.callDate).getTime();
    expect((await history(A.agents[0], { dateFrom: NOW - 3 * DAY_MS, dateTo: newest })).body).toHaveLength(1);
    expect((await history(A.agents[0], { dateFrom: String(NOW - 3 * DAY_MS), dateTo: String(newest + 1) })).body).toHaveLength(2);
  });

  it.each([
    ['From after To', { dateFrom: new Date(NOW).toISOString(), dateTo: new Date(NOW - DAY_MS).toISOString() }],
    ['From equal to To', { dateFrom: NOW, dateTo: NOW }],
    ['more than 40 days', { dateFrom: NOW - 42 * DAY_MS, dateTo: NOW }],
    ['not a date', { dateFrom: 'last week', dateTo: NOW }],
    ['no dateFrom', { dateFrom: undefined }],
    ['a boolean', { dateTo: true }],
    ['null', { dateFrom: null }],
  ])('%s answers 400 with the range message', async (_name, body) => {
    const res = await history(A.manager, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(HISTORY_MESSAGES.range.text);
  });

  it('40 calendar days with both ends (dateTo is the last day plus one, 40 days after From) are allowed; 41 are not', async () => {
    const from = new Date(NOW - 40 * DAY_MS);
    from.setUTCHours(0, 0, 0, 0);
    expect((await history(A.manager, { dateFrom: from.toISOString(), dateTo: new Date(from.getTime() + 40 * DAY_MS).toISOString() })).status).toBe(200);
    // Oct 14 to Nov 23 typed: 41 days, refused like the screen refuses it
    expect((await history(A.manager, { dateFrom: from.toISOString(), dateTo: new Date(from.getTime() + 41 * DAY_MS).toISOString() })).status).toBe(400);
  });

  it('bad lists answer 400, never a 5xx', async () => {
    expect((await history(A.manager, { usersList: 'all' })).status).toBe(400);
    expect((await history(A.manager, { mcList: [1, 2] })).status).toBe(400);
    expect((await history(A.manager, { phoneLogs: 'yes' })).status).toBe(400);
    expect(
      (await call('POST', '/api/callHistory/getHistory', { token: A.manager.token, rawBody: '{nope', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
  });

  it("a deleted agent's rows stay in its team's history under its name", async () => {
    const gone = await createUser('agent', { parentId: A.manager.id, name: 'Gone Agent' });
    const goneMc = await addMc(gone, 'Alpha MC', mcA);
    await logOk(gone, contact(goneMc, { brokerName: 'Gone agent call' }));
    expect((await call('DELETE', '/api/user', { token: A.manager.token, body: { userId: gone.id } })).status).toBe(200);
    const rows = (await history(A.manager, { usersList: [gone.id] })).body as { brokerName: string; parent: { name: string } }[];
    expect(rows.map((r) => [r.brokerName, r.parent.name])).toEqual([['Gone agent call', 'Gone Agent']]);
  });
});

/** Every SELECT a call runs, with its parameters, through the caller's shard's D1 binding (and its sessions) that records them. */
async function selectsOf(who: TestUser, path: string, body: unknown) {
  const log: { sql: string; params: unknown[] }[] = [];
  const recording = (real: D1Database): D1Database =>
    new Proxy(real, {
      get(target, prop) {
        if (prop === 'withSession') return (constraint?: string) => recording(target.withSession(constraint) as unknown as D1Database);
        if (prop === 'prepare') {
          return (sql: string) => {
            const stmt = target.prepare(sql);
            const bind = stmt.bind.bind(stmt);
            Object.assign(stmt, {
              bind: (...params: unknown[]) => {
                log.push({ sql, params });
                return bind(...params);
              },
            });
            return stmt;
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const shard = recording(d1Of(testEnv, who.shard));
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { ...testEnv, [who.shard]: shard },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return log.filter((l) => /^\s*select/i.test(l.sql));
}

describe('the board a contact came from (DAT, Truckstop)', () => {
  let T: Team;
  let mc: string;
  let own: string;
  beforeAll(async () => {
    T = await createTeam();
    mc = await addMc(T.manager, 'Board MC');
    own = await addMc(T.agents[0], 'Board MC', mc);
  });

  it('is stored as sent, answered with the row, and filters the history; all boards without one', async () => {
    const ts = await log(T.agents[0], contact(own, { brokerName: 'From Truckstop', board: 'truckstop' }));
    expect(ts.status).toBe(201);
    expect(ts.body.board).toBe('truckstop');
    await logOk(T.agents[0], contact(own, { brokerName: 'From DAT', board: 'dat' }));
    await logOk(T.agents[0], contact(own, { brokerName: 'From an older extension' }));
    const of = async (board: string | null | undefined) => {
      const res = await history(T.manager, board === undefined ? {} : { board });
      expect(res.status).toBe(200);
      return res.body.map((r: { brokerName: string; board: string }) => `${r.board}: ${r.brokerName}`).sort();
    };
    expect(await of('truckstop')).toEqual(['truckstop: From Truckstop']);
    expect(await of('dat')).toEqual(['dat: From DAT', 'dat: From an older extension']);
    expect(await of(null)).toEqual(['dat: From DAT', 'dat: From an older extension', 'truckstop: From Truckstop']);
    expect(await of(undefined)).toEqual(await of(null));
  });

  it('an unknown board is refused with its message, and nothing is stored', async () => {
    const before = await countRows('call_history');
    for (const board of ['123loadboard', '', 'DAT', 7]) {
      const res = await log(T.agents[0], contact(own, { board }));
      expect(res.status, String(board)).toBe(400);
      expect(res.body).toEqual(errorBody(HISTORY_MESSAGES.board));
    }
    expect(await countRows('call_history')).toBe(before);
    const filtered = await history(T.manager, { board: 'loadlink' });
    expect(filtered.status).toBe(400);
    expect(filtered.body).toEqual(errorBody(HISTORY_MESSAGES.board));
  });

  it('the same client id from another board is the same contact (a retry): one row, the first board kept', async () => {
    const body = contact(own, { brokerName: 'Retried', board: 'truckstop' });
    expect((await log(T.agents[0], body)).status).toBe(201);
    const again = await log(T.agents[0], { ...body, board: 'dat' });
    expect(again.status).toBe(200);
    expect(again.body.board).toBe('truckstop');
  });
});

describe('query plans', () => {
  it('every filter combination reads call_history through its team or user index', async () => {
    const T = await createTeam();
    const mc = await addMc(T.manager, 'Plan MC');
    const own = await addMc(T.agents[0], 'Plan MC', mc);
    const cases: [TestUser, Record<string, unknown>][] = [
      [T.agents[0], { mcList: [own] }],
      [T.manager, { usersList: [T.agents[0].id, T.agents[1].id], mcList: [mc] }],
      [T.manager, { phoneLogs: false }],
      [T.director, { managerId: T.manager.id, usersList: [T.manager.id], mcList: [mc] }],
      [T.manager, { board: 'truckstop' }],
      [T.agents[0], { board: 'dat' }],
    ];
    for (const [who, extra] of cases) {
      const selects = await selectsOf(who, '/api/callHistory/getHistory', {
        usersList: [],
        mcList: [],
        phoneLogs: true,
        emailLogs: true,
        ...range(),
        ...extra,
      });
      const history = selects.filter((s) => s.sql.includes('from "call_history"'));
      expect(history).toHaveLength(1);
      for (const { sql, params } of selects) {
        const plan = await d1Of(testEnv, who.shard)
          .prepare(`explain query plan ${sql}`)
          .bind(...params)
          .all<{ detail: string }>();
        const details = plan.results.map((r) => r.detail);
        const scans = details.filter((d) => /^SCAN (call_history|users|mc_settings)\b/.test(d) && !/USING (COVERING )?INDEX/.test(d));
        expect(scans, `${sql}\n${details.join('\n')}`).toEqual([]);
        if (sql.includes('from "call_history"')) expect(details.join('\n')).toMatch(/SEARCH call_history USING INDEX call_history_(team|user)_date/);
      }
    }
  });
});

describe('getHistory answers rows exactly as they were logged', () => {
  it('the same JSON as the ingestion call: quotes, unicode, control characters, milliseconds', async () => {
    const team = await createTeam();
    const mc = await addMc(team.manager, 'Ünïcode "MC" \\ 🚚');
    const tricky = [
      contact(mc, { brokerName: 'Quote "Brokers" \\ LLC', address: 'Line one\nline two\ttab \u0001', callDate: NOW - 3 * DAY_MS + 7 }),
      contact(mc, { brokerName: 'Ставка Logistics 物流 🚛', origin: "O'Hare, IL", dest: '</script><b>x</b>', callDate: NOW - DAY_MS - 999 }),
      contact(mc, {
        kind: 'email',
        contact: 'ops+1@broker.example',
        brokerName: 'Plain',
        address: '',
        origin: '',
        dest: '',
        loadDate: '',
        callDate: NOW - 5 * DAY_MS,
      }),
    ];
    const logged = [];
    for (const body of tricky) logged.push(await logOk(team.manager, body));
    const res = await history(team.manager, {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    // newest first, each row identical to what the log call answered for it
    expect(res.body).toEqual([logged[1], logged[0], logged[2]]);
    expect(res.body[1].callDate).toBe(new Date(NOW - 3 * DAY_MS + 7).toISOString());
  });
});
