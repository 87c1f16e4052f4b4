import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loginEvents, users } from '../db/schema';
import { randomId } from '../lib/ids';
import { call, countRows, createUser, loginToken, otherShard, type TestUser } from '../test/helpers';
import type { LoginHistory } from './analytics.schema';

const DAY = 86_400_000;
const logAt = (user: TestUser, at: number) => user.db.insert(loginEvents).values({ id: randomId(), userId: user.id, clientType: 0, createdAt: new Date(at) });

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
    // another company on another shard: the admin's list spans them
    const other = await createUser('manager', { shard: otherShard(manager.shard) });
    await loginToken(a1!.email); // a real login writes the event
    await logAt(a2!, now - 2 * DAY);
    await logAt(a3!, now - 10 * DAY); // before the date
    await logAt(gone!, now - DAY);
    await gone!.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone!.id));
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
    expect(itemOf(await history(admin, { dateFrom: Date.now() - DAY }), manager)).toBeDefined();
    await manager.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, manager.id));
    expect(itemOf(await history(admin, { dateFrom: Date.now() - DAY }), manager)).toBeUndefined();
  });

  it("answers logins per day for the chart, in the admin's time zone, with empty days as 0", async () => {
    const admin = await createUser('admin');
    const u1 = await createUser('agent');
    const u2 = await createUser('manager', { shard: otherShard(u1.shard) });
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
    expect(zone.status).toBe(400);
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
});
