import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { drizzle } from 'drizzle-orm/d1';
import { createMiddleware } from 'hono/factory';
import * as schema from '../db/schema';
import type { AppEnv, Db } from '../env';

export const createDb = (d1: D1Database): Db => drizzle(d1, { schema, casing: 'snake_case' });

/** Puts the request's drizzle client on the context (`c.var.db`). */
export const withDb = createMiddleware<AppEnv>(async (c, next) => {
  c.set('db', createDb(c.env.DB));
  await next();
});

/** Dates go out as ISO strings; null stays null. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** D1 binds at most 100 parameters per statement: id lists and multi-row inserts go in chunks. */
export const MAX_PARAMS = 100;
export const MAX_IDS_PER_QUERY = 90;
export function chunks<T>(rows: readonly T[], size = MAX_IDS_PER_QUERY): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** A list as one bound JSON parameter, read back by SQLite's json_each: any length within D1's 100-parameter limit. */
export const jsonValues = (values: readonly unknown[]): SQL => sql`(select value from json_each(${JSON.stringify(values)}))`;

/** `column in (values)` with the values as one JSON parameter (an id list of any length). */
export const inJson = (column: SQLWrapper, values: readonly unknown[]): SQL => sql`${column} in ${jsonValues(values)}`;

/**
 * Runs statements in one `db.batch()` (one implicit transaction on D1: all land or none);
 * an empty list runs nothing. Answers each statement's result, in order.
 */
export async function runBatch<T extends BatchItem<'sqlite'>>(db: Db, statements: readonly T[]): Promise<readonly T['_']['result'][]> {
  if (!statements.length) return [];
  return db.batch(statements as unknown as readonly [T, ...T[]]);
}

/**
 * True when `err` (or an error it wraps: D1 and drizzle nest them in `cause`) is SQLite's
 * unique-constraint failure, optionally on one `table.column` (a composite index lists each of
 * its columns: `promo_uses.promo_id, promo_uses.user_id` matches 'promo_uses.user_id').
 */
export function isUniqueViolation(err: unknown, column?: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = String((e as { message?: unknown }).message ?? e);
    const match = /UNIQUE constraint failed: ([^\n]+)/.exec(message);
    // D1 words it "D1_ERROR: UNIQUE constraint failed: links.code: SQLITE_CONSTRAINT"
    if (match && (!column || (match[1]!.match(/\w+\.\w+/g) ?? ([] as string[])).includes(column))) return true;
  }
  return false;
}
