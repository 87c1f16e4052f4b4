import { eq, sql } from 'drizzle-orm';
import { companies, companyHomes, writeFence } from '../db/schema/companies';
import type { Bindings, Db } from '../env';
import { COMMON_MESSAGES } from './common-messages';
import { controlDb, placementShards } from './d1';
import { apiError } from './errors';

/** The company of the admin and marketing users: they belong to no team tree. */
export const STAFF_COMPANY = 'staff';

export async function companyRow(control: Db, companyId: string) {
  const [row] = await control.select().from(companies).where(eq(companies.id, companyId)).limit(1);
  return row;
}

/** Kept a minute per isolate; a stale entry is harmless: the shard's `company_homes` says `moved` and the caller asks again. */
const placed = new Map<string, { shard: string; until: number }>();
const PLACED_MS = 60_000;
const PLACED_MAX = 10_000;

export async function shardOfCompany(env: Bindings, companyId: string, fresh = false): Promise<string | undefined> {
  const now = Date.now();
  const hit = placed.get(companyId);
  if (hit && !fresh && hit.until > now) return hit.shard;
  const row = await companyRow(controlDb(env), companyId);
  if (!row) {
    placed.delete(companyId);
    return undefined;
  }
  if (placed.size >= PLACED_MAX) placed.clear();
  placed.set(companyId, { shard: row.shard, until: now + PLACED_MS });
  return row.shard;
}

export const forgetCompany = (companyId: string) => placed.delete(companyId);

/** Seconds a client waits before it tries a write again during a move. */
export const MOVING_RETRY_SECONDS = 30;
export const companyMoving = () => apiError(COMMON_MESSAGES.companyMoving);

export const homeStatement = (db: Db, companyId: string, state: (typeof companyHomes.$inferInsert)['state'], now = new Date()) =>
  db
    .insert(companyHomes)
    .values({ companyId, state, changedAt: now })
    .onConflictDoUpdate({ target: companyHomes.companyId, set: { state, changedAt: now } });

/**
 * Picks the shard and records it in one statement: D1 runs statements one at a time, so a burst
 * of new companies spreads evenly (choosing first and writing after sent a burst to one shard).
 */
export async function placeNewCompany(env: Bindings, control: Db, companyId: string, now = new Date()): Promise<string> {
  const shards = placementShards(env);
  const [row] = await control.all<{ shard: string }>(
    sql`insert into ${companies} (id, shard, created_at)
      select ${companyId}, value, ${now.getTime()} from json_each(${JSON.stringify(shards)})
      order by (select count(*) from ${companies} c where c.shard = value), key limit 1
      returning shard`,
  );
  if (!row) throw new Error('no placement shard');
  return row.shard;
}

/**
 * The fence of another company, for a batch that also changes that company's rows (a user joining
 * it): the batch fails while that company is not active here either.
 */
export const fenceFor = (db: Db, companyId: string) =>
  db
    .insert(writeFence)
    .values({ id: 1, ok: sql`(select count(*) from ${companyHomes} where ${companyHomes.companyId} = ${companyId} and ${companyHomes.state} = 'active')` })
    .onConflictDoUpdate({ target: writeFence.id, set: { ok: sql`excluded.ok` } });

/** The companies active on a shard: jobs leave a moving company's rows alone. */
export async function activeCompanies(db: Db): Promise<Set<string>> {
  const rows = await db.select({ id: companyHomes.companyId }).from(companyHomes).where(eq(companyHomes.state, 'active'));
  return new Set(rows.map((r) => r.id));
}
