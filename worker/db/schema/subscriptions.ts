import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

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

/**
 * A shard's record of each change money made to a subscription end date (docs/decisions/0179-money-in-the-control-plane.md):
 * the money row is in the control plane, the user in its shard, and no transaction spans both.
 * The change is written under its cause's id in one shard batch (insert or ignore, the end date
 * moved only while the row is unapplied, the row marked applied), so a retry or replay moves
 * nothing twice. Company data: it moves with its users.
 */
export const subscriptionChanges = sqliteTable(
  'subscription_changes',
  {
    // the cause: 'payment:<order>:<user>', 'promo:<use>' or 'refund:<refund>'
    id: text().primaryKey(),
    userId: text().notNull(),
    // calendar months added (taken back: negative), then days
    months: integer().notNull(),
    days: integer().notNull(),
    // the moment an expired subscription is extended from (the payment's confirmation, the code's use)
    at: integer({ mode: 'timestamp_ms' }).notNull(),
    appliedAt: integer({ mode: 'timestamp_ms' }),
    // the end date as this change left it (a receipt's new end date)
    newEndDate: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    // a user's changes (the mover copies them with the user)
    index('subscription_changes_user').on(t.userId),
  ],
);
