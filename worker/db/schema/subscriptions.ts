import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The days before the end date a reminder goes out at; 0 is the day it ends. */
export const REMINDER_THRESHOLDS = [7, 3, 1, 0] as const;

/**
 * One row per reminder: a user, the end date it was about, and the threshold. The job inserts
 * these with ON CONFLICT DO NOTHING and mails only the rows that landed, so a re-run sends nothing
 * twice, and a renewed subscription (a new end date) is reminded again.
 */
export const subscriptionReminders = sqliteTable(
  'subscription_reminders',
  {
    userId: text().notNull(),
    endDate: integer({ mode: 'timestamp_ms' }).notNull(),
    threshold: integer().notNull(),
    sentAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.endDate, t.threshold] })],
);
