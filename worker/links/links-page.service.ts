import { and, asc, desc, eq, inArray, isNull, or, type SQLWrapper, sql } from 'drizzle-orm';
import { companyHomes, links, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { afterKey, contains, type PagedView, pageAcross, type SortValue } from '../lib/fan-out';
import type { LinkPageQuery, LinksPage } from './links.schema';
import { type LinkRow, toDto } from './links.service';

type Owner = { _id: string; name: string; email: string } | null;

/**
 * GET /api/link/page: the links list a page at a time, oldest first as GET /api/link
 * (docs/decisions/0187-paged-fan-out.md). The admin's `all` spans every shard, each company's
 * links read where the company is read (as `everyLink`); anyone else's is its own links.
 */
export async function linksPage(env: Bindings, db: Db, caller: Caller, query: LinkPageQuery): Promise<LinksPage> {
  const all = query.all === '1' && caller.userType === 'admin';
  const q = query.q;
  const scope = all ? or(isNull(companyHomes.state), inArray(companyHomes.state, ['active', 'moving'])) : eq(links.userId, caller.id);
  const narrowed = and(scope, q ? or(contains(links.from, q), contains(links.code, q), all ? contains(users.email, q) : undefined) : undefined);
  const from = (db: Db) =>
    db
      .select({ link: links, owner: { _id: users.id, name: users.name, email: users.email } })
      .from(links)
      .leftJoin(users, eq(users.id, links.userId))
      .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId));
  const sorts = {
    date: { column: links.date, of: (l: LinkRow) => l.date.getTime() },
    from: { column: links.from, of: (l: LinkRow) => l.from },
    code: { column: links.code, of: (l: LinkRow) => l.code },
  } satisfies Record<LinkPageQuery['sort'], { column: SQLWrapper; of: (l: LinkRow) => SortValue }>;
  const sort = sorts[query.sort];
  const descending = query.dir === 'desc';
  const order = descending ? desc : asc;
  const view: PagedView<{ link: LinkRow; owner: Owner }> = {
    view: `links:${all ? 'all' : 'own'}:${query.sort}:${query.dir}:${query.q ?? ''}`,
    desc: descending,
    key: (r) => [sort.of(r.link), r.link.id],
    rows: (db, after, limit) =>
      from(db)
        .where(and(narrowed, afterKey(sort.column, links.id, after, descending)))
        .orderBy(order(sort.column), order(links.id))
        .limit(limit),
    count: async (db) => {
      const [row] = await db
        .select({ total: sql<number>`count(*)` })
        .from(links)
        .leftJoin(users, eq(users.id, links.userId))
        .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
        .where(narrowed);
      return { total: Number(row?.total ?? 0) };
    },
  };
  const page = await pageAcross(all ? allShards(env).map((shard) => shardDb(env, shard)) : [db], view, query.limit, query.cursor);
  const now = Date.now();
  return {
    items: page.items.map((r) => ({ ...toDto(env, r.link, now), ...(all && r.owner ? { owner: r.owner } : {}) })),
    total: page.totals.total,
    next: page.next,
  };
}
