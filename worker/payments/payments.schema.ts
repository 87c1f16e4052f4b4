import * as z from 'zod';
import { problem } from '../lib/messages';
import { PAYMENT_MESSAGES } from './payments.messages';

export { PAYMENT_MESSAGES };

export const PAYMENT_TYPES = ['idram', 'arca'] as const;
/** needs_refund: Idram took the money, but the order's promo discount had been spent by another order. */
export const ORDER_STATUSES = [
  'requested',
  'link_generated',
  'link_failed',
  'prechecked',
  'confirmed',
  'failed',
  'expired',
  'canceled',
  'needs_refund',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
// single: one payee (payments.user_id); team: a manager's order for several agents (payment_items)
export const ORDER_KINDS = ['single', 'team'] as const;

/**
 * Unpaid Idram orders expire this long after they were made (docs/decisions/0020-order-expiry.md):
 * Idram publishes no lifetime for its payment page, so the product bounds it.
 */
export const ORDER_TTL_MS = 30 * 60_000;

export const MAX_MONTHS = 36;

export const generateLinkSchema = z.object({
  amount: z
    .number({ message: problem(PAYMENT_MESSAGES.months) })
    .int(problem(PAYMENT_MESSAGES.months))
    .min(1, problem(PAYMENT_MESSAGES.months))
    .max(MAX_MONTHS, problem(PAYMENT_MESSAGES.maxMonths)),
  userToBePaidId: z.string().max(64).nullable().optional(),
  paymentType: z
    .string({ message: problem(PAYMENT_MESSAGES.paymentType) })
    .max(20)
    .optional()
    .default('idram'),
});
export const MAX_TEAM_ORDER = 50;

export const generateTeamLinkSchema = z
  .object({
    userIds: z
      .array(z.string().min(1).max(64), { message: problem(PAYMENT_MESSAGES.chooseAgents) })
      .min(1, problem(PAYMENT_MESSAGES.chooseAgents))
      .max(MAX_TEAM_ORDER, problem(PAYMENT_MESSAGES.tooManyAgents)),
    // months for each agent; not used when aligning
    amount: z
      .number({ message: problem(PAYMENT_MESSAGES.months) })
      .int(problem(PAYMENT_MESSAGES.months))
      .min(1, problem(PAYMENT_MESSAGES.months))
      .max(MAX_MONTHS, problem(PAYMENT_MESSAGES.maxMonths))
      .optional(),
    // pay each agent up to the payer's own end date, by the day
    align: z
      .boolean({ message: problem(PAYMENT_MESSAGES.align) })
      .optional()
      .default(false),
    paymentType: z
      .string({ message: problem(PAYMENT_MESSAGES.paymentType) })
      .max(20)
      .optional()
      .default('idram'),
  })
  .refine((b) => b.align || b.amount !== undefined, { message: problem(PAYMENT_MESSAGES.months), path: ['amount'] });

const DAY_MS = 86_400_000;
/** Days priced pro rata: a 30-day month, rounded to whole AMD per agent. */
export const DAYS_IN_PRICED_MONTH = 30;
export const daysPrice = (monthlyPrice: number, days: number) => Math.round((monthlyPrice * days) / DAYS_IN_PRICED_MONTH);
/**
 * Aligning: the whole days from the later of now and the agent's end date to the payer's end date,
 * rounded up (so the agent never ends before its manager); 0 when it already runs that long.
 */
export const alignDays = (payerEnd: number, agentEnd: number | null, now: number) => Math.max(0, Math.ceil((payerEnd - Math.max(now, agentEnd ?? 0)) / DAY_MS));
/** The most days one aligned line may buy (36 months of 31 days). */
export const MAX_ALIGN_DAYS = MAX_MONTHS * 31;

/** A refund's reason, in characters. */
export const MAX_REFUND_REASON = 500;

export const refundSchema = z
  .object({
    paymentId: z
      .string({ message: problem(PAYMENT_MESSAGES.paymentNotFound) })
      .min(1, problem(PAYMENT_MESSAGES.paymentNotFound))
      .max(64),
    amount: z
      .number({ message: problem(PAYMENT_MESSAGES.refundAmount) })
      .int(problem(PAYMENT_MESSAGES.refundAmount))
      .min(0, problem(PAYMENT_MESSAGES.refundAmount))
      .max(1_000_000_000),
    reason: z
      .string({ message: problem(PAYMENT_MESSAGES.refundReason) })
      .trim()
      .min(1, problem(PAYMENT_MESSAGES.refundReason))
      .max(MAX_REFUND_REASON, problem(PAYMENT_MESSAGES.refundReasonLong, { max: MAX_REFUND_REASON })),
    monthsRemoved: z
      .number({ message: problem(PAYMENT_MESSAGES.refundMonths) })
      .int(problem(PAYMENT_MESSAGES.refundMonths))
      .min(0, problem(PAYMENT_MESSAGES.refundMonths))
      .max(MAX_MONTHS, problem(PAYMENT_MESSAGES.refundMonths))
      .optional()
      .default(0),
    // a team order: whose months to take back
    userId: z.string().max(64).nullable().optional(),
  })
  .refine((r) => r.amount > 0 || r.monthsRemoved > 0, { message: problem(PAYMENT_MESSAGES.refundNothing) });

/** A moment as the admin picks it: an ISO date-time, or a bare day (00:00 UTC of that day). */
const moment = z
  .string({ message: problem(PAYMENT_MESSAGES.priceDate) })
  .max(40, problem(PAYMENT_MESSAGES.priceDate))
  .transform((text, ctx) => {
    const value = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
    const time = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
    // a day that does not exist (2026-02-30) is not rolled over into the next month
    const realDay = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === text : true;
    if (!Number.isFinite(time) || !realDay || time < Date.UTC(2000, 0, 1) || time > Date.UTC(2200, 0, 1)) {
      ctx.addIssue({ code: 'custom', message: problem(PAYMENT_MESSAGES.priceDate) });
      return z.NEVER;
    }
    return new Date(time);
  });

export const priceScheduleSchema = z.object({
  price: z
    .number({ message: problem(PAYMENT_MESSAGES.price) })
    .int(problem(PAYMENT_MESSAGES.price))
    .min(1, problem(PAYMENT_MESSAGES.price))
    .max(10_000_000, problem(PAYMENT_MESSAGES.price)),
  effectiveFrom: moment,
});
export const scheduleParam = z.object({ id: z.string().min(1).max(64) });

export const receiptParam = z.object({ id: z.string().min(1).max(64) });
export const orderIdSchema = z.object({
  orderId: z
    .string({ message: problem(PAYMENT_MESSAGES.orderNotFound) })
    .min(1, problem(PAYMENT_MESSAGES.orderNotFound))
    .max(64),
});

export const PAYMENT_LABELS = [
  'redirect fail',
  'Declined',
  'confirmed',
  'Canceled',
  'Expired',
  'Waiting ...',
  'Waiting for payment',
  'Needs refund',
  'Refunded',
] as const;
export type PaymentLabel = (typeof PAYMENT_LABELS)[number];

export const paymentPersonSchema = z.strictObject({ _id: z.string(), name: z.string(), email: z.string() });
export type PaymentPerson = z.infer<typeof paymentPersonSchema>;

export const refundResultSchema = z.strictObject({
  _id: z.string(),
  amount: z.number(),
  reason: z.string(),
  monthsRemoved: z.number(),
  /** Whose months were taken back (null: money only). */
  user: paymentPersonSchema.nullable(),
  date: z.string(),
});
export type RefundDto = z.infer<typeof refundResultSchema>;

export const paymentItemSchema = z.strictObject({
  user: paymentPersonSchema.nullable(),
  months: z.number(),
  days: z.number(),
  /** Whole AMD before the promo discount. */
  price: z.number(),
});
export type PaymentItemDto = z.infer<typeof paymentItemSchema>;

export const paymentSchema = z.strictObject({
  _id: z.string(),
  /** The order number, the same as globalIndex (the spec's "index or globalIndex"): every screen, receipt and mail shows this one. */
  index: z.number(),
  /** The product-wide order number: 1 for the product's first payment. */
  globalIndex: z.number(),
  type: z.enum(['Idram', 'Arca']),
  /** The payee, whose subscription the payment extends. */
  user: paymentPersonSchema.nullable(),
  payerUser: paymentPersonSchema.nullable(),
  dateCreated: z.string(),
  amount: z.number(),
  /** Whole AMD charged, after any promo discount. */
  priceTotal: z.number(),
  isLinkGenerationFailed: z.boolean(),
  isOrderConfirmationReceived: z.boolean(),
  isPaymentConfirmed: z.boolean(),
  status: z.enum(PAYMENT_LABELS),
  /** Until when Idram may still be paid (a waiting order); null otherwise. */
  expiresAt: z.string().nullable(),
  /** The caller is the payer and the order is still waiting for payment: it may cancel it. */
  canCancel: z.boolean(),
  /** `team`: a manager's order for several agents, listed in `items`. */
  kind: z.enum(['single', 'team']),
  /** A team order's agents (an agent sees its own line only); empty for a single payment. */
  items: z.array(paymentItemSchema),
  /** Whole AMD given back so far (the admin's refunds), and each refund. */
  refunded: z.number(),
  refunds: z.array(refundResultSchema),
});
export type PaymentDto = z.infer<typeof paymentSchema>;

/** One line of a receipt: whom it paid for, what it bought, and the end date it left. */
export const receiptLineSchema = paymentItemSchema.extend({
  /** Whole AMD before the order's promo discount. */
  price: z.number(),
  /** The payee's end date right after this payment. */
  newEndDate: z.string().nullable(),
});
export type ReceiptLineDto = z.infer<typeof receiptLineSchema>;

export const receiptSchema = z.strictObject({
  _id: z.string(),
  /** The product-wide order number (globalIndex). */
  orderNumber: z.number(),
  dateCreated: z.string(),
  confirmedAt: z.string().nullable(),
  payer: paymentPersonSchema.nullable(),
  lines: z.array(receiptLineSchema),
  monthlyPrice: z.number(),
  subtotal: z.number(),
  promo: z.strictObject({ name: z.string(), percent: z.number() }).nullable(),
  /** Whole AMD the promo took off. */
  discount: z.number(),
  /** Whole AMD charged. */
  total: z.number(),
  /** Idram's EDP_TRANS_ID; null when a 100% promo paid the whole order. */
  transactionId: z.string().nullable(),
  /** A payee who did not pay sees its own lines, and the order's subtotal, promo, discount and total as 0. */
  isPartial: z.boolean(),
  /** Money given back since (the payer and the admin only). */
  refunds: z.array(refundResultSchema),
});
export type ReceiptDto = z.infer<typeof receiptSchema>;

export const priceInfoSchema = z.strictObject({
  price: z.number(),
  currency: z.literal('AMD'),
  discountPercent: z.number(),
  promoName: z.string().nullable(),
  /** The next scheduled price, so users see it before it applies. */
  upcoming: z.strictObject({ price: z.number(), effectiveFrom: z.string() }).nullable(),
});
export type PriceInfo = z.infer<typeof priceInfoSchema>;

export const paymentSummarySchema = z.strictObject({
  confirmedTotal: z.number(),
  confirmedCount: z.number(),
  /** Given back on confirmed payments. */
  refundedTotal: z.number(),
  netRevenue: z.number(),
  /** Still owed back on Needs refund payments (charged minus already refunded). */
  owedTotal: z.number(),
  owedCount: z.number(),
  monthsSold: z.number(),
});
export type PaymentSummaryDto = z.infer<typeof paymentSummarySchema>;

export const priceChangeSchema = z.strictObject({
  _id: z.string(),
  price: z.number(),
  effectiveFrom: z.string(),
  createdAt: z.string(),
  /** In force already (it cannot be cancelled). */
  started: z.boolean(),
});
export type PriceChangeDto = z.infer<typeof priceChangeSchema>;
export const priceScheduleListSchema = z.strictObject({ price: z.number(), basePrice: z.number(), changes: z.array(priceChangeSchema) });

export const paymentLinkSchema = z.strictObject({
  isLinkGenerated: z.boolean(),
  isLinkGenerationFailed: z.boolean(),
  paymentURL: z.string().nullable(),
  userAndPayerMatch: z.boolean(),
});
export type PaymentLinkDto = z.infer<typeof paymentLinkSchema>;

export const teamSubscriptionSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  userType: z.string(),
  isEmailVerified: z.boolean(),
  isSubscriptionActive: z.boolean(),
  subscriptionDaysLeft: z.number(),
  subscriptionEndDate: z.string().nullable(),
});
export type TeamSubscriptionDto = z.infer<typeof teamSubscriptionSchema>;

/** What a user pays for `months` months at `price` with `percent` off, in whole AMD, never below zero: the Payment screen shows it and the order stores it. */
export const priceFor = (price: number, months: number, percent: number) => Math.max(0, Math.round((price * months * (100 - percent)) / 100));
