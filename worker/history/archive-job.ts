import { fencedD1, isFenceRefusal } from '../lib/d1';
import { log } from '../lib/observe';
import { ArchiveCorrupt, type ArchivedRow, type ArchiveObject, archiveKey, readArchive, teamPrefix, writeArchive } from './archive-store';

/**
 * Nightly move of old Contact History months to R2 (docs/decisions/0171-history-retention-r2.md), per
 * database. Crash-safe and idempotent by its order: rows leave D1 only after the object read back
 * holds them all, and an object is only rewritten as itself plus rows (conditional on its etag).
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows read from D1 at a time, and deleted a statement at a time (ids as one JSON parameter). */
const READ_PAGE = 5000;
const DELETE_BATCH = 1000;
/** Conditional writes lost to another run before the month is given up for this run. */
const WRITE_TRIES = 5;

export interface ArchiveSettings {
  hotDays: number;
  restoreDays: number;
}

/** HISTORY_HOT_DAYS and HISTORY_RESTORE_DAYS (wrangler.toml); a bad value stops the job rather than archive the wrong months. */
export function archiveSettings(env: { HISTORY_HOT_DAYS?: string; HISTORY_RESTORE_DAYS?: string }): ArchiveSettings {
  const read = (name: string, value: string | undefined, fallback: number, min: number) => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of days, at least ${min}: ${value}`);
    return n;
  };
  // at least the screen's 40 days and a day, so a range the screen loads is never archived under it
  return { hotDays: read('HISTORY_HOT_DAYS', env.HISTORY_HOT_DAYS, 400, 41), restoreDays: read('HISTORY_RESTORE_DAYS', env.HISTORY_RESTORE_DAYS, 30, 1) };
}

export const monthOf = (t: number) => new Date(t).toISOString().slice(0, 7);

export function monthRange(month: string): [number, number] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1)];
}

export function monthsBetween(from: number, to: number): string[] {
  const months: string[] = [];
  for (let month = monthOf(from); ; ) {
    const [start, end] = monthRange(month);
    if (start >= to) break;
    months.push(month);
    month = monthOf(end);
  }
  return months;
}

/** Rows before this moment are past the hot window: the start of the month the window's edge falls in. */
export function archiveBoundary(now: number, hotDays: number): number {
  return monthRange(monthOf(now - hotDays * DAY_MS))[0];
}

/** The steps of one month, in order; a test stops a run after any of them, as a crash would. */
export type ArchiveStep = 'written' | 'verified' | 'ledger' | 'deleted';
export type StepHook = (step: ArchiveStep, info: { teamId: string; month: string; batch?: number }) => void | Promise<void>;

/** What a step hook threw: it stops the whole run, as a crash would, instead of failing one month. */
class RunStopped extends Error {}
const stopping = (hook: StepHook | undefined): StepHook | undefined =>
  hook &&
  (async (step, info) => {
    try {
      await hook(step, info);
    } catch (err) {
      throw new RunStopped('stopped', { cause: err });
    }
  });

export interface MonthResult {
  archived: number;
  deleted: number;
  /** whether this run wrote the object (false: it already held every row) */
  wrote: boolean;
  skipped: boolean;
}

interface LedgerRow {
  state: 'archived' | 'restored';
  restored_until: number | null;
}

const ledgerOf = (d1: D1Database, teamId: string, month: string) =>
  d1.prepare('select state, restored_until from call_history_archive where team_id = ?1 and month = ?2').bind(teamId, month).first<LedgerRow>();

const restoredNow = (ledger: LedgerRow | null, now: number) => ledger?.state === 'restored' && (ledger.restored_until ?? 0) > now;

async function monthRows(d1: D1Database, teamId: string, from: number, to: number): Promise<ArchivedRow[]> {
  const rows: ArchivedRow[] = [];
  let last: ArchivedRow | undefined;
  for (;;) {
    const page = last
      ? d1
          .prepare(
            'select * from call_history where team_id = ?1 and call_date >= ?2 and call_date < ?3 and (call_date > ?4 or (call_date = ?4 and id > ?5)) order by call_date, id limit ?6',
          )
          .bind(teamId, last.call_date, to, last.call_date, last.id, READ_PAGE)
      : d1
          .prepare('select * from call_history where team_id = ?1 and call_date >= ?2 and call_date < ?3 order by call_date, id limit ?4')
          .bind(teamId, from, to, READ_PAGE);
    const { results } = await page.all<ArchivedRow>();
    rows.push(...results);
    last = results.at(-1);
    if (results.length < READ_PAGE) return rows;
  }
}

const sameRow = (a: ArchivedRow, b: ArchivedRow) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? null) !== (b[k] ?? null)) return false;
  return true;
};

/** D1's copy wins for the same id; another run's write in between makes it read and merge again. */
async function writeMerged(bucket: R2Bucket, key: string, rows: ArchivedRow[]): Promise<boolean> {
  for (let attempt = 0; attempt < WRITE_TRIES; attempt++) {
    const previous: ArchiveObject | null = await readArchive(bucket, key);
    const merged = new Map((previous?.rows ?? []).map((r) => [r.id, r]));
    let changed = !previous;
    for (const row of rows) {
      const held = merged.get(row.id);
      if (!held || !sameRow(held, row)) {
        merged.set(row.id, row);
        changed = true;
      }
    }
    if (!changed) return false;
    if (await writeArchive(bucket, key, [...merged.values()], previous)) return true;
  }
  throw new Error(`${key}: another run kept writing it; left for the next run`);
}

/** Each delete checks the ledger, so a restore landing mid-way stops the deletes. Safe to rerun after a crash and alongside other runs. */
export async function archiveTeamMonth(
  d1: D1Database,
  bucket: R2Bucket,
  teamId: string,
  month: string,
  opts: { now: number; onStep?: StepHook; deleteBatch?: number },
): Promise<MonthResult> {
  const { now } = opts;
  const onStep = stopping(opts.onStep);
  const key = archiveKey(teamId, month);
  const [from, to] = monthRange(month);
  const ledger = await ledgerOf(d1, teamId, month);
  if (restoredNow(ledger, now)) return { archived: 0, deleted: 0, wrote: false, skipped: true };
  const rows = await monthRows(d1, teamId, from, to);
  if (!rows.length) {
    // a restored month whose rows are all gone again: what is archived is the object
    if (ledger?.state === 'restored') await recordMonth(d1, teamId, month, now, await readArchive(bucket, key));
    return { archived: 0, deleted: 0, wrote: false, skipped: false };
  }
  const wrote = await writeMerged(bucket, key, rows);
  await onStep?.('written', { teamId, month });

  const back = await readArchive(bucket, key);
  const held = new Map((back?.rows ?? []).map((r) => [r.id, r]));
  const missing = rows.filter((r) => !held.has(r.id) || !sameRow(held.get(r.id)!, r));
  if (!back || missing.length) throw new ArchiveCorrupt(`${key}: ${missing.length || rows.length} of the month's rows are not in the object read back`);
  await onStep?.('verified', { teamId, month });

  await recordMonth(d1, teamId, month, now, back);
  await onStep?.('ledger', { teamId, month });

  let deleted = 0;
  const ids = rows.map((r) => r.id);
  const size = opts.deleteBatch ?? DELETE_BATCH;
  for (let i = 0, batch = 0; i < ids.length; i += size, batch++) {
    const result = await d1
      .prepare(
        `delete from call_history where team_id = ?1 and call_date >= ?2 and call_date < ?3 and id in (select value from json_each(?4))
        and not exists (select 1 from call_history_archive a where a.team_id = ?1 and a.month = ?5 and a.state = 'restored' and a.restored_until > ?6)`,
      )
      .bind(teamId, from, to, JSON.stringify(ids.slice(i, i + size)), month, now)
      .run();
    deleted += result.meta.changes;
    await onStep?.('deleted', { teamId, month, batch });
  }
  // the month's hours are all zero now (the triggers took each row off): drop them, the counts stay right
  await d1
    .prepare('delete from call_history_hours where team_id = ?1 and hour >= ?2 and hour < ?3 and calls = 0 and emails = 0')
    .bind(teamId, from / HOUR_MS, to / HOUR_MS)
    .run();
  return { archived: back.rows.length, deleted, wrote, skipped: false };
}

/** A month restored meanwhile keeps its state (the deletes then stop on it). */
async function recordMonth(d1: D1Database, teamId: string, month: string, now: number, object: ArchiveObject | null): Promise<void> {
  if (!object) return;
  const perUser = new Map<string, number>();
  let calls = 0;
  for (const r of object.rows) {
    perUser.set(r.user_id, (perUser.get(r.user_id) ?? 0) + 1);
    if (r.kind === 'call') calls++;
  }
  const rows = object.rows.length;
  await d1.batch([
    d1
      .prepare(
        `insert into call_history_archive (team_id, month, rows, calls, emails, state, archived_at, restored_until)
        values (?1, ?2, ?3, ?4, ?5, 'archived', ?6, null)
        on conflict (team_id, month) do update set rows = excluded.rows, calls = excluded.calls, emails = excluded.emails,
          archived_at = case when state = 'archived' then archived_at else excluded.archived_at end, state = 'archived', restored_until = null
        where not (state = 'restored' and restored_until > ?6)`,
      )
      .bind(teamId, month, rows, calls, rows - calls, now),
    d1.prepare('delete from call_history_archive_users where team_id = ?1 and month = ?2').bind(teamId, month),
    d1
      .prepare(
        `insert into call_history_archive_users (user_id, month, team_id, rows)
        select value ->> 0, ?2, ?1, value ->> 1 from json_each(?3)`,
      )
      .bind(teamId, month, JSON.stringify([...perUser])),
  ]);
}

export interface RunResult {
  teams: number;
  months: number;
  rows: number;
  written: number;
  skipped: number;
  failed: number;
  /** 1 when the run stopped at its budget with months left for the next run */
  more: number;
}

/** Stops at `maxMonths` or `deadline` (the next night goes on); a failed month is logged and left for the next run. */
export async function runHistoryArchive(
  d1: D1Database,
  bucket: R2Bucket,
  opts: { now: number; hotDays: number; maxMonths?: number; deadline?: number; onStep?: StepHook; deleteBatch?: number; database?: string },
): Promise<RunResult> {
  const boundary = archiveBoundary(opts.now, opts.hotDays);
  const maxMonths = opts.maxMonths ?? 100;
  const result: RunResult = { teams: 0, months: 0, rows: 0, written: 0, skipped: 0, failed: 0, more: 0 };
  // each team with its oldest row before the edge: one index seek per team (SQLite has no skip scan)
  const { results: teams } = await d1
    .prepare(
      `with recursive t(id) as (
        select (select team_id from call_history order by team_id limit 1)
        union all select (select team_id from call_history where team_id > t.id order by team_id limit 1) from t where t.id is not null
      )
      select id from t where id is not null and exists (select 1 from call_history where team_id = t.id and call_date < ?1)`,
    )
    .bind(boundary)
    .all<{ id: string }>();
  for (const { id: teamId } of teams) {
    result.teams++;
    // the team's company's fence (docs/decisions/0174-company-shards.md): a moving company's months wait
    const company = await d1.prepare('select company_id from users where id = ?1').bind(teamId).first<{ company_id: string }>();
    const teamD1 = company?.company_id ? fencedD1(d1, company.company_id) : d1;
    let after = 0;
    for (;;) {
      if (result.months >= maxMonths || (opts.deadline && Date.now() > opts.deadline)) {
        result.more = 1;
        return result;
      }
      const oldest = await d1
        .prepare('select min(call_date) as t from call_history where team_id = ?1 and call_date >= ?2 and call_date < ?3')
        .bind(teamId, after, boundary)
        .first<{ t: number | null }>();
      if (oldest?.t == null) break;
      const month = monthOf(oldest.t);
      after = monthRange(month)[1];
      try {
        const moved = await archiveTeamMonth(teamD1, bucket, teamId, month, opts);
        if (moved.skipped) {
          result.skipped++;
          continue;
        }
        result.months++;
        result.rows += moved.deleted;
        if (moved.wrote) result.written++;
      } catch (err) {
        if (err instanceof RunStopped) throw err.cause;
        if (isFenceRefusal(err)) {
          result.skipped++;
          break;
        }
        result.failed++;
        log('error', {
          event: 'history_archive.month_failed',
          database: opts.database,
          teamId,
          month,
          error: { message: err instanceof Error ? err.message : String(err) },
        });
      }
    }
  }
  return result;
}

/** Rows of a team's Contact History an erase deletes a statement at a time. */
const ERASE_BATCH = 2000;

/** docs/decisions/0185-erasing-a-deleted-team.md. Idempotent: each part deletes what is left, so a cut-off run is finished by the next. */
export async function eraseTeamHistory(d1: D1Database, bucket: R2Bucket, teamId: string): Promise<{ rows: number; objects: number }> {
  let rows = 0;
  for (;;) {
    // by pages, so a busy team's years of contacts never make one statement too long for D1
    const { meta } = await d1
      .prepare('delete from call_history where id in (select id from call_history where team_id = ?1 limit ?2)')
      .bind(teamId, ERASE_BATCH)
      .run();
    rows += meta.changes;
    if (meta.changes < ERASE_BATCH) break;
  }
  await d1.prepare('delete from call_history_hours where team_id = ?1').bind(teamId).run();
  return { rows, objects: await deleteTeamArchive(d1, bucket, teamId) };
}

export async function deleteTeamArchive(d1: D1Database, bucket: R2Bucket, teamId: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix: teamPrefix(teamId), cursor, limit: 1000 });
    if (listed.objects.length) await bucket.delete(listed.objects.map((o) => o.key));
    deleted += listed.objects.length;
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  await d1.batch([
    d1.prepare('delete from call_history_archive where team_id = ?1').bind(teamId),
    d1.prepare('delete from call_history_archive_users where team_id = ?1').bind(teamId),
  ]);
  return deleted;
}
