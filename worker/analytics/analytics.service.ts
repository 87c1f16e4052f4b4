import { and, asc, desc, eq, gte, inArray, isNull, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { companyHomes, loginEvents, users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { afterKey, contains, type PagedView, pageAcross, type SortValue } from '../lib/fan-out';
import { type DailyLogins, type LoginHistory, type LoginHistoryPage, type LoginHistoryPageQuery, MAX_CHART_DAYS } from './analytics.schema';

const DAY = 86_400_000;
const agent = alias(users, 'agent');

/**
 * Rows of the companies whose data is read on this shard: `active`, or `moving` until its flip. A
 * company's copy on its way in or left behind by a move is read on the other shard, so it counts
 * once; a user without a company home (rows from before companies) counts where it is.
 */
const readHere = or(isNull(companyHomes.state), inArray(companyHomes.state, ['active', 'moving']));

/** Email order as SQLite's `order by email` (binary), then id: one order however the shards' lists interleave. */
const byEmail = (a: LoginHistory['items'][number], b: LoginHistory['items'][number]) =>
  a.manager.email < b.manager.email ? -1 : a.manager.email > b.manager.email ? 1 : a.manager._id < b.manager._id ? -1 : a.manager._id > b.manager._id ? 1 : 0;

/** docs/decisions/0180-links-on-shards.md: a user is in one shard, so the shards' days are summed. */
export async function loginHistory(env: Bindings, input: { dateFrom: Date; timezoneOffset: number }, now = new Date()): Promise<LoginHistory> {
  const parts = await Promise.all(allShards(env).map((shard) => shardLoginHistory(shardDb(env, shard), input, now)));
  const items = parts.flatMap((p) => p.items).sort(byEmail);
  const daily = sumDays(parts.map((p) => p.daily));
  const totalOnlineAmount = items.reduce((n, i) => n + i.loggedInUsers + (i.managerLoggedIn ? 1 : 0), 0);
  return { items, totalOnlineAmount, dateFrom: input.dateFrom.toISOString(), daily };
}

const loggedInSince = (userId: SQLWrapper, from: number) =>
  sql`exists (select 1 from ${loginEvents} where ${loginEvents.userId} = ${userId} and ${loginEvents.createdAt} >= ${from})`;
const agentsOf = (managerId: SQLWrapper, loggedInFrom?: number) =>
  sql`(select count(*) from ${users} ${agent} where ${agent.parentId} = ${managerId} and ${agent.userType} = 'agent' and ${agent.deletedAt} is null${loggedInFrom === undefined ? sql`` : sql` and ${loggedInSince(agent.id, loggedInFrom)}`})`;
/** Live managers of the companies read here. */
const managersHere = and(eq(users.userType, 'manager'), isNull(users.deletedAt), readHere);

/** The columns of a Login History row: each count a correlated subquery on an index (users_parent, login_events_user_time). */
function managerRows(db: Db, from: number) {
  // each fragment is nested in sql`${…}`: drizzle leaves the top-level columns of a single-table select unqualified, which the subqueries would capture
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      totalUsers: sql<number>`${agentsOf(users.id)}`,
      loggedInUsers: sql<number>`${agentsOf(users.id, from)}`,
      managerLoggedIn: sql<number>`${loggedInSince(users.id, from)}`,
    })
    .from(users)
    .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId));
}

type Item = ReturnType<typeof toItem>;
const toItem = (r: { id: string; email: string; name: string; totalUsers: number; loggedInUsers: number; managerLoggedIn: number }) => ({
  manager: { _id: r.id, email: r.email, name: r.name },
  totalUsers: Number(r.totalUsers),
  loggedInUsers: Number(r.loggedInUsers),
  managerLoggedIn: Number(r.managerLoggedIn) === 1,
});

/**
 * POST /api/analytics/loginHistory/page (docs/decisions/0187-paged-fan-out.md): the managers a
 * page at a time in e-mail order, each shard asked for the page after the cursor; the count and
 * the online total are each shard's, summed, so they are exact; the chart's days on the first page.
 */
export async function loginHistoryPage(env: Bindings, input: LoginHistoryPageQuery, now = new Date()): Promise<LoginHistoryPage> {
  const from = input.dateFrom.getTime();
  const q = input.q;
  const narrowed = and(managersHere, q ? or(contains(users.email, q), contains(users.name, q)) : undefined);
  const dbs = allShards(env).map((shard) => shardDb(env, shard));
  // each sortable column as SQL and as the item's value (the cursor's key)
  const sorts = {
    email: { sql: sql`${users.email}`, of: (i: Item) => i.manager.email },
    totalUsers: { sql: sql`${agentsOf(users.id)}`, of: (i: Item) => i.totalUsers },
    loggedInUsers: { sql: sql`${agentsOf(users.id, from)}`, of: (i: Item) => i.loggedInUsers },
    managerLoggedIn: { sql: sql`${loggedInSince(users.id, from)}`, of: (i: Item) => (i.managerLoggedIn ? 1 : 0) },
  } satisfies Record<LoginHistoryPageQuery['sort'], { sql: SQL; of: (i: Item) => SortValue }>;
  const sort = sorts[input.sort];
  const descending = input.dir === 'desc';
  const order = descending ? desc : asc;
  const view: PagedView<Item> = {
    view: `loginHistory:${from}:${input.sort}:${input.dir}:${input.q ?? ''}`,
    desc: descending,
    key: (i) => [sort.of(i), i.manager._id],
    rows: async (db, after, limit) =>
      (
        await managerRows(db, from)
          .where(and(narrowed, afterKey(sort.sql, users.id, after, descending)))
          .orderBy(order(sort.sql), order(users.id))
          .limit(limit)
      ).map(toItem),
    count: async (db) => {
      const [row] = await db
        .select({
          total: sql<number>`sum(case when ${narrowed} then 1 else 0 end)`,
          online: sql<number>`sum(${agentsOf(users.id, from)} + ${loggedInSince(users.id, from)})`,
          managers: sql<number>`count(*)`,
          managersIn: sql<number>`sum(${loggedInSince(users.id, from)})`,
          agents: sql<number>`sum(${agentsOf(users.id)})`,
          agentsIn: sql<number>`sum(${agentsOf(users.id, from)})`,
        })
        .from(users)
        .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
        .where(managersHere);
      return {
        total: Number(row?.total ?? 0),
        online: Number(row?.online ?? 0),
        managers: Number(row?.managers ?? 0),
        managersIn: Number(row?.managersIn ?? 0),
        agents: Number(row?.agents ?? 0),
        agentsIn: Number(row?.agentsIn ?? 0),
      };
    },
  };
  const [page, daily] = await Promise.all([
    pageAcross(dbs, view, input.limit, input.cursor),
    input.cursor ? null : Promise.all(dbs.map((db) => dailyLogins(db, from, input.timezoneOffset, now))).then(sumDays),
  ]);
  return {
    items: page.items,
    total: page.totals.total,
    next: page.next,
    totalOnlineAmount: page.totals.online ?? 0,
    managers: page.totals.managers ?? 0,
    managersIn: page.totals.managersIn ?? 0,
    agents: page.totals.agents ?? 0,
    agentsIn: page.totals.agentsIn ?? 0,
    dateFrom: input.dateFrom.toISOString(),
    daily,
  };
}

/** The shards' days added up (a user is in one shard). */
const sumDays = (parts: DailyLogins[][]): DailyLogins[] =>
  parts[0]!.map((d, i) => ({ day: d.day, logins: parts.reduce((n, p) => n + p[i]!.logins, 0), users: parts.reduce((n, p) => n + p[i]!.users, 0) }));

/**
 * Login History of one shard: every live manager with its agents, how many of them logged in
 * since `dateFrom`, and whether the manager did; plus logins per day for the chart. Each count is
 * a correlated subquery on an index (users_parent, login_events_user_time), so the cost grows
 * with the number of managers and agents, not with the login log.
 */
export async function shardLoginHistory(db: Db, input: { dateFrom: Date; timezoneOffset: number }, now = new Date()): Promise<LoginHistory> {
  const from = input.dateFrom.getTime();
  const rows = await managerRows(db, from).where(managersHere).orderBy(asc(users.email));
  const items = rows.map(toItem);
  const totalOnlineAmount = items.reduce((n, i) => n + i.loggedInUsers + (i.managerLoggedIn ? 1 : 0), 0);
  return { items, totalOnlineAmount, dateFrom: input.dateFrom.toISOString(), daily: await dailyLogins(db, from, input.timezoneOffset, now) };
}

/** The caller's calendar day of a UTC instant, as YYYY-MM-DD (offset as `Date#getTimezoneOffset`). */
const localDay = (ms: number, offsetMinutes: number) => new Date(ms - offsetMinutes * 60_000).toISOString().slice(0, 10);

/** Logins and distinct users per day, from dateFrom (at most MAX_CHART_DAYS back) to today; empty days are 0. */
export async function dailyLogins(db: Db, from: number, offsetMinutes: number, now = new Date()): Promise<DailyLogins[]> {
  const today = localDay(now.getTime(), offsetMinutes);
  const earliest = Date.parse(today) - (MAX_CHART_DAYS - 1) * DAY;
  const firstDay = Math.max(Date.parse(localDay(from, offsetMinutes)), earliest);
  // the first instant of firstDay in the caller's zone, or dateFrom itself if later
  const start = Math.max(from, firstDay + offsetMinutes * 60_000);
  const shift = offsetMinutes * 60_000;
  const day = sql<string>`strftime('%Y-%m-%d', (${loginEvents.createdAt} - ${shift}) / 1000, 'unixepoch')`;
  const counted = await db
    .select({ day, logins: sql<number>`count(*)`, users: sql<number>`count(distinct ${loginEvents.userId})` })
    .from(loginEvents)
    .leftJoin(users, eq(users.id, loginEvents.userId))
    .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
    .where(and(gte(loginEvents.createdAt, new Date(start)), readHere))
    .groupBy(sql`1`);
  const byDay = new Map(counted.map((c) => [c.day, c]));
  const out: DailyLogins[] = [];
  for (let t = firstDay; localDay(t, 0) <= today; t += DAY) {
    const key = localDay(t, 0);
    const hit = byDay.get(key);
    out.push({ day: key, logins: Number(hit?.logins ?? 0), users: Number(hit?.users ?? 0) });
  }
  return out;
}
