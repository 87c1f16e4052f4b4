import { and, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { accounts, apiKeys, companies, companyHomes, companyMoves, type MoveStep, users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { allShards, controlDb, d1Of, isFenceRefusal, shardDb } from '../lib/d1';
import { inJson, isUniqueViolation, runBatch } from '../lib/db';
import type { Home } from '../lib/directory';
import { ApiError, apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { log } from '../lib/observe';
import { companyMoving, fenceFor, forgetCompany, homeStatement } from '../lib/shards';
import type { UserType } from '../users/users.schema';
import { SHARD_MESSAGES } from './shards.messages';
import { DERIVED_TABLES, MOVED_TABLES, type MovedTable } from './tables';

/**
 * Moving rows between shards (docs/decisions/0181-moving-companies.md): a company, or a team joining
 * a company on another shard (`moveUsers`). The ShardMover Durable Object advances the state in
 * `company_moves` a bounded piece at a time, so any size fits one invocation's D1 query limit and a
 * crash resumes at the last saved piece.
 *
 *   copying    the source fence is closed; each table is copied in pages
 *   verifying  each table's count and digest on the target must equal the source's
 *   flipping   the commit; from here the move only goes on
 *   cleaning   the source's rows are deleted in pages
 *
 * Before the commit a move can roll back. Every piece is idempotent (ON CONFLICT DO NOTHING,
 * deletes of what is left, conditional flips), so a piece run twice changes nothing.
 */

export type MoveRow = typeof companyMoves.$inferSelect;

const FINISHED: ReadonlySet<MoveStep> = new Set(['done', 'rolled_back']);
const ROLLBACK_FROM: ReadonlySet<MoveStep> = new Set(['copying', 'verifying']);
export const isFinished = (move: Pick<MoveRow, 'step'>) => FINISHED.has(move.step);

/** Rows per page: a page is one read and one insert (a JSON parameter of ~100-400 KB for history). */
export const PAGE_ROWS = 400;
/** D1 queries one `advanceMove` call may spend: well inside the 1,000 of one invocation. */
export const MOVE_BUDGET = 300;
/** Failures in a row before a move that has not committed gives up and rolls back. */
const MAX_FAILURES = 5;

/** Named points inside a piece of work, where a test makes the move die (`AdvanceOptions.crash`). */
export type CrashPoint = 'closed' | 'copied-page' | 'verified-table' | 'target-active' | 'committed' | 'deleted-page' | 'reopened';

export interface AdvanceOptions {
  budget?: number;
  page?: number;
  /** Tests: called at each named point; throwing there is a crash between a write and its save. */
  crash?: (point: CrashPoint) => void;
}

interface Stats {
  rows: number;
  h1: number;
  h2: number;
}
interface Group {
  keys: string[];
  /** One key with more rows than a page: read by its order, a page at a time. */
  paged: boolean;
}
interface Scan {
  table: number;
  groups: Group[] | null;
  group: number;
  cursor: unknown[] | null;
  stats: Stats;
}
interface Progress {
  columns?: Record<string, string[]>;
  scan?: Scan;
  copied?: Record<string, Stats>;
  verified?: Record<string, Stats>;
  /** cleaning / rolling back: the table (in `DELETE_ORDER`) being deleted, and the rows deleted so far. */
  clean?: { table: number; deleted: Record<string, number> };
  reopened?: boolean;
  failures?: number;
}

/** Deleting goes children first (they are selected through their parents); tables triggers rewrite go last. */
const DELETE_ORDER: readonly MovedTable[] = [...MOVED_TABLES.filter((t) => !t.overwrite).reverse(), ...MOVED_TABLES.filter((t) => t.overwrite)];

const zero = (): Stats => ({ rows: 0, h1: 0, h2: 0 });
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A 2 x 32-bit hash of one row (cyrb53's mixing); a table's digest is the sum of its rows', so order does not matter. */
function addRow(stats: Stats, row: string) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < row.length; i++) {
    const ch = row.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  stats.rows++;
  stats.h1 = (stats.h1 + (h1 >>> 0)) % 0x1_0000_0000;
  stats.h2 = (stats.h2 + (h2 >>> 0)) % 0x1_0000_0000;
}
const digest = (s: Stats) => `${s.h1.toString(16).padStart(8, '0')}${s.h2.toString(16).padStart(8, '0')}`;

class Work {
  used = 0;
  constructor(
    readonly budget: number,
    readonly page: number,
    readonly crash: (point: CrashPoint) => void,
  ) {}
  spend(n = 1) {
    this.used += n;
  }
  get left() {
    return this.budget - this.used;
  }
}

// the SQL of one table's selection: the moving users' rows (`in` a JSON list), or one user's

function setWhere(spec: MovedTable): string {
  if (!spec.via) return `t.${q(spec.column)} in (select value from json_each(?1))`;
  const v = spec.via;
  return `t.${q(spec.column)} in (select p.${q(v.key)} from ${q(v.table)} p where p.${q(v.column)} in (select value from json_each(?1)))`;
}
function oneWhere(spec: MovedTable): string {
  if (!spec.via) return `t.${q(spec.column)} = ?1`;
  const v = spec.via;
  return `t.${q(spec.column)} in (select p.${q(v.key)} from ${q(v.table)} p where p.${q(v.column)} = ?1)`;
}
const orderOf = (spec: MovedTable) => spec.order ?? ['rowid'];
const colExpr = (c: string) => (c === 'rowid' ? 't.rowid' : `t.${q(c)}`);

/** The source's and the target's columns of every moved table: the target must have each of the source's. */
async function tableColumns(env: Bindings, move: MoveRow, work: Work): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const src = d1Of(env, move.fromShard);
  const dst = d1Of(env, move.toShard);
  for (const { table } of MOVED_TABLES) {
    const stmt = `select name from pragma_table_info(?1)`;
    const [a, b] = await Promise.all([src.prepare(stmt).bind(table).raw<[string]>(), dst.prepare(stmt).bind(table).raw<[string]>()]);
    work.spend(2);
    const have = new Set(b.map((r) => r[0]));
    const missing = a.map((r) => r[0]).filter((c) => !have.has(c));
    if (!a.length || missing.length)
      throw new MoveRefused(
        `${move.toShard} lacks ${a.length ? missing.map((c) => `${table}.${c}`).join(', ') : table}: apply the migrations to every shard first (npm run db:migrate)`,
      );
    out[table] = a.map((r) => r[0]);
  }
  return out;
}

/** Groups of users to read in one query each (at most a page of rows), a user with more rows on its own, by pages. */
async function planGroups(db: D1Database, spec: MovedTable, keys: readonly string[], page: number, work: Work): Promise<Group[]> {
  const from = spec.via
    ? `${q(spec.table)} t join ${q(spec.via.table)} p on p.${q(spec.via.key)} = t.${q(spec.column)} where p.${q(spec.via.column)} in (select value from json_each(?1))`
    : `${q(spec.table)} t where ${setWhere(spec)}`;
  const key = spec.via ? `p.${q(spec.via.column)}` : `t.${q(spec.column)}`;
  const counts = await db.prepare(`select ${key} as k, count(*) as n from ${from} group by 1`).bind(JSON.stringify(keys)).raw<[string, number]>();
  work.spend();
  const groups: Group[] = [];
  let current: Group = { keys: [], paged: false };
  let size = 0;
  for (const [k, n] of counts) {
    if (n > page) {
      groups.push({ keys: [k], paged: true });
      continue;
    }
    if (size + n > page && current.keys.length) {
      groups.push(current);
      current = { keys: [], paged: false };
      size = 0;
    }
    current.keys.push(k);
    size += n;
  }
  if (current.keys.length) groups.push(current);
  return groups;
}

async function readGroup(db: D1Database, spec: MovedTable, columns: string[], group: Group, cursor: unknown[] | null, page: number, work: Work) {
  const select = `select t.rowid, ${columns.map((c) => `t.${q(c)}`).join(', ')} from ${q(spec.table)} t`;
  work.spend();
  if (!group.paged)
    return db
      .prepare(`${select} where ${setWhere(spec)}`)
      .bind(JSON.stringify(group.keys))
      .raw<unknown[]>();
  const order = orderOf(spec).map(colExpr);
  const after = cursor ? ` and (${order.join(', ')}) > (${order.map((_, i) => `?${i + 3}`).join(', ')})` : '';
  return db
    .prepare(`${select} where ${oneWhere(spec)}${after} order by ${order.join(', ')} limit ?2`)
    .bind(group.keys[0], page, ...(cursor ?? []))
    .raw<unknown[]>();
}
const cursorOf = (spec: MovedTable, columns: string[], row: unknown[]) => orderOf(spec).map((c) => (c === 'rowid' ? row[0] : row[1 + columns.indexOf(c)]));

function insertRows(db: D1Database, spec: MovedTable, columns: string[], rows: unknown[][]) {
  const values = columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ');
  const verb = spec.overwrite ? 'insert or replace' : 'insert';
  const tail = spec.overwrite ? '' : ' on conflict do nothing';
  return db
    .prepare(`${verb} into ${q(spec.table)} (${columns.map(q).join(', ')}) select ${values} from json_each(?1) where true${tail}`)
    .bind(JSON.stringify(rows.map((r) => r.slice(1))));
}

async function deletePage(db: D1Database, spec: MovedTable, keys: readonly string[], page: number, work: Work): Promise<number> {
  const res = await db
    .prepare(`delete from ${q(spec.table)} where rowid in (select t.rowid from ${q(spec.table)} t where ${setWhere(spec)} limit ?2)`)
    .bind(JSON.stringify(keys), page)
    .run();
  work.spend();
  return res.meta.changes ?? 0;
}

/** A move that must not go on: it rolls back (before its commit) with this reason. */
export class MoveRefused extends Error {
  constructor(
    message: string,
    /** Thrown by the commit itself, which did not happen: the move may still roll back. */
    readonly uncommitted = false,
  ) {
    super(message);
  }
}

const parse = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);
export const movedUserIds = (move: MoveRow) => parse<string[]>(move.userIds, []);
const progressOf = (move: MoveRow) => parse<Progress>(move.progress, {});

/**
 * Saves the move's step and progress, only while it is still at `move.step` (a rollback asked
 * meanwhile wins). A piece that worked clears the failures and the error it retried after (a
 * rollback's reason stays).
 */
async function save(
  control: Db,
  move: MoveRow,
  patch: Partial<Pick<MoveRow, 'step' | 'userIds' | 'error' | 'finishedAt'>> & { progress?: Progress },
  failure = false,
) {
  const now = new Date();
  const progress = patch.progress && !failure ? { ...patch.progress, failures: 0 } : patch.progress;
  const clearError = !failure && move.step !== 'rolling_back';
  const set = { ...(clearError ? { error: null } : {}), ...patch, progress: progress ? JSON.stringify(progress) : undefined, updatedAt: now };
  const [row] = await control
    .update(companyMoves)
    .set(set)
    .where(and(eq(companyMoves.id, move.id), eq(companyMoves.step, move.step)))
    .returning();
  // another runner (or the operator's rollback) changed the step: carry on from what it wrote
  return row ?? (await loadMove(control, move.id));
}

export async function loadMove(control: Db, moveId: string): Promise<MoveRow> {
  const [row] = await control.select().from(companyMoves).where(eq(companyMoves.id, moveId)).limit(1);
  if (!row) throw apiError(SHARD_MESSAGES.moveNotFound);
  return row;
}

/** Never throws for the move's own failures: they are recorded on it. */
export async function advanceMove(env: Bindings, moveId: string, opts: AdvanceOptions = {}): Promise<MoveRow> {
  const control = controlDb(env);
  const work = new Work(opts.budget ?? MOVE_BUDGET, opts.page ?? PAGE_ROWS, opts.crash ?? (() => {}));
  let move = await loadMove(control, moveId);
  while (!isFinished(move) && work.left > 0) {
    try {
      move = await piece(env, control, move, work);
    } catch (err) {
      move = await failed(control, move, err);
      break;
    }
  }
  return move;
}

async function failed(control: Db, move: MoveRow, err: unknown): Promise<MoveRow> {
  const current = await loadMove(control, move.id);
  const progress = progressOf(current);
  const failures = (progress.failures ?? 0) + 1;
  const message = err instanceof Error ? err.message : String(err);
  log(err instanceof MoveRefused ? 'warn' : 'error', { event: 'move.failed', move: move.id, step: current.step, failures, message });
  // before the commit a move that cannot go on gives up; after it, it only goes on (the error shows why it waits)
  const refused = err instanceof MoveRefused;
  const mayRollBack = ROLLBACK_FROM.has(current.step) || (refused && err.uncommitted && current.step === 'flipping');
  if (mayRollBack && (refused || failures >= MAX_FAILURES)) {
    return save(control, current, { step: 'rolling_back', error: message, progress: { ...progress, clean: undefined, reopened: false, failures: 0 } }, true);
  }
  return save(control, current, { error: message, progress: { ...progress, failures } }, true);
}

async function piece(env: Bindings, control: Db, move: MoveRow, work: Work): Promise<MoveRow> {
  switch (move.step) {
    case 'copying':
      return copyPiece(env, control, move, work);
    case 'verifying':
      return verifyPiece(env, control, move, work);
    case 'flipping':
      return flip(env, control, move, work);
    case 'cleaning':
      return cleanPiece(env, control, move, work, 'clean');
    case 'rolling_back':
      return cleanPiece(env, control, move, work, 'rollback');
    default:
      return move;
  }
}

/** The first piece: the source fence closed, the users listed, the target's home `incoming`. */
async function prepare(env: Bindings, control: Db, move: MoveRow, work: Work): Promise<MoveRow> {
  const src = shardDb(env, move.fromShard);
  const dst = shardDb(env, move.toShard);
  const columns = await tableColumns(env, move, work);
  // from here every write through the company's fenced handle on the source fails (503)
  await homeStatement(src, move.companyId, 'moving');
  work.spend();
  work.crash('closed');
  let userIds: string[];
  if (move.kind === 'company') {
    const rows = await src.select({ id: users.id }).from(users).where(eq(users.companyId, move.companyId));
    userIds = rows.map((r) => r.id);
    const [home] = await dst.select().from(companyHomes).where(eq(companyHomes.companyId, move.companyId));
    if (home?.state === 'active') throw new MoveRefused(`${move.companyId} is already active on ${move.toShard}`);
    await homeStatement(dst, move.companyId, 'incoming');
    work.spend(3);
  } else {
    userIds = movedUserIds(move);
    const rows = await src
      .select({ id: users.id })
      .from(users)
      .where(and(inJson(users.id, userIds), eq(users.companyId, move.companyId)));
    work.spend();
    if (rows.length !== userIds.length) throw new MoveRefused(`some of the users are not in company ${move.companyId} on ${move.fromShard}`);
  }
  return save(control, move, {
    userIds: JSON.stringify(userIds),
    progress: { columns, scan: { table: 0, groups: null, group: 0, cursor: null, stats: zero() }, copied: {}, failures: 0 },
  });
}

async function copyPiece(env: Bindings, control: Db, move: MoveRow, work: Work): Promise<MoveRow> {
  const progress = progressOf(move);
  if (!progress.scan || !progress.columns) return prepare(env, control, move, work);
  const scan = progress.scan;
  if (scan.table >= MOVED_TABLES.length) {
    return save(control, move, {
      step: 'verifying',
      progress: { ...progress, scan: { table: 0, groups: null, group: 0, cursor: null, stats: zero() }, verified: {} },
    });
  }
  const spec = MOVED_TABLES[scan.table]!;
  const src = d1Of(env, move.fromShard);
  const keys = movedUserIds(move);
  if (!scan.groups) {
    scan.groups = await planGroups(src, spec, keys, work.page, work);
    return save(control, move, { progress });
  }
  if (scan.group >= scan.groups.length) {
    progress.copied = { ...progress.copied, [spec.table]: scan.stats };
    progress.scan = { table: scan.table + 1, groups: null, group: 0, cursor: null, stats: zero() };
    return save(control, move, { progress: { ...progress, failures: 0 } });
  }
  const columns = progress.columns[spec.table]!;
  const group = scan.groups[scan.group]!;
  const rows = await readGroup(src, spec, columns, group, scan.cursor, work.page, work);
  if (rows.length) {
    await insertRows(d1Of(env, move.toShard), spec, columns, rows).run();
    work.spend();
    work.crash('copied-page');
  }
  for (const row of rows) addRow(scan.stats, JSON.stringify(row.slice(1)));
  if (group.paged && rows.length === work.page) scan.cursor = cursorOf(spec, columns, rows[rows.length - 1]!);
  else {
    scan.group++;
    scan.cursor = null;
  }
  return save(control, move, { progress });
}

/** Reads the target's copy of each table: its rows and digest must be the source's (and the source's count unchanged). */
async function verifyPiece(env: Bindings, control: Db, move: MoveRow, work: Work): Promise<MoveRow> {
  const progress = progressOf(move);
  const scan = progress.scan!;
  const keys = movedUserIds(move);
  const dst = d1Of(env, move.toShard);
  if (scan.table >= MOVED_TABLES.length) {
    await checkDerived(env, move, keys, work);
    return save(control, move, { step: 'flipping', progress: { ...progress, scan: undefined } });
  }
  const spec = MOVED_TABLES[scan.table]!;
  if (!scan.groups) {
    scan.groups = await planGroups(dst, spec, keys, work.page, work);
    return save(control, move, { progress });
  }
  if (scan.group >= scan.groups.length) {
    const copied = progress.copied?.[spec.table] ?? zero();
    const counted = await d1Of(env, move.fromShard)
      .prepare(`select count(*) as n from ${q(spec.table)} t where ${setWhere(spec)}`)
      .bind(JSON.stringify(keys))
      .first<{ n: number }>();
    work.spend();
    const source = counted?.n ?? 0;
    if (source !== copied.rows || scan.stats.rows !== copied.rows || digest(scan.stats) !== digest(copied)) {
      throw new MoveRefused(
        `verify ${spec.table}: ${source} rows on ${move.fromShard} (${copied.rows} copied, digest ${digest(copied)}), ${scan.stats.rows} on ${move.toShard} (digest ${digest(scan.stats)})` +
          (scan.stats.rows < copied.rows ? ': a unique key on the target may hold another row' : ''),
      );
    }
    work.crash('verified-table');
    progress.verified = { ...progress.verified, [spec.table]: scan.stats };
    progress.scan = { table: scan.table + 1, groups: null, group: 0, cursor: null, stats: zero() };
    return save(control, move, { progress });
  }
  const columns = progress.columns![spec.table]!;
  const group = scan.groups[scan.group]!;
  const rows = await readGroup(dst, spec, columns, group, scan.cursor, work.page, work);
  for (const row of rows) addRow(scan.stats, JSON.stringify(row.slice(1)));
  if (group.paged && rows.length === work.page) scan.cursor = cursorOf(spec, columns, rows[rows.length - 1]!);
  else {
    scan.group++;
    scan.cursor = null;
  }
  return save(control, move, { progress });
}

/** Tables the triggers keep (the filters' search index): on the target they agree with the rows that arrived. */
async function checkDerived(env: Bindings, move: MoveRow, keys: readonly string[], work: Work) {
  for (const [table, derived] of Object.entries(DERIVED_TABLES)) {
    if (!derived.check) continue;
    const found = await d1Of(env, move.toShard).prepare(derived.check).bind(JSON.stringify(keys)).first<{ rows: number; wrong: number | null }>();
    work.spend();
    if (found?.wrong) throw new MoveRefused(`verify ${table}: ${found.wrong} of ${found.rows} rows on ${move.toShard} disagree with their rows`);
  }
}

/** A users move's change, applied in its commit: the role or parent change that made the users move. */
export interface UsersFlip {
  userId: string;
  userType: UserType;
  parentId: string | null;
}

/**
 * The commit. A company: its home on the target opens, the control plane names the target (from
 * then on every request goes there), its home on the source says `moved`. Users: in one target
 * batch, through the new company's fence, the change and the new company; then the directory and
 * API keys follow.
 */
async function flip(env: Bindings, control: Db, move: MoveRow, work: Work): Promise<MoveRow> {
  const src = shardDb(env, move.fromShard);
  const dst = shardDb(env, move.toShard);
  const userIds = movedUserIds(move);
  const next = { step: 'cleaning' as const, progress: { ...progressOf(move), clean: { table: 0, deleted: {} }, failures: 0 } };
  if (move.kind === 'company') {
    // the commit comes first: a request routed to the target meanwhile finds its home `incoming` and only reads
    await control
      .update(companies)
      .set({ shard: move.toShard, state: 'active', moveTo: null })
      .where(
        and(
          eq(companies.id, move.companyId),
          sql`exists (select 1 from ${companyMoves} where ${companyMoves.id} = ${move.id} and ${companyMoves.step} = 'flipping')`,
        ),
      );
    work.spend();
    work.crash('committed');
    await homeStatement(dst, move.companyId, 'active');
    work.spend();
    work.crash('target-active');
    await homeStatement(src, move.companyId, 'moved');
    work.spend();
    forgetCompany(move.companyId);
    return save(control, move, next);
  }
  const change = parse<UsersFlip | null>(move.flip, null);
  // committed already (a crash after the batch): the batch's conditions would change nothing, but its fence might refuse
  const [joined] = await dst
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(inJson(users.id, userIds), eq(users.companyId, move.toCompanyId)));
  work.spend();
  if (Number(joined?.n ?? 0) < userIds.length) {
    const statements = [
      fenceFor(dst, move.toCompanyId),
      ...(change
        ? [
            dst
              .update(users)
              .set({ userType: change.userType, parentId: change.parentId, tokenVersion: sql`${users.tokenVersion} + 1` })
              .where(and(eq(users.id, change.userId), eq(users.companyId, move.companyId))),
          ]
        : []),
      dst
        .update(users)
        .set({ companyId: move.toCompanyId })
        .where(and(inJson(users.id, userIds), eq(users.companyId, move.companyId))),
    ];
    try {
      await runBatch(dst, statements);
    } catch (err) {
      // the company they join is moving itself: nothing was committed, so the move rolls back
      if (isFenceRefusal(err)) throw new MoveRefused(`company ${move.toCompanyId} is not active on ${move.toShard}`, true);
      throw err;
    }
    work.spend();
  }
  work.crash('committed');
  await control.batch([
    control.update(accounts).set({ companyId: move.toCompanyId }).where(inJson(accounts.userId, userIds)),
    control.update(apiKeys).set({ companyId: move.toCompanyId }).where(inJson(apiKeys.userId, userIds)),
  ]);
  work.spend();
  return save(control, move, next);
}

/**
 * Deletes the moving users' rows in pages: on the source after the commit (`clean`), on the target
 * when rolling back. A rollback reopens the source first, so the company writes again while its
 * copies are cleared; a users move reopens its source company once its rows are gone.
 */
async function cleanPiece(env: Bindings, control: Db, move: MoveRow, work: Work, mode: 'clean' | 'rollback'): Promise<MoveRow> {
  const progress = progressOf(move);
  const shard = mode === 'clean' ? move.fromShard : move.toShard;
  const db = d1Of(env, shard);
  const keys = movedUserIds(move);
  if (mode === 'rollback' && !progress.reopened) {
    await reopenSource(env, control, move, work);
    if (move.kind === 'company') {
      await shardDb(env, move.toShard)
        .delete(companyHomes)
        .where(and(eq(companyHomes.companyId, move.companyId), notInArray(companyHomes.state, ['active'])));
      work.spend();
    }
    work.crash('reopened');
    return save(control, move, { progress: { ...progress, reopened: true, clean: { table: 0, deleted: {} } } });
  }
  const clean = progress.clean ?? { table: 0, deleted: {} };
  if (clean.table < DELETE_ORDER.length) {
    const spec = DELETE_ORDER[clean.table]!;
    const gone = keys.length ? await deletePage(db, spec, keys, work.page, work) : 0;
    work.crash('deleted-page');
    clean.deleted[spec.table] = (clean.deleted[spec.table] ?? 0) + gone;
    if (gone < work.page) clean.table++;
    return save(control, move, { progress: { ...progress, clean } });
  }
  // the hours the deleted rows leave at zero
  if (keys.length) {
    await db
      .prepare(`delete from call_history_hours where team_id in (select value from json_each(?1)) and calls = 0 and emails = 0`)
      .bind(JSON.stringify(keys))
      .run();
    work.spend();
  }
  if (mode === 'clean' && move.kind === 'users') await reopenSource(env, control, move, work);
  log('info', { event: mode === 'clean' ? 'move.done' : 'move.rolled_back', move: move.id, company: move.companyId, from: move.fromShard, to: move.toShard });
  return save(control, move, { step: mode === 'clean' ? 'done' : 'rolled_back', finishedAt: new Date(), progress: { ...progress, clean } });
}

async function reopenSource(env: Bindings, control: Db, move: MoveRow, work: Work) {
  await homeStatement(shardDb(env, move.fromShard), move.companyId, 'active');
  await control
    .update(companies)
    .set({ state: 'active', moveTo: null })
    .where(and(eq(companies.id, move.companyId), eq(companies.shard, move.fromShard)));
  work.spend(2);
  forgetCompany(move.companyId);
}

/** Opens a move: the lock (one open move per company) and the company marked moving; the mover does the rest. */
async function openMove(control: Db, row: Omit<MoveRow, 'id' | 'createdAt' | 'updatedAt' | 'finishedAt' | 'error' | 'progress' | 'step'>): Promise<MoveRow> {
  const now = new Date();
  const move: MoveRow = { ...row, id: randomId(), step: 'copying', progress: '{}', error: null, createdAt: now, updatedAt: now, finishedAt: null };
  try {
    await control.batch([
      control.insert(companyMoves).values(move),
      control.update(companies).set({ state: 'moving', moveTo: row.toShard }).where(eq(companies.id, row.companyId)),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, 'company_moves.company_id')) throw companyMoving();
    throw err;
  }
  return move;
}

export async function openMoveOf(control: Db, companyId: string): Promise<MoveRow | undefined> {
  const [row] = await control
    .select()
    .from(companyMoves)
    .where(and(eq(companyMoves.companyId, companyId), notInArray(companyMoves.step, ['done', 'rolled_back'])))
    .limit(1);
  return row;
}

/**
 * Starts moving a company to `toShard`, or answers its open move to that shard (a rerun resumes
 * it). 400 for an unknown shard or the shard it is on; 409 while it moves elsewhere.
 */
export async function startCompanyMove(env: Bindings, control: Db, companyId: string, toShard: string): Promise<MoveRow> {
  if (!allShards(env).includes(toShard)) throw apiError(SHARD_MESSAGES.noShard, { shard: toShard, shards: allShards(env).join(', ') });
  const [company] = await control.select().from(companies).where(eq(companies.id, companyId)).limit(1);
  if (!company) throw apiError(SHARD_MESSAGES.companyNotFound);
  const open = await openMoveOf(control, companyId);
  if (open) {
    if (open.kind === 'company' && open.toShard === toShard) return open;
    throw apiError(SHARD_MESSAGES.alreadyMoving, { companyId, moveId: open.id, toShard: open.toShard, step: open.step });
  }
  if (company.shard === toShard) throw apiError(SHARD_MESSAGES.alreadyOnShard, { companyId, shard: toShard });
  try {
    return await openMove(control, { kind: 'company', companyId, toCompanyId: companyId, fromShard: company.shard, toShard, userIds: '[]', flip: null });
  } catch (err) {
    // another start won the lock between the look and the insert: answer its move when it is the same
    const other = err instanceof ApiError && (await openMoveOf(control, companyId));
    if (other && other.kind === 'company' && other.toShard === toShard) return other;
    throw err;
  }
}

/** Asks a move to roll back: before its commit only; answers the move. 409 once it has committed. */
export async function rollbackMove(control: Db, moveId: string): Promise<MoveRow> {
  const move = await loadMove(control, moveId);
  if (move.step === 'rolling_back' || move.step === 'rolled_back') return move;
  if (!ROLLBACK_FROM.has(move.step))
    throw move.step === 'done'
      ? apiError(SHARD_MESSAGES.moveDone, { moveId: move.id, fromShard: move.fromShard })
      : apiError(SHARD_MESSAGES.moveCommitted, { moveId: move.id, step: move.step, fromShard: move.fromShard });
  const [row] = await control
    .update(companyMoves)
    .set({
      step: 'rolling_back',
      error: 'rolled back by the operator',
      progress: JSON.stringify({ ...progressOf(move), reopened: false, clean: undefined, failures: 0 }),
      updatedAt: new Date(),
    })
    .where(and(eq(companyMoves.id, move.id), inArray(companyMoves.step, [...ROLLBACK_FROM])))
    .returning();
  // the runner moved it on meanwhile (to flipping): ask again to see why not
  return row ?? rollbackMove(control, moveId);
}

/** Moves whose runner stopped (an invocation that died, alarms out of retries): the sweeper starts them again. */
export async function stalledMoves(control: Db, olderThanMs: number, now = Date.now()) {
  return control
    .select({ id: companyMoves.id })
    .from(companyMoves)
    .where(and(notInArray(companyMoves.step, ['done', 'rolled_back']), lt(companyMoves.updatedAt, new Date(now - olderThanMs))));
}

export async function kickMove(env: Bindings, moveId: string) {
  await env.SHARD_MOVER.get(env.SHARD_MOVER.idFromName(moveId)).run(moveId);
}

/** Moves left without a runner for this long are started again (by the 5-minute job). */
export const STALLED_MS = 2 * 60_000;

/** The 5-minute job's part: wakes the runner of every move nobody advanced for `STALLED_MS`. */
export async function sweepMoves(env: Bindings, now = Date.now()): Promise<{ woken: number }> {
  const stalled = await stalledMoves(controlDb(env), STALLED_MS, now);
  for (const { id } of stalled) await kickMove(env, id);
  return { woken: stalled.length };
}

export async function waitForMove(control: Db, moveId: string, timeoutMs: number): Promise<MoveRow> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
    const move = await loadMove(control, moveId);
    if (isFinished(move) || Date.now() >= deadline) return move;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** How long a role or parent change waits for its users' move before it answers 503 (the move finishes anyway). */
const USERS_MOVE_WAIT_MS = 60_000;

/**
 * Moves users and their rows into company `to` on another shard, applying `change` in the same
 * commit; their company answers 503 to writes meanwhile. A move still running at the deadline
 * finishes on its own (the caller's retry then finds the change made).
 */
export async function moveUsers(env: Bindings, control: Db, move: { userIds: readonly string[]; from: Home; to: Home; change?: UsersFlip }): Promise<void> {
  if (move.from.shard === move.to.shard) throw new Error('moveUsers: the same shard');
  const row = await openMove(control, {
    kind: 'users',
    companyId: move.from.companyId,
    toCompanyId: move.to.companyId,
    fromShard: move.from.shard,
    toShard: move.to.shard,
    userIds: JSON.stringify(move.userIds),
    flip: move.change ? JSON.stringify(move.change) : null,
  });
  await kickMove(env, row.id);
  const ended = await waitForMove(control, row.id, USERS_MOVE_WAIT_MS);
  if (ended.step === 'done') return;
  if (ended.step === 'rolled_back') log('warn', { event: 'move.users_rolled_back', move: row.id, error: ended.error });
  throw companyMoving();
}

export function moveView(move: MoveRow) {
  const progress = progressOf(move);
  const table = progress.scan ? MOVED_TABLES[progress.scan.table]?.table : undefined;
  return {
    id: move.id,
    kind: move.kind,
    companyId: move.companyId,
    toCompanyId: move.toCompanyId,
    from: move.fromShard,
    to: move.toShard,
    step: move.step,
    users: movedUserIds(move).length,
    table: move.step === 'copying' || move.step === 'verifying' ? (table ?? null) : progress.clean ? (DELETE_ORDER[progress.clean.table]?.table ?? null) : null,
    copied: Object.fromEntries(Object.entries(progress.copied ?? {}).map(([t, s]) => [t, s.rows])),
    verified: Object.fromEntries(Object.entries(progress.verified ?? {}).map(([t, s]) => [t, { rows: s.rows, digest: digest(s) }])),
    deleted: progress.clean?.deleted ?? {},
    error: move.error,
    createdAt: move.createdAt.toISOString(),
    updatedAt: move.updatedAt.toISOString(),
    finishedAt: move.finishedAt ? move.finishedAt.toISOString() : null,
  };
}
