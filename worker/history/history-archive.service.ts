import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { callHistoryArchive, callHistoryArchiveUsers, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { GENERAL_MESSAGES } from '../lib/common-messages';
import { apiError } from '../lib/errors';
import { messageOf } from '../lib/messages';
import { log } from '../lib/observe';
import { monthsBetween } from './archive-job';
import { type ArchivedRow, archiveKey, lineSplitter, ndjsonText, readArchive } from './archive-store';
import { csvCell, HISTORY_CSV_COLUMNS } from './history.csv';
import { type ArchivedMonthDto, type ArchiveMonthInput, HISTORY_MESSAGES, type HistoryRowDto } from './history.schema';
import { type Scope, scopeFor } from './history.service';

/** docs/decisions/0171-history-retention-r2.md; who reaches which team is `scopeFor`'s rule (decision 0098). */

const a = callHistoryArchive;
const au = callHistoryArchiveUsers;

type LedgerRow = { month: string; contacts: number; state: 'archived' | 'restored'; restoredUntil: Date | null };
const toDto = (r: LedgerRow): ArchivedMonthDto => ({
  month: r.month,
  contacts: Number(r.contacts),
  state: r.state,
  restoredUntil: r.restoredUntil ? r.restoredUntil.toISOString() : null,
});

/** The months of [from, to) in the archive or restored from it: a team's whole months, or an agent's own contacts in them. */
export async function archivedMonthsIn(db: Db, scope: Scope, from: Date, to: Date): Promise<ArchivedMonthDto[]> {
  const months = monthsBetween(from.getTime(), to.getTime());
  const rows =
    'teamId' in scope
      ? await db
          .select({ month: a.month, contacts: a.rows, state: a.state, restoredUntil: a.restoredUntil })
          .from(a)
          .where(and(eq(a.teamId, scope.teamId), inArray(a.month, months)))
          .orderBy(a.month)
      : await db
          .select({
            month: au.month,
            contacts: sql<number>`sum(${au.rows})`,
            state: sql<'archived' | 'restored'>`min(${a.state})`,
            restoredUntil: sql<Date | null>`max(${a.restoredUntil})`.mapWith(a.restoredUntil),
          })
          .from(au)
          .innerJoin(a, and(eq(a.teamId, au.teamId), eq(a.month, au.month)))
          .where(and(eq(au.userId, scope.userId), inArray(au.month, months)))
          .groupBy(au.month)
          .orderBy(au.month);
  return rows.map(toDto);
}

/** The team a lead asks for: Contact History's scope, which for these calls is always a team (agents are refused by the route's rule). */
async function leadTeam(db: Db, caller: Caller, managerId: string | null | undefined): Promise<string> {
  const scope = await scopeFor(db, caller, managerId);
  if (!('teamId' in scope)) throw apiError(HISTORY_MESSAGES.archiveNotFound);
  return scope.teamId;
}

async function ledgerRow(db: Db, teamId: string, month: string): Promise<LedgerRow> {
  const [row] = await db
    .select({ month: a.month, contacts: a.rows, state: a.state, restoredUntil: a.restoredUntil })
    .from(a)
    .where(and(eq(a.teamId, teamId), eq(a.month, month)))
    .limit(1);
  if (!row) throw apiError(HISTORY_MESSAGES.archiveNotFound);
  return row;
}

export async function listArchive(db: Db, caller: Caller, managerId: string | undefined): Promise<{ months: ArchivedMonthDto[] }> {
  const teamId = await leadTeam(db, caller, managerId);
  const rows = await db
    .select({ month: a.month, contacts: a.rows, state: a.state, restoredUntil: a.restoredUntil })
    .from(a)
    .where(eq(a.teamId, teamId))
    .orderBy(desc(a.month));
  return { months: rows.map(toDto) };
}

const asDto = (r: ArchivedRow, names: Map<string, string>): HistoryRowDto => ({
  _id: r.id,
  parent: { name: names.get(r.user_id) ?? '' },
  mcName: String(r.mc_name ?? ''),
  brokerName: String(r.broker_name ?? ''),
  address: String(r.address ?? ''),
  origin: String(r.origin ?? ''),
  dest: String(r.dest ?? ''),
  loadDate: String(r.load_date ?? ''),
  callDate: new Date(r.call_date).toISOString(),
  kind: r.kind as HistoryRowDto['kind'],
  contact: String(r.contact ?? ''),
  line: r.line === null || r.line === undefined ? null : Number(r.line),
  fromNumber: String(r.from_number ?? ''),
  // rows archived before there was a second board have no column: they are DAT's
  board: r.board === 'truckstop' ? 'truckstop' : 'dat',
});

/** Streamed from R2 as it is read: a month of any size, none of it in D1. */
export async function exportArchivedMonth(db: Db, bucket: R2Bucket, caller: Caller, input: ArchiveMonthInput): Promise<ReadableStream<Uint8Array>> {
  const teamId = await leadTeam(db, caller, input.managerId);
  await ledgerRow(db, teamId, input.month);
  const people = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(
      inArray(
        users.id,
        db
          .select({ id: au.userId })
          .from(au)
          .where(and(eq(au.teamId, teamId), eq(au.month, input.month))),
      ),
    );
  const names = new Map(people.map((p) => [p.id, p.name]));
  const object = await bucket.get(archiveKey(teamId, input.month));
  if (!object) {
    log('error', { event: 'history_archive.object_missing', teamId, month: input.month });
    throw apiError(GENERAL_MESSAGES.somethingWrong);
  }
  const header = `\uFEFF${HISTORY_CSV_COLUMNS.map(([title]) => title).join(',')}\r\n`;
  let started = false;
  return ndjsonText(object.body)
    .pipeThrough(lineSplitter())
    .pipeThrough(
      new TransformStream<string, string>({
        transform(line, controller) {
          if (!started) {
            started = true;
            controller.enqueue(header);
          }
          const row = asDto(JSON.parse(line) as ArchivedRow, names);
          controller.enqueue(`${HISTORY_CSV_COLUMNS.map(([, get]) => csvCell(get(row))).join(',')}\r\n`);
        },
        flush(controller) {
          if (!started) controller.enqueue(header);
        },
      }),
    )
    .pipeThrough(new TextEncoderStream());
}

/** Rows a restore inserts a statement at a time (the rows as one JSON parameter). */
const RESTORE_CHUNK = 500;

/** `insert or ignore`, so a row still there or restored twice is kept once; the hourly counts follow by trigger. */
export async function restoreArchivedMonth(
  db: Db,
  bucket: R2Bucket,
  caller: Caller,
  input: ArchiveMonthInput,
  opts: { now: number; restoreDays: number },
): Promise<{ message: string; month: ArchivedMonthDto }> {
  const teamId = await leadTeam(db, caller, input.managerId);
  await ledgerRow(db, teamId, input.month);
  const object = await readArchive(bucket, archiveKey(teamId, input.month));
  if (!object) {
    log('error', { event: 'history_archive.object_missing', teamId, month: input.month });
    throw apiError(GENERAL_MESSAGES.somethingWrong);
  }
  const until = new Date(opts.now + opts.restoreDays * 86_400_000);
  // first the state, which stops a running job's deletes of this month, then the rows
  await db
    .update(a)
    .set({ state: 'restored', restoredUntil: until })
    .where(and(eq(a.teamId, teamId), eq(a.month, input.month)));
  const d1 = db.$client;
  const { results: columns } = await d1.prepare('pragma table_info(call_history)').all<{ name: string }>();
  const present = new Set(Object.keys(object.rows[0] ?? {}));
  const names = columns.map((c) => c.name).filter((name) => present.has(name));
  const list = names.map((n) => `"${n}"`).join(', ');
  const values = names.map((n) => `value ->> '$.${n}'`).join(', ');
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < object.rows.length; i += RESTORE_CHUNK) {
    statements.push(
      d1
        .prepare(`insert or ignore into call_history (${list}) select ${values} from json_each(?1)`)
        .bind(JSON.stringify(object.rows.slice(i, i + RESTORE_CHUNK))),
    );
  }
  for (let i = 0; i < statements.length; i += 20) await d1.batch(statements.slice(i, i + 20));
  return { ...messageOf(HISTORY_MESSAGES.archiveRestored), month: toDto(await ledgerRow(db, teamId, input.month)) };
}
