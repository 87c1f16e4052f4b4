import { and, desc, eq, isNull, notInArray, or, sql } from 'drizzle-orm';
import { accounts, companies, companyMoves } from '../db/schema';
import type { Bindings, Db } from '../env';
import { allShards, placementShards } from '../lib/d1';
import { apiError } from '../lib/errors';
import { moveView } from './move';
import { SHARD_MESSAGES } from './shards.messages';

/** The databases: how many companies and live users each holds, where new companies go, and the open and latest moves. */
export async function listShards(env: Bindings, control: Db) {
  const names = allShards(env);
  const placement = new Set(placementShards(env));
  const [perShard, usersPerShard, moves] = await Promise.all([
    control.select({ shard: companies.shard, n: sql<number>`count(*)` }).from(companies).groupBy(companies.shard),
    control
      .select({ shard: companies.shard, n: sql<number>`count(*)` })
      .from(accounts)
      .innerJoin(companies, eq(companies.id, accounts.companyId))
      .where(isNull(accounts.deletedAt))
      .groupBy(companies.shard),
    control
      .select()
      .from(companyMoves)
      .where(or(notInArray(companyMoves.step, ['done', 'rolled_back']), sql`${companyMoves.createdAt} > ${Date.now() - 7 * 86_400_000}`))
      .orderBy(desc(companyMoves.createdAt))
      .limit(50),
  ]);
  const count = (rows: { shard: string; n: number }[], shard: string) => Number(rows.find((r) => r.shard === shard)?.n ?? 0);
  return {
    shards: names.map((name) => ({ name, placement: placement.has(name), companies: count(perShard, name), users: count(usersPerShard, name) })),
    moves: moves.map(moveView),
  };
}

/** The companies of one shard, oldest first, with their live users. */
export async function shardCompanies(env: Bindings, control: Db, shard: string) {
  if (!allShards(env).includes(shard)) throw apiError(SHARD_MESSAGES.noShard, { shard, shards: allShards(env).join(', ') });
  const rows = await control
    .select({ id: companies.id, state: companies.state, createdAt: companies.createdAt, users: sql<number>`count(${accounts.userId})` })
    .from(companies)
    .leftJoin(accounts, and(eq(accounts.companyId, companies.id), isNull(accounts.deletedAt)))
    .where(eq(companies.shard, shard))
    .groupBy(companies.id)
    .orderBy(companies.createdAt);
  return rows.map((r) => ({ id: r.id, state: r.state, users: Number(r.users), createdAt: r.createdAt.toISOString() }));
}
