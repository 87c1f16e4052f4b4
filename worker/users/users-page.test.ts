import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { placementShards } from '../lib/d1';
import { binaryCompare } from '../lib/fan-out';
import { randomId } from '../lib/ids';
import { call, createUser, errorBody, everyDb, type TestUser, testEnv } from '../test/helpers';

/** GET /api/user/page (docs/decisions/0187-paged-fan-out.md): the Users List a page at a time over every shard. */

interface Listed {
  _id: string;
  name: string;
  email: string;
  userType: string;
  registrationDate: string;
  parent: { email: string } | null;
  country: string;
  phone: string;
  isEmailVerified: boolean;
  subscriptionEndDate: string | null;
}

/** Every page of a view, following `next`; fails on a page that is not 200. */
async function allPages(token: string, query: string, limit: number) {
  const seen: Listed[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await call('GET', `/api/user/page?limit=${limit}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    seen.push(...res.body.items);
    totals.push(res.body.total);
    cursor = res.body.next;
    if (!cursor) return { seen, totals, last: res.body };
  }
  throw new Error('more than 100 pages');
}

/** Three companies, one on each placement shard, whose users' registration dates interleave and sometimes tie. */
async function threeCompanies(tag: string) {
  const shards = placementShards(testEnv);
  expect(shards.length).toBeGreaterThanOrEqual(3);
  const made: TestUser[] = [];
  const directors: TestUser[] = [];
  for (const [i, shard] of shards.slice(0, 3).entries()) {
    const director = await createUser('director', { shard, email: `d${i}-${randomId().toLowerCase()}@${tag}.example`, name: `Zed ${i}` });
    const manager = await createUser('manager', { parentId: director.id, email: `m${i}-${randomId().toLowerCase()}@${tag}.example`, name: `Mia ${i}` });
    const agents = [];
    for (let a = 0; a < 3; a++)
      agents.push(await createUser('agent', { parentId: manager.id, email: `a${i}${a}-${randomId().toLowerCase()}@${tag}.example`, name: `Ann ${a}${i}` }));
    directors.push(director);
    made.push(director, manager, ...agents);
  }
  // shard i's j-th user registered at minute j*3+i, with every fourth at minute 0: ties across shards
  const base = Date.UTC(2026, 0, 1);
  for (const [n, u] of made.entries()) {
    const minute = n % 4 === 0 ? 0 : (n % 5) * 3 + Math.floor(n / 5);
    await u.db
      .update(users)
      .set({
        registrationDate: new Date(base + minute * 60_000),
        // the other sortable columns vary too, with ties: countries, phones, and each kind of Subscription End
        country: ['AM', 'US', '', 'DE'][n % 4]!,
        phone: n % 3 === 0 ? '' : `+1312555${String(1000 + (n % 5)).slice(-4)}`,
        // agents only (each company's 3rd to 5th user): the director's and manager's tokens stay active
        ...(n % 5 >= 2 && { isEmailVerified: n % 4 !== 2, subscriptionEndDate: n % 3 === 2 ? null : new Date(Date.UTC(2030, 0, 1 + (n % 4))) }),
      })
      .where(eq(users.id, u.id));
  }
  return { made, directors, shards: new Set(made.map((u) => u.shard)) };
}

const order =
  (key: (u: Listed) => string | number, desc = false) =>
  (a: Listed, b: Listed) => {
    const ka = key(a);
    const kb = key(b);
    const d = (typeof ka === 'number' ? ka - (kb as number) : binaryCompare(ka, kb as string)) || binaryCompare(a._id, b._id);
    return desc ? -d : d;
  };

/** Subscription End's order (rule 0136): dates, then 'No End Date', then 'Email verification pending'. */
const subscriptionEndKey = (u: Listed) => (!u.isEmailVerified ? 3e13 : u.subscriptionEndDate ? Date.parse(u.subscriptionEndDate) : 2e13);

describe('GET /api/user/page', () => {
  it('pages every shard in one order, each user once, with the totals of the whole view', async () => {
    const tag = `pg${randomId().toLowerCase().slice(0, 8)}`;
    const admin = await createUser('admin');
    const { made, shards } = await threeCompanies(tag);
    expect(shards.size).toBe(3);
    const expected = await Promise.all(made.map(async (u) => (await call('GET', `/api/user/${u.id}`, { token: admin.token })).body as Listed));
    for (const [sort, dir, key] of [
      ['registrationDate', 'asc', (u: Listed) => Date.parse(u.registrationDate)],
      ['registrationDate', 'desc', (u: Listed) => Date.parse(u.registrationDate)],
      ['name', 'asc', (u: Listed) => u.name],
      ['email', 'desc', (u: Listed) => u.email],
      ['userType', 'asc', (u: Listed) => u.userType],
      ['parent', 'desc', (u: Listed) => u.parent?.email ?? ''],
      ['country', 'asc', (u: Listed) => u.country],
      ['phone', 'desc', (u: Listed) => u.phone],
      ['subscriptionEnd', 'asc', subscriptionEndKey],
      ['subscriptionEnd', 'desc', subscriptionEndKey],
    ] as const) {
      for (const limit of [1, 4, 7, 50]) {
        const { seen, totals, last } = await allPages(admin.token, `q=${tag}&sort=${sort}&dir=${dir}`, limit);
        expect(
          seen.map((u) => u._id),
          `${sort} ${dir} by ${limit}`,
        ).toEqual([...expected].sort(order(key, dir === 'desc')).map((u) => u._id));
        expect(new Set(totals)).toEqual(new Set([made.length]));
        expect(last.next).toBeNull();
      }
    }
    // the default is GET /api/user's order: registration date, then id
    const { seen } = await allPages(admin.token, `q=${tag}`, 5);
    const whole = ((await call('GET', '/api/user', { token: admin.token })).body as Listed[]).filter((u) => u.email.endsWith(`@${tag}.example`));
    expect(seen.map((u) => u._id)).toEqual(whole.map((u) => u._id));
  });

  it('counts the headline over every shard and searches and filters in each shard', async () => {
    const tag = `pg${randomId().toLowerCase().slice(0, 8)}`;
    const admin = await createUser('admin');
    const { made } = await threeCompanies(tag);
    const first = await call('GET', `/api/user/page?limit=2&q=${tag}`, { token: admin.token });
    // Total Managers and Total Agents: every live one on every shard, whatever the search
    let managers = 0;
    let agents = 0;
    let live = 0;
    for (const { db } of everyDb()) {
      const rows = await db.select({ type: users.userType, deletedAt: users.deletedAt }).from(users);
      managers += rows.filter((r) => r.type === 'manager' && !r.deletedAt).length;
      agents += rows.filter((r) => r.type === 'agent' && !r.deletedAt).length;
      live += rows.filter((r) => !r.deletedAt).length;
    }
    expect(first.body.managers).toBe(managers);
    expect(first.body.all).toBe(live);
    expect(first.body.agents).toBe(agents);

    const agentsOnly = await allPages(admin.token, `q=${tag}&type=agent`, 4);
    expect(agentsOnly.seen.map((u) => u._id).sort()).toEqual(
      made
        .filter((u) => u.userType === 'agent')
        .map((u) => u.id)
        .sort(),
    );
    expect(agentsOnly.totals[0]).toBe(9);
    // the name, and the parent's e-mail: a manager's agents
    const byName = await allPages(admin.token, `q=${encodeURIComponent(`Ann 1`)}`, 10);
    expect(
      byName.seen
        .filter((u) => u.email.endsWith(`@${tag}.example`))
        .map((u) => u.name)
        .sort(),
    ).toEqual(['Ann 10', 'Ann 11', 'Ann 12']);
    const manager = made.find((u) => u.userType === 'manager')!;
    const underParent = await allPages(admin.token, `q=${encodeURIComponent(manager.email)}`, 10);
    expect(underParent.seen.map((u) => u._id).sort()).toEqual(
      [manager.id, ...made.filter((u) => u.userType === 'agent' && u.shard === manager.shard).map((u) => u.id)].sort(),
    );
    const parentFilter = await allPages(admin.token, `parent=${manager.id}`, 2);
    expect(parentFilter.seen.length).toBe(3);
    // LIKE's wildcards are searched as text
    expect((await call('GET', `/api/user/page?q=${tag}%25_`, { token: admin.token })).body.total).toBe(0);
  });

  it('gives each user that was there at the first page once, while users are added between pages', async () => {
    const tag = `pg${randomId().toLowerCase().slice(0, 8)}`;
    const admin = await createUser('admin');
    const { made } = await threeCompanies(tag);
    const first = await call('GET', `/api/user/page?limit=5&q=${tag}`, { token: admin.token });
    const seen: Listed[] = [...first.body.items];
    // one registered before the cursor (it is not shown: its place was passed), one after (it is)
    const manager = made.find((u) => u.userType === 'manager' && u.shard !== made[0]!.shard)!;
    const early = await createUser('agent', { parentId: manager.id, email: `early@${tag}.example` });
    const late = await createUser('agent', { parentId: manager.id, email: `late@${tag}.example` });
    await early.db
      .update(users)
      .set({ registrationDate: new Date(Date.UTC(2025, 0, 1)) })
      .where(eq(users.id, early.id));
    let cursor: string | null = first.body.next;
    while (cursor) {
      const res = await call('GET', `/api/user/page?limit=5&q=${tag}&cursor=${encodeURIComponent(cursor)}`, { token: admin.token });
      seen.push(...res.body.items);
      expect(res.body.total).toBe(made.length + 2);
      cursor = res.body.next;
    }
    const ids = seen.map((u) => u._id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const u of made) expect(ids).toContain(u.id);
    expect(ids).toContain(late.id);
    expect(ids).not.toContain(early.id);
  });

  it('scopes a director to its tree and a manager to its agents; agents and marketing are refused', async () => {
    const tag = `pg${randomId().toLowerCase().slice(0, 8)}`;
    const { made, directors } = await threeCompanies(tag);
    const director = directors[1]!;
    const tree = made.filter((u) => u.shard === director.shard && u.id !== director.id);
    const mine = await allPages(director.token, '', 2);
    expect(mine.seen.map((u) => u._id).sort()).toEqual(tree.map((u) => u.id).sort());
    expect(mine.totals[0]).toBe(tree.length);
    // another company's user cannot be found by searching for it
    const stranger = made.find((u) => u.shard !== director.shard)!;
    expect((await call('GET', `/api/user/page?q=${encodeURIComponent(stranger.email)}`, { token: director.token })).body).toMatchObject({
      items: [],
      total: 0,
    });
    const manager = made.find((u) => u.userType === 'manager' && u.shard === director.shard)!;
    const team = await allPages(manager.token, 'sort=name', 2);
    expect(team.seen.map((u) => u._id).sort()).toEqual(
      tree
        .filter((u) => u.userType === 'agent')
        .map((u) => u.id)
        .sort(),
    );
    for (const type of ['agent', 'marketing'] as const) {
      const user = type === 'agent' ? made.find((u) => u.userType === 'agent')! : await createUser('marketing');
      expect((await call('GET', '/api/user/page', { token: user.token })).status).toBe(403);
    }
    expect((await call('GET', '/api/user/page')).status).toBe(401);
  });

  it('refuses a cursor of another view or one that does not parse, and a page size out of range', async () => {
    const admin = await createUser('admin');
    await createUser('manager');
    await createUser('manager');
    const first = await call('GET', '/api/user/page?limit=1&sort=name', { token: admin.token });
    expect(first.body.next).toBeTruthy();
    const otherView = await call('GET', `/api/user/page?limit=1&sort=email&cursor=${first.body.next}`, { token: admin.token });
    expect(otherView.status).toBe(400);
    expect(otherView.body).toEqual(errorBody(COMMON_MESSAGES.badCursor));
    expect((await call('GET', '/api/user/page?cursor=not-a-cursor', { token: admin.token })).body).toEqual(errorBody(COMMON_MESSAGES.badCursor));
    expect((await call('GET', '/api/user/page?limit=0', { token: admin.token })).status).toBe(400);
    expect((await call('GET', '/api/user/page?limit=101', { token: admin.token })).status).toBe(400);
    expect((await call('GET', '/api/user/page?sort=age', { token: admin.token })).status).toBe(400);
  });
});
