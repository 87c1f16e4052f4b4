import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

import { MAIL_KINDS, MAIL_STATUSES } from '../../mail/mail.schema';

export { MAIL_KINDS, MAIL_STATUSES, type MailKind, type MailStatus } from '../../mail/mail.schema';

/** Written in the same `db.batch()` as its cause; the row is the truth, the queue message only names it. */
export const mails = sqliteTable(
  'mails',
  {
    id: text().primaryKey(),
    kind: text({ enum: MAIL_KINDS }).notNull(),
    to: text().notNull(),
    subject: text().notNull(),
    // emptied once the provider took the mail: a reset link must not outlive its delivery here
    text: text().notNull(),
    html: text().notNull(),
    status: text({ enum: MAIL_STATUSES }).notNull().default('pending'),
    // the provider's Idempotency-Key: one per delivery, a new one only when the admin resends
    idempotencyKey: text().notNull(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
    // when the next try is due; the sweeper re-sends a message for a row still pending well after it
    nextAttemptAt: integer({ mode: 'timestamp_ms' }).notNull(),
    // a consumer's lease: while it runs, no other consumer sends this mail
    claimedUntil: integer({ mode: 'timestamp_ms' }),
    sentAt: integer({ mode: 'timestamp_ms' }),
    failedAt: integer({ mode: 'timestamp_ms' }),
    // the provider that took it (resend, cloudflare, outbox)
    provider: text(),
  },
  (t) => [
    // the sweeper: pending mails whose try is overdue
    index('mails_pending_due').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    // the admin's Failed mails screen, newest first
    index('mails_failed').on(t.failedAt).where(sql`status = 'failed'`),
    // retention: sent mails older than the retention window
    index('mails_sent_at').on(t.sentAt).where(sql`status = 'sent'`),
  ],
);
