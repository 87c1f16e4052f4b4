import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companyHomes, loginEvents, users } from '../db/schema';
import { shardDb } from '../lib/d1';
import { randomId } from '../lib/ids';
import { call, countRows, createUser, errorBody, loginToken, type TestUser, testEnv } from '../test/helpers';
import { ANALYTICS_MESSAGES } from './analytics.messages';
import type { LoginHistory } from './analytics.schema';

const DAY = 86_400_000;
/** A login event in the user's own shard, where a real login writes it. */
const logAt = (user: TestUser, at: number) => user.db.insert(loginEvents).values({ id: randomId(), userId: user.id, clientType: 0, createdAt: new Date(at) });
const remove = (user: TestUser) => user.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id));

/** Managers until there is one on each of three shards. */
async function managersOnThreeShards(): Promise<TestUser[]> {
  const byShard = new Map<string, TestUser>();
  for (let i = 0; i < 12 && byShard.size < 3; i++) {
    const manager = await createUser('manager');
    if (!byShard.has(manager.shard)) byShard.set(manager.shard, manager);
  }
  expect(byShard.size).toBe(3);
  return [...byShard.values()];
}

async function history(admin: TestUser, body: object) {
  const res = await call('POST', '/api/analytics/loginHistory', { token: admin.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body as LoginHistory;
}
const itemOf = (h: LoginHistory, manager: TestUser) => h.items.find((i) => i.manager._id === manager.id);

describe('login history', () => {
  it("counts each manager's agents and who logged in since the date", async () => {
    const admin = await createUser('admin');
    const now = Date.now();
    const manager = await createUser('manager');
    const [a1, a2, a3, gone] = await Promise.all([0, 1, 2, 3].map(() => createUser('agent', { parentId: manager.id })));
    const other = await createUser('manager');
    await loginToken(a1!.email); // a real login writes the event
    await logAt(a2!, now - 2 * DAY);
    await logAt(a3!, now - 10 * DAY); // before the date
    await logAt(gone!, now - DAY);
    await remove(gone!);
    await loginToken(other.email);

    const h = await history(admin, { dateFrom: now - 3 * DAY });
    expect(itemOf(h, manager)).toEqual({
      manager: { _id: manager.id, email: manager.email, name: manager.name },
      totalUsers: 3,
      loggedInUsers: 2,
      managerLoggedIn: false,
    });
    expect(itemOf(h, other)).toMatchObject({ totalUsers: 0, loggedInUsers: 0, managerLoggedIn: true });
    // only managers are rows; the total is the table's logged-in managers and agents
    expect(h.items.some((i) => i.manager._id === a1!.id || i.manager._id === admin.id)).toBe(false);
    expect(h.totalOnlineAmount).toBe(h.items.reduce((n, i) => n + i.loggedInUsers + (i.managerLoggedIn ? 1 : 0), 0));
    expect(h.totalOnlineAmount).toBeGreaterThanOrEqual(3);
    expect(h.dateFrom).toBe(new Date(now - 3 * DAY).toISOString());

    // an earlier date takes in the older login; an ISO string works as well as a timestamp
    const wider = await history(admin, { dateFrom: new Date(now - 11 * DAY).toISOString() });
    expect(itemOf(wider, manager)!.loggedInUsers).toBe(3);
    expect(wider.totalOnlineAmount - h.totalOnlineAmount).toBeGreaterThanOrEqual(1);
    const asDigits = await history(admin, { dateFrom: String(now - 11 * DAY) });
    expect(itemOf(asDigits, manager)!.loggedInUsers).toBe(3);
  });

  it('a deleted manager is not listed', async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    await remove(manager);
    expect(itemOf(await history(admin, { dateFrom: Date.now() - DAY }), manager)).toBeUndefined();
  });

  it("answers logins per day for the chart, in the admin's time zone, with empty days as 0", async () => {
    const admin = await createUser('admin');
    const [u1, u2] = await Promise.all([createUser('agent'), createUser('manager')]);
    const todayUtc = Date.parse(new Date().toISOString().slice(0, 10));
    const day100 = todayUtc - 100 * DAY;
    await logAt(u1!, day100 + 9 * 3_600_000);
    await logAt(u1!, day100 + 10 * 3_600_000);
    await logAt(u2!, day100 + 11 * 3_600_000);
    // 22:30 UTC is the next day at UTC+4
    await logAt(u1!, todayUtc - 80 * DAY + 22.5 * 3_600_000);

    const h = await history(admin, { dateFrom: day100 - DAY });
    expect(h.daily).toHaveLength(102);
    expect(h.daily[0]!.day).toBe(new Date(day100 - DAY).toISOString().slice(0, 10));
    expect(h.daily.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    for (let i = 1; i < h.daily.length; i++) expect(Date.parse(h.daily[i]!.day) - Date.parse(h.daily[i - 1]!.day)).toBe(DAY);
    const day = (list: LoginHistory['daily'], ms: number) => list.find((d) => d.day === new Date(ms).toISOString().slice(0, 10));
    expect(day(h.daily, day100)).toEqual({ day: new Date(day100).toISOString().slice(0, 10), logins: 3, users: 2 });
    expect(day(h.daily, day100 - DAY)).toMatchObject({ logins: 0, users: 0 });
    expect(day(h.daily, todayUtc - 80 * DAY)).toMatchObject({ logins: 1, users: 1 });

    const utcPlus4 = await history(admin, { dateFrom: day100 - DAY, timezoneOffset: -240 });
    expect(day(utcPlus4.daily, todayUtc - 80 * DAY)).toMatchObject({ logins: 0 });
    expect(day(utcPlus4.daily, todayUtc - 79 * DAY)).toMatchObject({ logins: 1, users: 1 });
  });

  it('the chart covers at most the last 366 days', async () => {
    const admin = await createUser('admin');
    const h = await history(admin, { dateFrom: Date.now() - 3 * 365 * DAY });
    expect(h.daily).toHaveLength(366);
    expect(h.daily.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
  });

  it('rejects a missing, unreadable or future date with the message, and writes nothing', async () => {
    const admin = await createUser('admin');
    const before = await countRows('login_events');
    for (const body of [{}, { dateFrom: 'yesterday-ish' }, { dateFrom: '' }, { dateFrom: null }, { dateFrom: 12 }, { dateFrom: { $gt: 0 } }]) {
      const res = await call('POST', '/api/analytics/loginHistory', { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('Select a valid From date');
    }
    const future = await call('POST', '/api/analytics/loginHistory', { token: admin.token, body: { dateFrom: Date.now() + DAY } });
    expect(future.status).toBe(400);
    expect(future.body.message).toBe('The From date cannot be in the future');
    const zone = await call('POST', '/api/analytics/loginHistory', { token: admin.token, body: { dateFrom: Date.now() - DAY, timezoneOffset: 5000 } });
    expect([zone.status, zone.body]).toEqual([400, errorBody(ANALYTICS_MESSAGES.timeZone)]);
    const pageZone = await call('POST', '/api/analytics/loginHistory/page', { token: admin.token, body: { dateFrom: Date.now() - DAY, timezoneOffset: 1.5 } });
    expect([pageZone.status, pageZone.body]).toEqual([400, errorBody(ANALYTICS_MESSAGES.timeZone)]);
    expect(await countRows('login_events')).toBe(before);
  });

  it('only the admin sees it', async () => {
    for (const role of ['director', 'manager', 'agent', 'marketing'] as const) {
      const user = await createUser(role);
      const res = await call('POST', '/api/analytics/loginHistory', { token: user.token, body: { dateFrom: Date.now() - DAY } });
      expect(res.status, role).toBe(403);
      expect(res.body.message).toBe('You are not allowed to do this');
    }
    const anon = await call('POST', '/api/analytics/loginHistory', { body: { dateFrom: Date.now() - DAY } });
    expect(anon.status).toBe(401);
  });

  it('spans every shard: teams on three shards in one email order, with their counts, totals and chart; a moving copy counts once', async () => {
    const admin = await createUser('admin');
    const managers = await managersOnThreeShards();
    const now = Date.now();
    const todayUtc = Date.parse(new Date().toISOString().slice(0, 10));
    // two agents a team, one of them logged in on a day far enough back to be only these users'
    const day = todayUtc - 200 * DAY - randomId(3).charCodeAt(0) * DAY;
    for (const manager of managers) {
      const [a1, a2] = await Promise.all([createUser('agent', { parentId: manager.id }), createUser('agent', { parentId: manager.id })]);
      expect(a1!.shard).toBe(manager.shard);
      await logAt(a1!, now - DAY);
      await logAt(a2!, now - 5 * DAY);
      await logAt(manager, day + 3_600_000);
    }
    const h = await history(admin, { dateFrom: day });
    for (const manager of managers) {
      expect(itemOf(h, manager)).toEqual({
        manager: { _id: manager.id, email: manager.email, name: manager.name },
        totalUsers: 2,
        loggedInUsers: 2,
        managerLoggedIn: true,
      });
    }
    // one order over every shard, as one database ordered it
    const emails = h.items.map((i) => i.manager.email);
    expect(emails).toEqual([...emails].sort());
    expect(h.totalOnlineAmount).toBe(h.items.reduce((n, i) => n + i.loggedInUsers + (i.managerLoggedIn ? 1 : 0), 0));
    const chartDay = (list: LoginHistory['daily']) => list.find((d) => d.day === new Date(day).toISOString().slice(0, 10));
    expect(chartDay(h.daily)).toEqual({ day: new Date(day).toISOString().slice(0, 10), logins: 3, users: 3 });
    const since = await history(admin, { dateFrom: now - 2 * DAY });
    for (const manager of managers) expect(itemOf(since, manager)).toMatchObject({ totalUsers: 2, loggedInUsers: 1, managerLoggedIn: false });

    // a company copied to another shard during a move: the copy on its way in is not read, and once
    // the flip leaves the old copy `moved`, only the new one is
    const mover = managers[0]!;
    const to = managers[1]!.shard;
    const copy = async (state: 'incoming' | 'active') => {
      const dst = shardDb(testEnv, to);
      await dst
        .insert(companyHomes)
        .values({ companyId: mover.companyId, state, changedAt: new Date() })
        .onConflictDoUpdate({ target: companyHomes.companyId, set: { state } });
    };
    const from = shardDb(testEnv, mover.shard);
    const people = await from.select().from(users).where(eq(users.companyId, mover.companyId));
    const events = await from
      .select()
      .from(loginEvents)
      .where(
        inArray(
          loginEvents.userId,
          people.map((p) => p.id),
        ),
      );
    await copy('incoming');
    await shardDb(testEnv, to).insert(users).values(people);
    await shardDb(testEnv, to).insert(loginEvents).values(events);
    const during = await history(admin, { dateFrom: day });
    expect(during.items.filter((i) => i.manager._id === mover.id)).toHaveLength(1);
    expect(chartDay(during.daily)).toMatchObject({ logins: 3, users: 3 });
    await copy('active');
    await from.update(companyHomes).set({ state: 'moved' }).where(eq(companyHomes.companyId, mover.companyId));
    const after = await history(admin, { dateFrom: day });
    expect(after.items.filter((i) => i.manager._id === mover.id)).toHaveLength(1);
    expect(chartDay(after.daily)).toMatchObject({ logins: 3, users: 3 });
    expect(after.totalOnlineAmount).toBe(h.totalOnlineAmount);
  });
});
