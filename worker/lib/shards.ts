import { eq, sql } from 'drizzle-orm';
import { companies, companyHomes, writeFence } from '../db/schema/companies';
import type { Bindings, Db } from '../env';
import { COMMON_MESSAGES } from './common-messages';
import { controlDb, placementShards } from './d1';
import { apiError } from './errors';

/** Companies and their shards (docs/decisions/0174-company-shards.md). */
/** The company of the admin and marketing users: they belong to no team tree. */
export const STAFF_COMPANY = 'staff';

/** Where a company is: its shard and state, from the control plane. */
export async function companyRow(control: Db, companyId: string) {
  const [row] = await control.select().from(companies).where(eq(companies.id, companyId)).limit(1);
  return row;
}

/**
 * Company -> shard, kept a minute per isolate: the control plane is read once per company per
 * isolate, not on every request. A stale entry is harmless: the shard's own `company_homes` row
 * says `moved` (or nothing), and the caller asks again with `fresh`.
 */
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

/** Forgets where a company is (after a move, in this isolate). */
export const forgetCompany = (companyId: string) => placed.delete(companyId);

/** Seconds a client waits before it tries a write again during a move. */
export const MOVING_RETRY_SECONDS = 30;
export const companyMoving = () => apiError(COMMON_MESSAGES.companyMoving);

/** The statement that opens a company on a shard (a new company, or a move's flip). */
export const homeStatement = (db: Db, companyId: string, state: (typeof companyHomes.$inferInsert)['state'], now = new Date()) =>
  db
    .insert(companyHomes)
    .values({ companyId, state, changedAt: now })
    .onConflictDoUpdate({ target: companyHomes.companyId, set: { state, changedAt: now } });

/**
 * Places a new company on the shard of the placement shards with the fewest companies (ties: the
 * first named), and records it, in one statement: D1 runs statements one at a time, so companies
 * made in the same moment each see the ones before and spread evenly. Choosing first and writing
 * after sent every company of a burst to the same shard, since they all read the same counts.
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
