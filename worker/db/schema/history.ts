import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { LOAD_BOARDS } from '../../history/boards';
import { CONTACT_KINDS } from '../../history/history.schema';

export const callHistory = sqliteTable(
  'call_history',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    // the manager whose team the row belongs to, fixed at write time
    teamId: text().notNull(),
    mcSettingId: text().notNull(),
    mcName: text().notNull(),
    kind: text({ enum: CONTACT_KINDS }).notNull(),
    contact: text().notNull().default(''),
    brokerName: text().notNull().default(''),
    address: text().notNull().default(''),
    origin: text().notNull().default(''),
    dest: text().notNull().default(''),
    loadDate: text().notNull().default(''),
    callDate: integer({ mode: 'timestamp_ms' }).notNull(),
    // idempotency key from the client: a retried request is not counted twice
    clientId: text().notNull(),
    // the line (1 to 6) the contact was made on, null when the MC had none (and for older rows)
    line: integer(),
    // a call's caller number: the team's number for that line when it was logged (E.164), else ''
    fromNumber: text().notNull().default(''),
    // the load board the contact came from (rows from before Truckstop are DAT's)
    board: text({ enum: LOAD_BOARDS }).notNull().default('dat'),
  },
  (t) => [
    // Contact History for a team: count, chart, filter, search and sort from the index alone (decision 0107)
    index('call_history_team_date_cover').on(
      t.teamId,
      t.callDate,
      t.kind,
      t.userId,
      t.mcSettingId,
      t.brokerName,
      t.mcName,
      t.address,
      t.origin,
      t.dest,
      t.loadDate,
      t.contact,
      t.line,
      t.fromNumber,
      t.board,
    ),
    // the team's Companies in the screen's order: a few seeks per Company, sorting walks it (decision 0106)
    index('call_history_team_company').on(t.teamId, sql`${t.brokerName} collate nocase`, t.brokerName, t.callDate, t.kind, t.userId, t.mcSettingId),
    // Contact History for an agent: its own rows in a date range, covered the same way
    index('call_history_user_date_cover').on(t.userId, t.callDate, t.kind, t.mcSettingId, t.brokerName),
    uniqueIndex('call_history_client').on(t.userId, t.clientId),
  ],
);

/**
 * Per team and UTC hour, kept by triggers (migration 0015) in the same statement as the row, so it
 * never disagrees with the rows; a load's chart adds these up (decision 0105).
 */
export const callHistoryHours = sqliteTable(
  'call_history_hours',
  {
    teamId: text().notNull(),
    hour: integer().notNull(),
    calls: integer().notNull().default(0),
    emails: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.hour] })],
);

export const activeLoads = sqliteTable(
  'active_loads',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    teamId: text().notNull(),
    mcSettingId: text(),
    brokerName: text().notNull().default(''),
    origin: text().notNull().default(''),
    dest: text().notNull().default(''),
    loadDate: text().notNull().default(''),
    // the board's reference ID of the load (DAT shows it in the load's details), '' when none
    reference: text().notNull().default(''),
    // the load board the load came from (rows from before Truckstop are DAT's)
    board: text({ enum: LOAD_BOARDS }).notNull().default('dat'),
    date: integer({ mode: 'timestamp_ms' }).notNull(),
    clientId: text().notNull(),
  },
  (t) => [
    // My active loads
    index('active_loads_user').on(t.userId, t.date),
    // the team's active loads for a manager
    index('active_loads_team').on(t.teamId, t.date),
    uniqueIndex('active_loads_client').on(t.userId, t.clientId),
  ],
);

/** docs/decisions/0171-history-retention-r2.md: written once the object is verified, before the rows leave D1. */
export const callHistoryArchive = sqliteTable(
  'call_history_archive',
  {
    teamId: text().notNull(),
    month: text().notNull(),
    rows: integer().notNull(),
    calls: integer().notNull(),
    emails: integer().notNull(),
    state: text({ enum: ['archived', 'restored'] }).notNull(),
    archivedAt: integer({ mode: 'timestamp_ms' }).notNull(),
    restoredUntil: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.month] }),
    // the job's expired restores
    index('call_history_archive_restored').on(t.state, t.restoredUntil),
  ],
);

/** Whose contacts an archived month holds, and how many: an agent's own months, and the export's names. */
export const callHistoryArchiveUsers = sqliteTable(
  'call_history_archive_users',
  {
    userId: text().notNull(),
    month: text().notNull(),
    teamId: text().notNull(),
    rows: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.month, t.teamId] }),
    // a month's users, replaced whole when the month is archived again
    index('call_history_archive_users_team').on(t.teamId, t.month),
  ],
);
