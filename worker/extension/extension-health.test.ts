import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { extensionHealthReports } from '../db/schema';
import type { Message } from '../lib/messages';
import { call, countRows, createUser, errorBody, everyDb, sessionToken, type TestUser } from '../test/helpers';
import { HEALTH_MESSAGES } from './extension-health.messages';

const report = (over: Record<string, unknown> = {}) => ({
  version: '0.3.0',
  layout: 'compact',
  rowsSeen: 44,
  unreadable: false,
  fields: { company: { read: 44, missed: 0 }, origin: { read: 44, missed: 0 }, detailsReference: { read: 2, missed: 1 } },
  ...over,
});
const post = (token: string, body: unknown) => call('POST', '/api/extension/health', { token, body });
const summary = (token: string, days?: number) => call('GET', `/api/extension/health${days ? `?days=${days}` : ''}`, { token });

describe('POST /api/extension/health (the board reports what it could read)', () => {
  let agent: TestUser;
  beforeAll(async () => {
    agent = await createUser('agent');
  });

  it('stores counts only, one report per extension session and hour', async () => {
    const token = await sessionToken(agent.id, 1);
    const first = await post(token, report());
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ stored: true });
    const again = await post(token, report({ rowsSeen: 3 }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ stored: false });
    const rows = await agent.db.select().from(extensionHealthReports).where(eq(extensionHealthReports.userId, agent.id));
    expect(rows).toHaveLength(1);
    // in the reporter's shard, and no other database
    const holding = await Promise.all(
      everyDb().map(async ({ shard, db }) =>
        (await db.select().from(extensionHealthReports).where(eq(extensionHealthReports.userId, agent.id))).length ? [shard] : [],
      ),
    );
    expect(holding.flat()).toEqual([agent.shard]);
    expect(rows[0]).toMatchObject({ version: '0.3.0', layout: 'compact', rowsSeen: 44, unreadable: false });
    expect(JSON.parse(rows[0]!.fields)).toEqual({
      company: { read: 44, missed: 0 },
      origin: { read: 44, missed: 0 },
      detailsReference: { read: 2, missed: 1 },
    });
    // another browser of the same user is another session: its own report
    const other = await post(await sessionToken(agent.id, 1), report());
    expect(other.status).toBe(201);
  });

  it('refuses anything but counts: unknown fields, row content, bad numbers, a made-up version; nothing stored', async () => {
    const token = await sessionToken(agent.id, 1);
    const before = await countRows('extension_health_reports');
    const bad: [unknown, number, Message | RegExp][] = [
      [report({ company: 'Total Quality Logistics' }), 400, /Invalid input|Unrecognized/],
      [report({ fields: { phone: { read: 1, missed: 0 } } }), 400, /Invalid input|Unrecognized/],
      [report({ fields: { company: { read: 1, missed: 0, sample: 'TQL' } } }), 400, /Invalid input|Unrecognized/],
      [report({ rowsSeen: -1 }), 400, HEALTH_MESSAGES.counts],
      [report({ rowsSeen: 1.5 }), 400, HEALTH_MESSAGES.counts],
      [report({ fields: { company: { read: 100_001, missed: 0 } } }), 400, HEALTH_MESSAGES.counts],
      [report({ version: '1.0.0; drop table' }), 400, HEALTH_MESSAGES.version],
      [report({ layout: 'sideways' }), 400, HEALTH_MESSAGES.layout],
    ];
    for (const [body, status, message] of bad) {
      const res = await post(token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (message instanceof RegExp) expect(res.body.message).toMatch(message);
      else expect(res.body).toEqual(errorBody(message));
    }
    expect(await countRows('extension_health_reports')).toBe(before);
  });

  it('needs a signed-in caller', async () => {
    const res = await call('POST', '/api/extension/health', { body: report() });
    expect(res.status).toBe(401);
  });

  it('30 reports at once from one browser store exactly one, in each of 3 rounds (3 sessions)', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await createUser('agent');
      const token = await sessionToken(user.id, 1);
      const answers = await Promise.all(Array.from({ length: 30 }, () => post(token, report())));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 200 && a.body.stored === false)).toHaveLength(29);
      const rows = await user.db.select().from(extensionHealthReports).where(eq(extensionHealthReports.userId, user.id));
      expect(rows).toHaveLength(1);
    }
  });
});

describe('each board reports on its own', () => {
  it('one report per session, hour and board; a report without a board is DAT’s; an unknown board is refused', async () => {
    const agent = await createUser('agent');
    const token = await sessionToken(agent.id, 1);
    expect((await post(token, report())).status).toBe(201);
    expect((await post(token, report({ board: 'truckstop' }))).status).toBe(201);
    expect((await post(token, report({ board: 'truckstop' }))).body).toEqual({ stored: false });
    expect((await post(token, report({ board: 'dat' }))).body).toEqual({ stored: false });
    const rows = await agent.db.select().from(extensionHealthReports).where(eq(extensionHealthReports.userId, agent.id));
    expect(rows.map((r) => r.board).sort()).toEqual(['dat', 'truckstop']);
    const bad = await post(await sessionToken(agent.id, 1), report({ board: 'loadlink' }));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorBody(HEALTH_MESSAGES.board));
  });

  it("the admin's summary keeps each board's fields apart: a board whose rows stop being read shows on its own", async () => {
    const admin = await createUser('admin');
    const a = await createUser('agent');
    const send = async (body: unknown) => expect((await post(await sessionToken(a.id, 1), body)).status).toBe(201);
    await send(report({ version: '8.1.0', board: 'dat', rowsSeen: 20, fields: { company: { read: 20, missed: 0 } } }));
    await send(report({ version: '8.1.0', board: 'truckstop', layout: 'unknown', rowsSeen: 9, unreadable: true, fields: { company: { read: 1, missed: 8 } } }));
    const res = await summary(admin.token);
    const of = (board: string) => res.body.versions.find((v: { version: string; board: string }) => v.version === '8.1.0' && v.board === board);
    expect(of('dat')).toMatchObject({ reports: 1, unreadableReports: 0, fields: [{ field: 'company', read: 20, missed: 0, share: 1 }] });
    expect(of('truckstop')).toMatchObject({ reports: 1, unreadableReports: 1, fields: [{ field: 'company', read: 1, missed: 8, share: 1 / 9 }] });
    const order = res.body.versions.map((v: { board: string }) => v.board);
    expect(order.lastIndexOf('dat')).toBeLessThan(order.indexOf('truckstop'));
  });
});

describe('GET /api/extension/health (the admin sees the reports by version)', () => {
  let admin: TestUser;
  let a: TestUser;
  let m: TestUser;
  beforeAll(async () => {
    admin = await createUser('admin');
    a = await createUser('agent');
    m = await createUser('manager');
    const send = async (userId: string, body: unknown) => expect((await post(await sessionToken(userId, 1), body)).status).toBe(201);
    await send(
      a.id,
      report({ version: '9.10.0', layout: 'wide', rowsSeen: 10, fields: { company: { read: 10, missed: 0 }, contact: { read: 6, missed: 4 } } }),
    );
    await send(m.id, report({ version: '9.10.0', layout: 'compact', rowsSeen: 30, fields: { company: { read: 30, missed: 0 } } }));
    await send(a.id, report({ version: '9.9.0', layout: 'unknown', rowsSeen: 12, unreadable: true, fields: { company: { read: 1, missed: 11 } } }));
  });

  it('groups by version, newest first, with the share of rows read per field', async () => {
    // the two reporters' companies are on different shards, neither the admin's: the summary reads them all
    expect(new Set([admin.shard, a.shard, m.shard]).size).toBe(3);
    const res = await summary(admin.token);
    expect(res.status).toBe(200);
    const v10 = res.body.versions.find((v: { version: string }) => v.version === '9.10.0');
    const v9 = res.body.versions.find((v: { version: string }) => v.version === '9.9.0');
    const order = res.body.versions.map((v: { version: string }) => v.version);
    expect(order.indexOf('9.10.0')).toBeLessThan(order.indexOf('9.9.0'));
    expect(v10).toMatchObject({ board: 'dat', reports: 2, browsers: 2, unreadableReports: 0, rowsSeen: 40, layouts: { wide: 1, compact: 1 } });
    expect(v10.fields).toEqual([
      { field: 'company', read: 40, missed: 0, share: 1 },
      { field: 'contact', read: 6, missed: 4, share: 0.6 },
    ]);
    expect(v9).toMatchObject({ reports: 1, unreadableReports: 1, layouts: { unknown: 1 } });
    expect(v9.fields).toEqual([{ field: 'company', read: 1, missed: 11, share: 1 / 12 }]);
  });

  it('is for the admin only; days outside 1-30 are refused', async () => {
    for (const role of ['agent', 'manager', 'director', 'marketing'] as const) {
      const user = await createUser(role);
      expect((await summary(user.token)).status).toBe(403);
    }
    expect((await summary(admin.token, 31)).status).toBe(400);
    expect((await summary(admin.token, 30)).status).toBe(200);
  });
});
