import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../db/schema';
import type { Db } from '../env';

export const createDb = (d1: D1Database): Db => drizzle(d1, { schema, casing: 'snake_case' });

/** Dates go out as ISO strings; null stays null. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** D1 binds at most 100 parameters per statement: id lists and multi-row inserts go in chunks. */
export const MAX_IDS_PER_QUERY = 90;
export function chunks<T>(rows: readonly T[], size = MAX_IDS_PER_QUERY): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
