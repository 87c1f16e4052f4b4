import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** At most once an hour per browser (docs/decisions/0145-board-alarm.md): counts only, never a row's content. */
export const extensionHealthReports = sqliteTable(
  'extension_health_reports',
  {
    id: text().primaryKey(),
    // the extension session (sessions.id) that sent it: one browser's sign-in
    sessionId: text().notNull(),
    userId: text().notNull(),
    // hours since the epoch: one report per session and hour
    hour: integer().notNull(),
    version: text().notNull(),
    // the board the report is about ('dat' | 'truckstop'): each board reports and alarms on its own
    board: text().notNull().default('dat'),
    // 'wide' | 'compact' | 'classic' | 'unknown'
    layout: text().notNull(),
    rowsSeen: integer().notNull(),
    // the board said it could not read the page (the alarm was on)
    unreadable: integer({ mode: 'boolean' }).notNull(),
    // {field: {read, missed}} as JSON, only the names in HEALTH_FIELDS
    fields: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // one report per session, hour and board (a browser with both boards open reports each)
    uniqueIndex('extension_health_session_hour_board').on(t.sessionId, t.hour, t.board),
    index('extension_health_created').on(t.createdAt),
    // moving a user's rows to another shard (worker/shards/tables.ts)
    index('extension_health_user').on(t.userId),
  ],
);
