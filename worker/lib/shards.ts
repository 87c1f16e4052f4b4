import { eq, sql } from 'drizzle-orm';
import { companies, companyHomes, writeFence } from '../db/schema/companies';
import type { Bindings, Db } from '../env';
import { controlDb, placementShards } from './d1';
import { COMMON_MESSAGES } from './common-messages';
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

/** The shard with the fewest companies among the placement shards (ties: the first named). */
export async function placeNewCompany(env: Bindings, control: Db): Promise<string> {
  const shards = placementShards(env);
  if (shards.length === 1) return shards[0]!;
  const counts = await control.select({ shard: companies.shard, n: sql<number>`count(*)` }).from(companies).groupBy(companies.shard);
  const by = new Map(counts.map((c) => [c.shard, Number(c.n)]));
  return shards.reduce((best, s) => ((by.get(s) ?? 0) < (by.get(best) ?? 0) ? s : best), shards[0]!);
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
