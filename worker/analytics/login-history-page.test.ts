import { describe, expect, it } from 'vitest';
import { loginEvents } from '../db/schema';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { placementShards } from '../lib/d1';
import { binaryCompare } from '../lib/fan-out';
import { randomId } from '../lib/ids';
import { call, createUser, errorBody, type TestUser, testEnv } from '../test/helpers';
import { allPages } from '../test/paging';
import type { LoginHistory, LoginHistoryItem } from './analytics.schema';

const DAY = 86_400_000;
const logAt = (user: TestUser, at: number) => user.db.insert(loginEvents).values({ id: randomId(), userId: user.id, clientType: 0, createdAt: new Date(at) });

/** POST /api/analytics/loginHistory/page (docs/decisions/0187-paged-fan-out.md). */
describe('Login History a page at a time', () => {
  it("pages the managers of every shard in e-mail order, with the whole view's totals and chart", async () => {
    const tag = `lh${randomId().toLowerCase().slice(0, 8)}`;
    const admin = await createUser('admin');
    const managers: TestUser[] = [];
    // e-mails interleave across the shards: shard i holds the i-th, (i+3)-th, ... manager
    const shards = placementShards(testEnv).slice(0, 3);
    for (let n = 0; n < 9; n++)
      managers.push(await createUser('manager', { shard: shards[n % 3], email: `${String.fromCharCode(97 + ((n * 4) % 9))}${n}@${tag}.example` }));
    expect(new Set(managers.map((m) => m.shard)).size).toBe(3);
    const now = Date.now();
    for (const [n, m] of managers.entries()) {
      // 1 to 3 agents, so the sortable counts differ and tie
      for (let a = 0; a <= n % 3; a++) {
        const agent = await createUser('agent', { parentId: m.id });
        if ((n + a) % 2) await logAt(agent, now - DAY);
      }
      if (n % 3 === 0) await logAt(m, now - 2 * DAY);
    }
    const body = { dateFrom: now - 7 * DAY, q: tag };
    const whole = (await call('POST', '/api/analytics/loginHistory', { token: admin.token, body: { dateFrom: now - 7 * DAY } })).body as LoginHistory;
    const mine = whole.items.filter((i) => i.manager.email.endsWith(`@${tag}.example`));
    expect(mine.map((i) => i.manager.email)).toEqual(managers.map((m) => m.email).sort(binaryCompare));
    for (const limit of [1, 2, 4, 20]) {
      const { items, pages } = await allPages<LoginHistoryItem>(admin.token, '/api/analytics/loginHistory/page', limit, body);
      // the same rows, counts and order as the whole list
      expect(items).toEqual(mine);
      for (const page of pages) {
        expect(page.total).toBe(9);
        // the online total is the whole view's (every manager since the date), as the whole list's
        expect(page.totalOnlineAmount).toBe(whole.totalOnlineAmount);
        // the headline's counts too: over every manager, whatever the search
        expect([page.managers, page.managersIn, page.agents, page.agentsIn]).toEqual([
          whole.items.length,
          whole.items.filter((i) => i.managerLoggedIn).length,
          whole.items.reduce((n, i) => n + i.totalUsers, 0),
          whole.items.reduce((n, i) => n + i.loggedInUsers, 0),
        ]);
      }
      expect(pages[0].daily).toEqual(whole.daily);
      for (const page of pages.slice(1)) expect(page.daily).toBeNull();
    }
    // each column sorts on the server, either way, the id breaking ties
    const sorts = [
      ['totalUsers', 'desc', (i: LoginHistoryItem) => i.totalUsers],
      ['loggedInUsers', 'asc', (i: LoginHistoryItem) => i.loggedInUsers],
      ['managerLoggedIn', 'desc', (i: LoginHistoryItem) => (i.managerLoggedIn ? 1 : 0)],
      ['email', 'desc', (i: LoginHistoryItem) => i.manager.email],
    ] as const;
    for (const [sort, dir, key] of sorts) {
      const { items } = await allPages<LoginHistoryItem>(admin.token, '/api/analytics/loginHistory/page', 2, { ...body, sort, dir });
      const compare = (a: LoginHistoryItem, b: LoginHistoryItem) => {
        const [ka, kb] = [key(a), key(b)];
        const d = (typeof ka === 'number' ? ka - (kb as number) : binaryCompare(ka, kb as string)) || binaryCompare(a.manager._id, b.manager._id);
        return dir === 'desc' ? -d : d;
      };
      expect(items, `${sort} ${dir}`).toEqual([...mine].sort(compare));
    }
  });

  it("is the admin's only, and refuses a cursor of another date", async () => {
    const admin = await createUser('admin');
    await createUser('manager');
    await createUser('manager');
    const first = await call('POST', '/api/analytics/loginHistory/page', { token: admin.token, body: { dateFrom: Date.now() - DAY, limit: 1 } });
    expect(first.status).toBe(200);
    const other = await call('POST', '/api/analytics/loginHistory/page', {
      token: admin.token,
      body: { dateFrom: Date.now() - 2 * DAY, limit: 1, cursor: first.body.next },
    });
    expect(other.status).toBe(400);
    expect(other.body).toEqual(errorBody(COMMON_MESSAGES.badCursor));
    for (const type of ['director', 'manager', 'agent', 'marketing'] as const) {
      const user = await createUser(type);
      expect((await call('POST', '/api/analytics/loginHistory/page', { token: user.token, body: { dateFrom: Date.now() - DAY } })).status).toBe(403);
    }
  });
});
