import * as z from 'zod';

/** The spec's payment messages, shared by the worker and the Payment screen. */
export const PAYMENT_MESSAGES = {
  months: 'Months to buy: minimum 1',
  maxMonths: 'Months to buy: at most 36',
  arca: 'Visa Payment Temporary not supported. Please pay with Idram.',
  paymentType: 'Choose a payment type',
  notVerified: 'Email is not verified',
  onlyManager: 'Only a manager can pay for its agents',
  userNotFound: 'User not found',
  orderNotFound: 'Order not found',
  linkFailed: 'Payment Failed, please try again',
  discountUsed: 'Your promo discount was already used for another order',
  receiptNotFound: 'Receipt not found',
} as const;

/** How an order is paid, and the payments table's enum. */
export const PAYMENT_TYPES = ['idram', 'arca'] as const;
/**
 * An order's state (the PaymentOrder Durable Object's machine), and the payments table's enum.
 * needs_refund: Idram took the money, but the order's promo discount had been spent by another order.
 */
export const ORDER_STATUSES = ['requested', 'link_generated', 'link_failed', 'prechecked', 'confirmed', 'failed', 'expired', 'needs_refund'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Months bought at once, at most (the counter's upper bound too). */
export const MAX_MONTHS = 36;

export const generateLinkSchema = z.object({
  amount: z
    .number({ message: PAYMENT_MESSAGES.months })
    .int(PAYMENT_MESSAGES.months)
    .min(1, PAYMENT_MESSAGES.months)
    .max(MAX_MONTHS, PAYMENT_MESSAGES.maxMonths),
  userToBePaidId: z.string().max(64).nullable().optional(),
  paymentType: z.string({ message: PAYMENT_MESSAGES.paymentType }).max(20).optional().default('idram'),
});
export const receiptParam = z.object({ id: z.string().min(1).max(64) });
export const orderIdSchema = z.object({ orderId: z.string({ message: PAYMENT_MESSAGES.orderNotFound }).min(1, PAYMENT_MESSAGES.orderNotFound).max(64) });

/** The label a payment shows in Payment History (spec: Payment status labels). */
export type PaymentLabel = 'redirect fail' | 'Declined' | 'confirmed' | 'Canceled' | 'Waiting ...' | 'Needs refund';

export interface PaymentPerson {
  _id: string;
  name: string;
  email: string;
}

export interface PaymentDto {
  _id: string;
  /** 1 for the caller's oldest payment. */
  index: number;
  /** 1 for the product's first payment. */
  globalIndex: number;
  type: 'Idram' | 'Arca';
  /** The payee, whose subscription the payment extends. */
  user: PaymentPerson | null;
  payerUser: PaymentPerson | null;
  dateCreated: string;
  /** Months bought. */
  amount: number;
  /** Whole AMD charged, after any promo discount. */
  priceTotal: number;
  isLinkGenerationFailed: boolean;
  isOrderConfirmationReceived: boolean;
  isPaymentConfirmed: boolean;
  status: PaymentLabel;
}

/** One line of a receipt: whom it paid for, what it bought, and the end date it left. */
export interface ReceiptLineDto {
  user: PaymentPerson | null;
  months: number;
  days: number;
  /** Whole AMD before the order's promo discount; 0 in a payee's partial view. */
  price: number;
  /** The payee's end date right after this payment. */
  newEndDate: string | null;
}

/** GET /api/payment/receipt/{id}: a confirmed payment's receipt. */
export interface ReceiptDto {
  _id: string;
  /** The product-wide order number (globalIndex). */
  orderNumber: number;
  dateCreated: string;
  confirmedAt: string | null;
  payer: PaymentPerson | null;
  lines: ReceiptLineDto[];
  monthlyPrice: number;
  subtotal: number;
  promo: { name: string; percent: number } | null;
  /** Whole AMD the promo took off. */
  discount: number;
  /** Whole AMD charged. */
  total: number;
  /** Idram's EDP_TRANS_ID; null when a 100% promo paid the whole order. */
  transactionId: string | null;
  /** A payee who did not pay sees its own lines and no money. */
  isPartial: boolean;
}

/** GET /api/payment/monthlyprice: the price and the caller's pending promo discount. */
export interface PriceInfo {
  price: number;
  currency: 'AMD';
  discountPercent: number;
  promoName: string | null;
}

export interface PaymentLinkDto {
  isLinkGenerated: boolean;
  isLinkGenerationFailed: boolean;
  paymentURL: string | null;
  userAndPayerMatch: boolean;
}

/** POST /api/subscription/childUsersSubscriptions: one row of Pay for Team. */
export interface TeamSubscriptionDto {
  _id: string;
  name: string;
  email: string;
  userType: string;
  isEmailVerified: boolean;
  isSubscriptionActive: boolean;
  subscriptionDaysLeft: number;
  subscriptionEndDate: string | null;
}

/** What a user pays for `months` months at `price` with `percent` off, in whole AMD, never below zero: the Payment screen shows it and the order stores it. */
export const priceFor = (price: number, months: number, percent: number) => Math.max(0, Math.round((price * months * (100 - percent)) / 100));
