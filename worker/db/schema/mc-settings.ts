import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** A manager owns MCs (parentMcId null); an agent's setting points at one with its own templates. */
export const mcSettings = sqliteTable(
  'mc_settings',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    name: text().notNull(),
    parentMcId: text(),
    emailSubject: text().notNull().default(''),
    emailContent: text().notNull().default(''),
    isVisible: integer({ mode: 'boolean' }).notNull().default(true),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // Lines: a user's MC list
    index('mc_settings_user').on(t.userId),
    // deleting a manager's MC removes the agents' settings pointing at it
    index('mc_settings_parent').on(t.parentMcId),
  ],
);

/** The key makes a line the user's only once: two saves racing for one line cannot both land. */
export const mcLines = sqliteTable(
  'mc_lines',
  {
    userId: text().notNull(),
    line: integer().notNull(),
    mcSettingId: text().notNull(),
  },
  (t) => [
    // a line number is exclusive per user (spec: "a number assigned to one MC is unavailable to others")
    primaryKey({ name: 'mc_lines_user_line', columns: [t.userId, t.line] }),
    // the MC list's lines, and deleting a setting's lines
    index('mc_lines_setting').on(t.mcSettingId, t.line),
    check('mc_lines_line_range', sql`${t.line} between 1 and 6`),
  ],
);
