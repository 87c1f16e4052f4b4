import { drizzle } from 'drizzle-orm/d1';
import type { Bindings, Db } from '../env';

/** `DB` is the control plane and also the shard of the staff company (docs/decisions/0174-company-shards.md). */

/** A drizzle client over D1 (or a D1 session), snake_case columns; no schema: see `Db`. */
export const createDb = (d1: D1Database, shard?: string): Db => Object.assign(drizzle(d1, { casing: 'snake_case' }), { $shard: shard });

export const CONTROL = 'DB';

const SHARD_BINDING = /^SHARD_[A-Z0-9_]+$/;
const isD1 = (value: unknown): value is D1Database => !!value && typeof (value as D1Database).prepare === 'function';

/** Every database that may hold company data: `DB`, then each bound `SHARD_*` in name order. */
export function allShards(env: Bindings): string[] {
  const bound = Object.keys(env).filter((name) => SHARD_BINDING.test(name) && isD1((env as unknown as Record<string, unknown>)[name]));
  return [CONTROL, ...bound.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))];
}

/** The shards new companies go to (`SHARDS`, comma-separated); `DB` alone when none is set. */
export function placementShards(env: Bindings): string[] {
  const known = new Set(allShards(env));
  const named = (env.SHARDS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = named.filter((s) => !known.has(s));
  if (unknown.length) throw new Error(`SHARDS names ${unknown.join(', ')}, which has no D1 binding`);
  return named.length ? named : [CONTROL];
}

export function d1Of(env: Bindings, shard: string): D1Database {
  const binding = (env as unknown as Record<string, unknown>)[shard];
  if (shard !== CONTROL && !SHARD_BINDING.test(shard)) throw new Error(`not a shard name: ${shard}`);
  if (!isD1(binding)) throw new Error(`no D1 binding ${shard}`);
  return binding;
}

export const controlDb = (env: Bindings): Db => createDb(env.DB, CONTROL);

const WRITE = /^\s*(insert|update|delete|replace)\b/i;
const FENCE_SQL = `insert or replace into write_fence (id, ok) values (1, (select count(*) from company_homes where company_id = ? and state = 'active'))`;
const FENCE_FAILED = /write_fence/;

/** True when `err` (or what it wraps) is a fenced write refused because its company is not active on that shard. */
export function isFenceRefusal(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (FENCE_FAILED.test(String((e as { message?: unknown }).message ?? e))) return true;
  }
  return false;
}

type D1Like = Pick<D1Database, 'prepare' | 'batch'>;
const INNER = Symbol('inner statement');
type Fenced = D1PreparedStatement & { [INNER]: D1PreparedStatement };

/** Every write runs in one batch after the fence statement, so it lands before a move marks the company, or is refused (503), never lost. */
export function fencedD1(inner: D1Like, companyId: string): D1Database {
  const fence = () => inner.prepare(FENCE_SQL).bind(companyId);
  const unwrap = (s: D1PreparedStatement) => (s as Fenced)[INNER] ?? s;
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const once = async () => {
      const results = await inner.batch([fence(), stmt]);
      return results[1]!;
    };
    const fenced = {
      [INNER]: stmt,
      bind: (...values: unknown[]) => wrap(stmt.bind(...values)),
      run: once,
      all: once,
      first: async (column?: string) => {
        const row = (await once()).results[0] as Record<string, unknown> | undefined;
        return row === undefined ? null : column ? row[column] : row;
      },
      raw: async () => ((await once()).results as Record<string, unknown>[]).map((row) => Object.values(row)),
    };
    return fenced as unknown as D1PreparedStatement;
  };
  const db = {
    prepare: (query: string) => {
      const stmt = inner.prepare(query);
      return WRITE.test(query) ? wrap(stmt) : stmt;
    },
    batch: async (statements: D1PreparedStatement[]) => {
      if (!statements.some((s) => INNER in s)) return inner.batch(statements);
      const results = await inner.batch([fence(), ...statements.map(unwrap)]);
      return results.slice(1);
    },
  };
  return db as unknown as D1Database;
}

/** A drizzle client for one company on its shard (primary), fenced: see `fencedD1`. */
export const companyDb = (env: Bindings, shard: string, companyId: string): Db => createDb(fencedD1(d1Of(env, shard), companyId), shard);

/** An unfenced drizzle client over a shard's primary: jobs and the mover, never a request's company data. */
export const shardDb = (env: Bindings, shard: string): Db => createDb(d1Of(env, shard), shard);
