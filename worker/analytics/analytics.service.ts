import { and, asc, eq, gte, inArray, isNull, or, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { companyHomes, loginEvents, users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { type DailyLogins, type LoginHistory, MAX_CHART_DAYS } from './analytics.schema';

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
  const daily = parts[0]!.daily.map((d, i) => ({
    day: d.day,
    logins: parts.reduce((n, p) => n + p.daily[i]!.logins, 0),
    users: parts.reduce((n, p) => n + p.daily[i]!.users, 0),
  }));
  const totalOnlineAmount = items.reduce((n, i) => n + i.loggedInUsers + (i.managerLoggedIn ? 1 : 0), 0);
  return { items, totalOnlineAmount, dateFrom: input.dateFrom.toISOString(), daily };
}

/** Each count is a correlated subquery on an index, so the cost grows with the team, not with the login log. */
export async function shardLoginHistory(db: Db, input: { dateFrom: Date; timezoneOffset: number }, now = new Date()): Promise<LoginHistory> {
  const from = input.dateFrom.getTime();
  const loggedInSince = (userId: SQLWrapper) =>
    sql`exists (select 1 from ${loginEvents} where ${loginEvents.userId} = ${userId} and ${loginEvents.createdAt} >= ${from})`;
  const agentsOf = (managerId: SQLWrapper, loggedIn: boolean) =>
    sql`(select count(*) from ${users} ${agent} where ${agent.parentId} = ${managerId} and ${agent.userType} = 'agent' and ${agent.deletedAt} is null${loggedIn ? sql` and ${loggedInSince(agent.id)}` : sql``})`;
  // each fragment is nested in sql`${…}`: drizzle leaves the top-level columns of a single-table select unqualified, which the subqueries would capture
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      totalUsers: sql<number>`${agentsOf(users.id, false)}`,
      loggedInUsers: sql<number>`${agentsOf(users.id, true)}`,
      managerLoggedIn: sql<number>`${loggedInSince(users.id)}`,
    })
    .from(users)
    .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
    .where(and(eq(users.userType, 'manager'), isNull(users.deletedAt), readHere))
    .orderBy(asc(users.email));
  const items = rows.map((r) => ({
    manager: { _id: r.id, email: r.email, name: r.name },
    totalUsers: Number(r.totalUsers),
    loggedInUsers: Number(r.loggedInUsers),
    managerLoggedIn: Number(r.managerLoggedIn) === 1,
  }));
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
