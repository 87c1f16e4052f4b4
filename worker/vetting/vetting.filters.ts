import { and, eq, inArray } from 'drizzle-orm';
import type * as z from 'zod';
import { brokerFilters as f } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { viewerOf, visibleTo } from '../filters/filters-visibility.service';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { chunks } from '../lib/db';
import { apiError } from '../lib/errors';
import { messageOf } from '../lib/messages';
import { enforceLimit, type Limit } from '../lib/rate-limit';
import { fmcsaConfigured } from './fmcsa';
import { VETTING_MESSAGES } from './vetting.messages';
import { type filterVettingAnswerSchema, VETTING_LABELS, type VettingDto } from './vetting.schema';
import { checkBroker, recordsByName, seedStatements, toDto, vettingName } from './vetting.service';

/** Check now, per manager: FMCSA is asked at most this often on request (the daily job does the rest). */
export const CHECK_NOW_LIMIT: Limit = { limit: 20, windowMs: 60 * 60_000 };

export type FilterVettingAnswer = z.infer<typeof filterVettingAnswerSchema>;

/** A filter's broker that has no record yet (saved before the feature, or just now): "Not checked yet". */
const unchecked = (dot: string | null, mc: string | null): VettingDto => ({
  state: null,
  label: VETTING_LABELS.unchecked,
  legalName: null,
  dotNumber: dot,
  mcNumber: mc,
  brokerAuthority: null,
  commonAuthority: null,
  contractAuthority: null,
  bondOnFile: null,
  bondRequired: null,
  bipdOnFile: null,
  bipdRequired: null,
  allowedToOperate: null,
  outOfService: false,
  oosDate: null,
  checkedAt: null,
  lastError: null,
});

export async function vettingOfFilters(env: Bindings, db: Db, caller: Caller, filterIds: string[]): Promise<FilterVettingAnswer> {
  const configured = fmcsaConfigured(env);
  if (!filterIds.length) return { configured, records: {} };
  const v = await viewerOf(db, caller);
  // D1 binds at most 100 values a statement: a page of 200 filters is asked for in parts
  const rows: { id: string; dot: string | null; mc: string | null }[] = [];
  for (const part of chunks([...new Set(filterIds)], 60)) {
    rows.push(
      ...(await db
        .select({ id: f.id, dot: f.dotNumber, mc: f.mcNumber })
        .from(f)
        .where(and(inArray(f.id, part), visibleTo(v)))),
    );
  }
  // each filter's name for its broker leads to the broker's one record, however another team names it
  const named = new Map(rows.map((r) => [r.id, vettingName(r.dot, r.mc)]));
  const found = await recordsByName(
    db,
    [...named.values()].filter((n): n is string => !!n),
  );
  const records: Record<string, VettingDto | null> = {};
  for (const r of rows) {
    const name = named.get(r.id);
    records[r.id] = name ? (toDto(found.get(name)) ?? unchecked(r.dot, r.mc)) : null;
  }
  return { configured, records };
}

/** When FMCSA does not answer, the last answer stays and the message says so (no error: the job tries again). */
export async function checkNow(
  env: Bindings,
  db: Db,
  caller: Caller,
  filterId: string,
): Promise<{ message: string; code: string; configured: boolean; record: VettingDto | null }> {
  const v = await viewerOf(db, caller);
  const [row] = await db
    .select({ id: f.id, dot: f.dotNumber, mc: f.mcNumber })
    .from(f)
    .where(and(eq(f.id, filterId), visibleTo(v)))
    .limit(1);
  if (!row) throw apiError(VETTING_MESSAGES.notFound);
  if (!fmcsaConfigured(env)) return { ...messageOf(VETTING_MESSAGES.notConfigured), configured: false, record: null };
  const name = vettingName(row.dot, row.mc);
  if (!name) return { ...messageOf(VETTING_MESSAGES.noNumber), configured: true, record: null };
  await enforceLimit(env, `vetting-check:${caller.id}`, CHECK_NOW_LIMIT, COMMON_MESSAGES.tooManyChecks);
  const seed = seedStatements(db, [{ dot: row.dot, mc: row.mc }]);
  if (seed.length) await db.batch(seed as [(typeof seed)[0], ...typeof seed]);
  const outcome = await checkBroker(env, db, name);
  if (outcome === 'budget') throw apiError(COMMON_MESSAGES.fmcsaBudget);
  const record = toDto((await recordsByName(db, [name])).get(name));
  return { ...messageOf(outcome === 'failed' ? VETTING_MESSAGES.unavailable : VETTING_MESSAGES.checked), configured: true, record };
}
