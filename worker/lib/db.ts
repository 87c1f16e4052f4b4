import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type AppEnv, type Db, isDevelopment } from '../env';
import { BOOKMARK_HEADER, bookmarkFor, shardBookmark } from './bookmark';
import { CONTROL, createDb, d1Of, fencedD1 } from './d1';

export { createDb } from './d1';

/**
 * Drizzle over a D1 session (the Sessions API). Drizzle's D1 driver calls only `prepare` and
 * `batch` on its client (drizzle-orm/d1/session.js), which a session has; it never calls
 * `exec` or `dump`, which a session lacks, so the session stands in for the database.
 */
const createSessionDb = (session: D1DatabaseSession): Db => createDb(session as unknown as D1Database);

/** The request's own data (`c.var.db`) is opened by `allow()` once the token names the company. */
export const withDb = createMiddleware<AppEnv>(async (c, next) => {
  c.set('control', createDb(c.env.DB, CONTROL));
  await next();
  const session = c.get('dbSession');
  const bookmark = session?.getBookmark();
  if (bookmark && c.var.shard) c.header(BOOKMARK_HEADER, shardBookmark(c.var.shard, bookmark));
});

/** The caller's company on its shard, in a D1 session that starts on the primary (the token check and every write read the newest data). */
export function openCompany(c: Context<AppEnv>, home: { companyId: string; shard: string }) {
  const session = d1Of(c.env, home.shard).withSession('first-primary');
  c.set('db', createDb(fencedD1(session, home.companyId), home.shard));
  c.set('dbSession', session);
  c.set('shard', home.shard);
  c.set('companyId', home.companyId);
}

/** Statements a read-only route may run: reads (a `with` query that writes is not used here). */
const READ_STATEMENT = /^\s*(select|with)\b/i;

/** In development and tests a read-only route that tries to write fails loudly: its `readOnly()` is wrong. */
function refusingWrites(session: D1DatabaseSession): D1DatabaseSession {
  const check = (query: string) => {
    if (!READ_STATEMENT.test(query)) throw new Error(`a readOnly() route ran a write: ${query.slice(0, 80)}`);
  };
  return {
    prepare: (query: string) => {
      check(query);
      return session.prepare(query);
    },
    batch: session.batch.bind(session),
    getBookmark: session.getBookmark.bind(session),
  } as D1DatabaseSession;
}

/**
 * Reads go to a replica at least as new as the client's bookmark for that shard, so a user sees its
 * own writes. The mark lets the route table list which calls read where.
 */
export function readOnly(): MiddlewareHandler<AppEnv> {
  const middleware = createMiddleware<AppEnv>(async (c, next) => {
    const shard = c.var.shard ?? CONTROL;
    const sent = bookmarkFor(shard, c.req.header(BOOKMARK_HEADER));
    const opened = d1Of(c.env, shard).withSession(sent ?? 'first-unconstrained');
    const session = isDevelopment(c.env) ? refusingWrites(opened) : opened;
    c.set('db', c.var.companyId ? createDb(fencedD1(session, c.var.companyId), shard) : createSessionDb(session));
    c.set('dbSession', session);
    await next();
  });
  return Object.assign(middleware, { readOnly: true }) as MiddlewareHandler<AppEnv>;
}

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

/** One implicit transaction on D1: all land or none. */
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
