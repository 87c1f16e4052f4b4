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
    // the payee's end date as the confirmation left it, written by the same batch (the receipt's "new end date")
    newEndDate: integer({ mode: 'timestamp_ms' }),
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
