import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CONTACT_KINDS, HISTORY_SEARCH_TEXT } from '../../history/history.schema';

/** Calls and e-mails logged by the browser-extension client. */
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
  },
  (t) => [
    // Contact History for a manager or director: a team's rows in a date range. The columns after
    // the date let the paged call count, chart (per day and kind), list the Companies, filter by
    // user, MC and Company, and search (HISTORY_SEARCH_TEXT, the searched text of the row, repeated
    // exactly by the query) from the index alone, without reading the rows (decision 0008)
    index('call_history_team_date_search').on(t.teamId, t.callDate, t.kind, t.userId, t.mcSettingId, t.brokerName, sql.raw(HISTORY_SEARCH_TEXT)),
    // Contact History for an agent: its own rows in a date range, covered the same way
    index('call_history_user_date_cover').on(t.userId, t.callDate, t.kind, t.mcSettingId, t.brokerName),
    uniqueIndex('call_history_client').on(t.userId, t.clientId),
  ],
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
