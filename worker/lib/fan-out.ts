import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../env';
import { COMMON_MESSAGES } from './common-messages';
import { apiError } from './errors';

/**
 * Paged views over every shard (docs/decisions/0187-paged-fan-out.md): each shard answers the
 * rows after the cursor in the view's order (keyset on the sort key, then the id), at most one
 * page and one more; the lists are merged and the first page taken; totals are each shard's
 * count, summed.
 */

/** A row's place in a view's order: its sort key, then its id. */
export type SortValue = string | number;
export type Key = readonly [SortValue, string];

/** SQLite's BINARY order (UTF-8 bytes, which is code point order), not JavaScript's UTF-16 units. */
export function binaryCompare(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
}

const compareValues = (a: SortValue, b: SortValue) => (typeof a === 'number' && typeof b === 'number' ? a - b : binaryCompare(String(a), String(b)));

/** Ascending order of keys; `desc` reverses both the key and the id. */
export const compareKeys = (a: Key, b: Key, desc = false) => {
  const d = compareValues(a[0], b[0]) || binaryCompare(a[1], b[1]);
  return desc ? -d : d;
};

/**
 * A cursor names its view (sort and direction) and the last row's key; one of another view, or
 * one that does not parse, is a 400, never a silent first page.
 */
export function encodeCursor(view: string, key: Key): string {
  return btoa(JSON.stringify([view, key[0], key[1]]))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function decodeCursor(view: string, cursor: string | undefined): Key | undefined {
  if (!cursor) return undefined;
  try {
    const parsed = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
    if (Array.isArray(parsed) && parsed.length === 3 && parsed[0] === view && ['string', 'number'].includes(typeof parsed[1]) && typeof parsed[2] === 'string')
      return [parsed[1], parsed[2]];
  } catch {
    // falls through to the refusal
  }
  throw apiError(COMMON_MESSAGES.badCursor);
}

/** The SQL condition "after `key`" in the order (`column`, `id`), ascending or descending. */
export function afterKey(column: SQLWrapper, id: SQLWrapper, key: Key | undefined, desc = false): SQL | undefined {
  if (!key) return undefined;
  // raw values: the key is what the driver stored (a timestamp's milliseconds), not a column's JS type
  const past = desc ? sql.raw('<') : sql.raw('>');
  return sql`(${column} ${past} ${key[0]} or (${column} = ${key[0]} and ${id} ${past} ${key[1]}))`;
}

/** `column` contains `text` (ASCII case-insensitive, as SQLite's LIKE); `%`, `_` and `\` typed are themselves. */
export const contains = (column: SQLWrapper, text: string): SQL => sql`${column} like ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

export interface PagedView<Row> {
  /** The view's name in its cursors: the sort and its direction. */
  view: string;
  desc: boolean;
  key: (row: Row) => Key;
  /** A shard's rows after `after`, in the view's order, at most `limit`. */
  rows: (db: Db, after: Key | undefined, limit: number) => Promise<Row[]>;
  /** A shard's counts: `total` is its rows in the view (the search and filters applied); any others are the view's own (summed alike). */
  count: (db: Db) => Promise<{ total: number } & Record<string, number>>;
}

export interface Page<Row> {
  items: Row[];
  /** Each count of `count`, summed over the shards: exact, as each shard's is. */
  totals: Record<string, number> & { total: number };
  /** The cursor of the next page; null on the last. */
  next: string | null;
}

/** A page of `view` over `dbs`: at most `limit + 1` rows from each shard, merged. */
export async function pageAcross<Row>(dbs: readonly Db[], view: PagedView<Row>, limit: number, cursor: string | undefined): Promise<Page<Row>> {
  const after = decodeCursor(view.view, cursor);
  const parts = await Promise.all(dbs.map(async (db) => Promise.all([view.rows(db, after, limit + 1), view.count(db)])));
  const merged = mergeSorted(
    parts.map(([rows]) => rows),
    (a, b) => compareKeys(view.key(a), view.key(b), view.desc),
    limit + 1,
  );
  const items = merged.slice(0, limit);
  const last = items[items.length - 1];
  const totals: Record<string, number> & { total: number } = { total: 0 };
  for (const [, counts] of parts) for (const [name, n] of Object.entries(counts)) totals[name] = (totals[name] ?? 0) + n;
  return {
    items,
    totals,
    next: merged.length > limit && last ? encodeCursor(view.view, view.key(last)) : null,
  };
}

/** The first `limit` rows of lists each already in `compare`'s order (a k-way merge). */
export function mergeSorted<Row>(lists: readonly Row[][], compare: (a: Row, b: Row) => number, limit: number): Row[] {
  const at = lists.map(() => 0);
  const out: Row[] = [];
  while (out.length < limit) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const row = lists[i]![at[i]!];
      if (row !== undefined && (best < 0 || compare(row, lists[best]![at[best]!]!) < 0)) best = i;
    }
    if (best < 0) break;
    out.push(lists[best]![at[best]!++]!);
  }
  return out;
}
