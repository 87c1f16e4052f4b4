import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { companyHomes, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { inJson } from '../lib/db';
import { afterKey, contains, type Key, type PagedView, pageAcross, type SortValue } from '../lib/fan-out';
import { visibleIds } from '../lib/team';
import type { UserPageQuery, UsersPage } from './users.schema';
import { toDto, type UserRow } from './users.service';

const parent = alias(users, 'parent');

/**
 * The sort keys of the paged Users List, each with its value in JavaScript for the cursor;
 * `registrationDate` is GET /api/user's order. Subscription End sorts dates, then 'No End Date',
 * then 'Email verification pending' (rule 0136): the kinds as numbers past any date. Country sorts
 * by its ISO code: the server does not know the screen's language.
 */
const NO_END = 2e13;
const PENDING = 3e13;
const SORTS = {
  registrationDate: { sql: sql`${users.registrationDate}`, of: (u: UserRow) => u.registrationDate.getTime() },
  name: { sql: sql`${users.name}`, of: (u: UserRow) => u.name },
  email: { sql: sql`${users.email}`, of: (u: UserRow) => u.email },
  userType: { sql: sql`${users.userType}`, of: (u: UserRow) => u.userType },
  parent: { sql: sql`coalesce(${parent.email}, '')`, of: (_u: UserRow, p: { email: string } | null) => p?.email ?? '' },
  country: { sql: sql`${users.country}`, of: (u: UserRow) => u.country },
  phone: { sql: sql`${users.phone}`, of: (u: UserRow) => u.phone },
  subscriptionEnd: {
    sql: sql`(case when ${users.isEmailVerified} = 0 then ${PENDING} when ${users.subscriptionEndDate} is null then ${NO_END} else ${users.subscriptionEndDate} end)`,
    of: (u: UserRow) => (!u.isEmailVerified ? PENDING : (u.subscriptionEndDate?.getTime() ?? NO_END)),
  },
} satisfies Record<UserPageQuery['sort'], { sql: SQL; of: (u: UserRow, p: { email: string } | null) => SortValue }>;

/**
 * GET /api/user/page: the Users List a page at a time (docs/decisions/0187-paged-fan-out.md). The
 * admin's spans every shard (a company's rows are read where the company is read: `active`, or
 * `moving` until its flip, so a moving company is not listed twice); a director's or a manager's is
 * its own tree, in its own shard.
 */
export async function usersPage(env: Bindings, db: Db, caller: Caller, query: UserPageQuery): Promise<UsersPage> {
  const admin = caller.userType === 'admin';
  const ids = admin ? null : [...((await visibleIds(db, caller)) ?? [])].filter((id) => id !== caller.id);
  const scope: SQL | undefined = admin ? or(isNull(companyHomes.state), inArray(companyHomes.state, ['active', 'moving'])) : inJson(users.id, ids ?? []);
  const base = and(isNull(users.deletedAt), scope);
  const q = query.q;
  const narrowed = and(
    base,
    query.type ? eq(users.userType, query.type) : undefined,
    query.parent ? eq(users.parentId, query.parent) : undefined,
    q ? or(contains(users.email, q), contains(users.name, q), contains(users.phone, q), contains(parent.email, q)) : undefined,
  );
  const sort = SORTS[query.sort];
  const descending = query.dir === 'desc';
  const order = descending ? desc : asc;
  const from = (db: Db) =>
    db
      .select({ user: users, parent: { _id: parent.id, name: parent.name, email: parent.email } })
      .from(users)
      .leftJoin(parent, eq(parent.id, users.parentId))
      .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId));
  const view: PagedView<{ user: UserRow; parent: { _id: string; name: string; email: string } | null }> = {
    view: `users:${query.sort}:${query.dir}:${query.type ?? ''}:${query.parent ?? ''}:${query.q ?? ''}`,
    desc: descending,
    key: (r): Key => [sort.of(r.user, r.parent), r.user.id],
    rows: (db, after, limit) =>
      from(db)
        .where(and(narrowed, afterKey(sort.sql, users.id, after, descending)))
        .orderBy(order(sort.sql), order(users.id))
        .limit(limit),
    count: async (db) => {
      const [row] = await db
        .select({
          total: sql<number>`sum(case when ${narrowed ?? sql`1`} then 1 else 0 end)`,
          all: sql<number>`count(*)`,
          managers: sql<number>`sum(case when ${users.userType} = 'manager' then 1 else 0 end)`,
          agents: sql<number>`sum(case when ${users.userType} = 'agent' then 1 else 0 end)`,
        })
        .from(users)
        .leftJoin(parent, eq(parent.id, users.parentId))
        .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
        .where(base);
      return { total: Number(row?.total ?? 0), all: Number(row?.all ?? 0), managers: Number(row?.managers ?? 0), agents: Number(row?.agents ?? 0) };
    },
  };
  const dbs = admin ? allShards(env).map((shard) => shardDb(env, shard)) : [db];
  const page = await pageAcross(dbs, view, query.limit, query.cursor);
  return {
    items: page.items.map((r) => toDto(r.user, r.parent)),
    total: page.totals.total,
    all: page.totals.all ?? 0,
    managers: page.totals.managers ?? 0,
    agents: page.totals.agents ?? 0,
    next: page.next,
  };
}
