import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The days before the end date a reminder goes out at; 0 is the day it ends. */
export const REMINDER_THRESHOLDS = [7, 3, 1, 0] as const;

/** Inserted with ON CONFLICT DO NOTHING and mailed only when landed, so a re-run sends nothing twice. */
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
 * Money rows are in the control plane and users in shards; no transaction spans both, so each change
 * is written once under its cause's id (docs/decisions/0179-money-in-the-control-plane.md).
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
