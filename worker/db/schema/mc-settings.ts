import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * A carrier MC entry with its phone lines. A manager owns MCs (parentMcId null); an agent's
 * setting points at one of its manager's MCs with the agent's own lines and templates.
 */
export const mcSettings = sqliteTable(
  'mc_settings',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    name: text().notNull(),
    parentMcId: text(),
    // JSON array of line numbers 1..6, exclusive per user
    lines: text({ mode: 'json' }).$type<number[]>().notNull().default([]),
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
