import { sql } from 'drizzle-orm';
import { check, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { DIALERS } from '../../team/dialer';

/** One row per team; no row means the defaults (the system's `tel:` handler; markers on, 12 hours). */
export const teamSettings = sqliteTable(
  'team_settings',
  {
    teamId: text().primaryKey(),
    dialer: text({ enum: DIALERS }).notNull().default('tel'),
    dialerTemplate: text().notNull().default(''),
    // the board shows who of the team contacted a broker within the last `contactWindowHours`
    contactMarkers: integer({ mode: 'boolean' }).notNull().default(true),
    contactWindowHours: integer().notNull().default(12),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [check('team_settings_window', sql`${t.contactWindowHours} between 1 and 48`)],
);

/** An agent's MC on line 2 calls from the team's line 2. */
export const teamLines = sqliteTable(
  'team_lines',
  {
    teamId: text().notNull(),
    line: integer().notNull(),
    callerNumber: text().notNull(),
    label: text().notNull().default(''),
  },
  (t) => [
    // the Lines screen's team lines, and the number a logged call was made from
    primaryKey({ name: 'team_lines_team_line', columns: [t.teamId, t.line] }),
    check('team_lines_line_range', sql`${t.line} between 1 and 6`),
  ],
);
