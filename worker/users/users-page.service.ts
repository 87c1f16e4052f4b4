import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { companyHomes, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { inJson } from '../lib/db';
import { afterKey, contains, type Key, type PagedView, pageAcross } from '../lib/fan-out';
import { visibleIds } from '../lib/team';
import type { UserPageQuery, UsersPage } from './users.schema';
import { toDto, type UserRow } from './users.service';

const parent = alias(users, 'parent');

/** The sort columns of the paged Users List; `registrationDate` is GET /api/user's order. */
const SORTS = {
  registrationDate: users.registrationDate,
  name: users.name,
  email: users.email,
} as const;

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
  const column = SORTS[query.sort];
  const descending = query.dir === 'desc';
  const order = descending ? desc : asc;
  const from = (db: Db) =>
    db
      .select({ user: users, parent: { _id: parent.id, name: parent.name, email: parent.email } })
      .from(users)
      .leftJoin(parent, eq(parent.id, users.parentId))
      .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId));
  const keyOf = (u: UserRow): Key => [query.sort === 'registrationDate' ? u.registrationDate.getTime() : (u[query.sort] as string), u.id];
  const view: PagedView<{ user: UserRow; parent: { _id: string; name: string; email: string } | null }> = {
    view: `users:${query.sort}:${query.dir}:${query.type ?? ''}:${query.parent ?? ''}:${query.q ?? ''}`,
    desc: descending,
    key: (r) => keyOf(r.user),
    rows: (db, after, limit) =>
      from(db)
        .where(and(narrowed, afterKey(column, users.id, after, descending)))
        .orderBy(order(column), order(users.id))
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
