import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CONTACT_KINDS } from '../../history/history.schema';

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
    // Contact History for a manager or director: a team's rows in a date range
    index('call_history_team_date').on(t.teamId, t.callDate),
    // Contact History for an agent: its own rows in a date range
    index('call_history_user_date').on(t.userId, t.callDate),
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
