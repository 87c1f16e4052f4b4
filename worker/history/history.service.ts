import { type AnyColumn, and, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { callHistory, mcLines, mcSettings, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { GENERAL_MESSAGES } from '../lib/common-messages';
import { inJson } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { jsonArray, selectJsonRows } from '../lib/json-text';
import type { Message } from '../lib/messages';
import { teamIdOf } from '../lib/team';
import { callerNumberOfLine } from '../team/team.service';
import { HISTORY_MESSAGES } from './history.messages';
import { type HistoryQuery, type HistoryRowDto, type LogContactInput, MAX_HISTORY_ROWS } from './history.schema';

const h = callHistory;

/** Whose rows a history load reads: one user's (an agent), or one team's (a manager's). */
export type Scope = { userId: string } | { teamId: string };

/** From the caller alone: a director one of its own managers' teams; the admin any manager's. */
export async function scopeFor(db: Db, caller: Caller, managerId: string | null | undefined): Promise<Scope> {
  if (caller.userType === 'agent') return { userId: caller.id };
  if (caller.userType === 'manager') {
    if (managerId && managerId !== caller.id) throw apiError(HISTORY_MESSAGES.managerNotFound);
    return { teamId: caller.id };
  }
  if (!managerId) throw apiError(HISTORY_MESSAGES.selectManager);
  const [manager] = await db
    .select({ id: users.id, parentId: users.parentId })
    .from(users)
    .where(and(eq(users.id, managerId), eq(users.userType, 'manager'), isNull(users.deletedAt)))
    .limit(1);
  if (!manager || (caller.userType === 'director' && manager.parentId !== caller.id)) throw apiError(HISTORY_MESSAGES.managerNotFound);
  return { teamId: manager.id };
}

/** Deleted members included: their rows stay. Any other id answers 404. */
export async function checkUsers(db: Db, scope: Scope, usersList: string[]): Promise<void> {
  const wanted = [...new Set(usersList)];
  if (!wanted.length) return;
  if ('userId' in scope) {
    if (wanted.some((id) => id !== scope.userId)) throw apiError(HISTORY_MESSAGES.userNotFound);
    return;
  }
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inJson(users.id, wanted), or(eq(users.id, scope.teamId), eq(users.parentId, scope.teamId))));
  if (found.length !== wanted.length) throw apiError(HISTORY_MESSAGES.userNotFound);
}

const rowSelection = {
  id: h.id,
  userName: users.name,
  mcName: h.mcName,
  brokerName: h.brokerName,
  address: h.address,
  origin: h.origin,
  dest: h.dest,
  loadDate: h.loadDate,
  callDate: h.callDate,
  kind: h.kind,
  contact: h.contact,
  line: h.line,
  fromNumber: h.fromNumber,
  board: h.board,
};

type Row = Omit<HistoryRowDto, '_id' | 'parent' | 'callDate'> & { id: string; userName: string | null; callDate: Date };

const toDto = (r: Row): HistoryRowDto => ({
  _id: r.id,
  parent: { name: r.userName ?? '' },
  mcName: r.mcName,
  brokerName: r.brokerName,
  address: r.address,
  origin: r.origin,
  dest: r.dest,
  loadDate: r.loadDate,
  callDate: r.callDate.toISOString(),
  kind: r.kind,
  contact: r.contact,
  line: r.line,
  fromNumber: r.fromNumber,
  board: r.board,
});

type RowColumns = Record<
  'id' | 'mcName' | 'brokerName' | 'address' | 'origin' | 'dest' | 'loadDate' | 'callDate' | 'kind' | 'contact' | 'line' | 'fromNumber' | 'board',
  AnyColumn
>;

/**
 * Built by SQLite: materialising and re-serialising the rows was most of a big load's time (17,600
 * rows: ~530 ms, BENCHMARKS.md). The same object over the tables or their aliases.
 */
export const historyRowJson = (row: RowColumns, user: { name: AnyColumn }) => sql<string>`json_object(
  '_id', ${row.id},
  'parent', json_object('name', coalesce(${user.name}, '')),
  'mcName', ${row.mcName},
  'brokerName', ${row.brokerName},
  'address', ${row.address},
  'origin', ${row.origin},
  'dest', ${row.dest},
  'loadDate', ${row.loadDate},
  'callDate', strftime('%Y-%m-%dT%H:%M:%S', ${row.callDate} / 1000, 'unixepoch') || printf('.%03dZ', ${row.callDate} % 1000),
  'kind', ${row.kind},
  'contact', ${row.contact},
  'line', ${row.line},
  'fromNumber', ${row.fromNumber},
  'board', ${row.board}
)`;
const rowJson = historyRowJson(h, users);

/** An MC in `mcList` matches the rows logged on it and on every agent setting that points at it. */
export async function getHistoryJson(db: Db, caller: Caller, input: HistoryQuery): Promise<string> {
  const { dateFrom: from, dateTo: to } = input;
  const scope = await scopeFor(db, caller, input.managerId);
  const usersList = input.usersList ?? [];
  const mcList = [...new Set(input.mcList ?? [])];
  await checkUsers(db, scope, usersList);
  const kinds = [...(input.phoneLogs ? (['call'] as const) : []), ...(input.emailLogs ? (['email'] as const) : [])];
  if (!kinds.length) return '[]';

  const where: (SQL | undefined)[] = ['userId' in scope ? eq(h.userId, scope.userId) : eq(h.teamId, scope.teamId), gte(h.callDate, from), lt(h.callDate, to)];
  if (usersList.length && !('userId' in scope)) where.push(inJson(h.userId, [...new Set(usersList)]));
  if (kinds.length === 1) where.push(eq(h.kind, kinds[0]!));
  if (input.board) where.push(eq(h.board, input.board));
  if (mcList.length) {
    where.push(
      inArray(
        h.mcSettingId,
        db
          .select({ id: mcSettings.id })
          .from(mcSettings)
          .where(or(inJson(mcSettings.id, mcList), inJson(mcSettings.parentMcId, mcList))),
      ),
    );
  }
  const rows = await selectJsonRows(
    db,
    db
      .select({ j: rowJson })
      .from(h)
      .leftJoin(users, eq(users.id, h.userId))
      .where(and(...where))
      .orderBy(desc(h.callDate), desc(h.id))
      .limit(MAX_HISTORY_ROWS + 1),
  );
  if (rows.length > MAX_HISTORY_ROWS) throw apiError(HISTORY_MESSAGES.tooMany);
  return jsonArray(rows);
}

/** The caller's own MC setting with its line, or the area's 404: the extension logs only on the caller's own MCs. */
export async function ownMcSetting(db: Db, caller: Caller, settingId: string, notFound: Message<never> = HISTORY_MESSAGES.mcNotFound) {
  const [row] = await db
    .select({
      id: mcSettings.id,
      name: mcSettings.name,
      line: sql<number | null>`(select min(${mcLines.line}) from ${mcLines} where ${mcLines.mcSettingId} = ${mcSettings.id})`,
    })
    .from(mcSettings)
    .where(and(eq(mcSettings.id, settingId), eq(mcSettings.userId, caller.id)))
    .limit(1);
  if (!row) throw apiError(notFound);
  return row;
}

async function rowByClientId(db: Db, userId: string, clientId: string) {
  const [row] = await db
    .select({ ...rowSelection, mcSettingId: h.mcSettingId })
    .from(h)
    .leftJoin(users, eq(users.id, h.userId))
    .where(and(eq(h.userId, userId), eq(h.clientId, clientId)))
    .limit(1);
  return row;
}

/** Idempotent on (caller, clientId) by the unique index; a clientId reused for a different contact answers 409. */
export async function logContact(db: Db, caller: Caller, input: LogContactInput): Promise<{ created: boolean; row: HistoryRowDto }> {
  const { callDate } = input;
  const setting = await ownMcSetting(db, caller, input.mcSettingId);
  const teamId = teamIdOf(caller);
  // the line the board offered (it may have moved since the click waited in the queue), else the MC's
  const line = input.line ?? setting.line ?? null;
  const fromNumber = input.kind === 'call' && line ? await callerNumberOfLine(db, teamId, line) : '';
  const inserted = await db
    .insert(h)
    .values({
      id: randomId(),
      userId: caller.id,
      teamId,
      mcSettingId: setting.id,
      mcName: setting.name,
      kind: input.kind,
      contact: input.contact,
      brokerName: input.brokerName,
      address: input.address,
      origin: input.origin,
      dest: input.dest,
      loadDate: input.loadDate,
      callDate,
      clientId: input.clientId,
      line,
      fromNumber,
      board: input.board,
    })
    .onConflictDoNothing()
    .returning({ id: h.id });
  const stored = await rowByClientId(db, caller.id, input.clientId);
  if (!stored) throw apiError(GENERAL_MESSAGES.somethingWrong);
  const created = inserted.length > 0;
  if (!created) {
    const same = stored.kind === input.kind && stored.mcSettingId === setting.id && stored.contact === input.contact && stored.brokerName === input.brokerName;
    if (!same) throw apiError(HISTORY_MESSAGES.clientIdReused);
  }
  return { created, row: toDto(stored) };
}
