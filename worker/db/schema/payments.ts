import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { ORDER_KINDS, ORDER_STATUSES, PAYMENT_TYPES } from '../../payments/payments.schema';

/** A payment order; its live state machine is the PaymentOrder Durable Object, D1 is the record. */
export const payments = sqliteTable(
  'payments',
  {
    id: text().primaryKey(),
    globalIndex: integer().notNull(),
    type: text({ enum: PAYMENT_TYPES }).notNull(),
    kind: text({ enum: ORDER_KINDS }).notNull().default('single'),
    // the payee; for a team order the payer itself (the payees are its items)
    userId: text().notNull(),
    payerUserId: text().notNull(),
    dateCreated: integer({ mode: 'timestamp_ms' }).notNull(),
    // months bought (a team order: the months of all its items together)
    amount: integer().notNull(),
    monthlyPrice: integer().notNull(),
    // whole AMD charged after any promo
    priceTotal: integer().notNull(),
    promoUseId: text(),
    status: text({ enum: ORDER_STATUSES }).notNull().default('requested'),
    isLinkGenerationFailed: integer({ mode: 'boolean' }).notNull().default(false),
    isOrderConfirmationReceived: integer({ mode: 'boolean' }).notNull().default(false),
    isPaymentConfirmed: integer({ mode: 'boolean' }).notNull().default(false),
    transId: text(),
    payerAccount: text(),
    confirmedAt: integer({ mode: 'timestamp_ms' }),
    // the payee's end date as the confirmation left it (the receipt's "new end date")
    newEndDate: integer({ mode: 'timestamp_ms' }),
    // confirmed, and the subscription change not yet written in the payee's shard (docs/decisions/0179-money-in-the-control-plane.md)
    applyPending: integer({ mode: 'boolean' }).notNull().default(false),
    appliedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    // Payment History: what a user paid
    index('payments_payer_date').on(t.payerUserId, t.dateCreated),
    // Payment History: what was paid for a user
    index('payments_user_date').on(t.userId, t.dateCreated),
    // Admin payments: confirmed payments and totals
    index('payments_confirmed_date').on(t.isPaymentConfirmed, t.dateCreated),
    index('payments_date').on(t.dateCreated),
    uniqueIndex('payments_global_index').on(t.globalIndex),
    // the Idram transaction id is stored once
    uniqueIndex('payments_trans_id').on(t.transId),
    // Admin payments: the paid orders still owed back (status needs_refund)
    index('payments_status').on(t.status),
    // the sweep: confirmations whose subscription change is still to be written
    index('payments_apply_pending').on(t.confirmedAt).where(sql`apply_pending = 1`),
  ],
);

/**
 * One receipt mail per confirmed payment and recipient (the payer, and the payee when it is
 * someone else). The confirmation inserts these with ON CONFLICT DO NOTHING and mails only the
 * rows its insert landed, so Idram replaying the confirmation sends nothing twice.
 */
export const paymentReceipts = sqliteTable(
  'payment_receipts',
  {
    paymentId: text().notNull(),
    userId: text().notNull(),
    // the address the receipt went to
    email: text().notNull(),
    sentAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.paymentId, t.userId] })],
);

/**
 * The lines of a team order: whom it pays for and what. The confirmation extends every item's user
 * in the same batch that confirms the order, once.
 */
export const paymentItems = sqliteTable(
  'payment_items',
  {
    paymentId: text().notNull(),
    userId: text().notNull(),
    // calendar months bought, or (aligned to the payer's end date) days; one of them is 0
    months: integer().notNull(),
    days: integer().notNull(),
    // whole AMD before the order's promo discount
    price: integer().notNull(),
    // the user's end date as the confirmation left it
    newEndDate: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.userId] }),
    // Payment History: the team orders that paid for an agent
    index('payment_items_user').on(t.userId),
  ],
);

/** Each refund is one guarded INSERT … SELECT, so refunds never exceed what was charged or bought. */
export const paymentRefunds = sqliteTable(
  'payment_refunds',
  {
    id: text().primaryKey(),
    paymentId: text().notNull(),
    // whole AMD given back
    amount: integer().notNull(),
    reason: text().notNull(),
    // calendar months taken off `userId`'s end date (0: money only)
    monthsRemoved: integer().notNull().default(0),
    userId: text(),
    createdBy: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
    // months to take back not yet written in the user's shard
    applyPending: integer({ mode: 'boolean' }).notNull().default(false),
    appliedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    // a payment's refunds (history, receipts, the guard's sums)
    index('payment_refunds_payment').on(t.paymentId),
    // the sweep
    index('payment_refunds_apply_pending').on(t.createdAt).where(sql`apply_pending = 1`),
  ],
);

/**
 * Scheduled changes of the monthly price (the admin). The price in force is the latest row whose
 * `effective_from` has passed, else MONTHLY_PRICE_AMD; an order is priced when it is made.
 */
export const priceSchedule = sqliteTable(
  'price_schedule',
  {
    id: text().primaryKey(),
    price: integer().notNull(),
    effectiveFrom: integer({ mode: 'timestamp_ms' }).notNull(),
    createdBy: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // the price in force and the next one; one change per moment
    uniqueIndex('price_schedule_from').on(t.effectiveFrom),
  ],
);
