import * as z from 'zod';

export const PAYMENT_MESSAGES = {
  months: 'Months to buy: minimum 1',
  arca: 'Visa Payment Temporary not supported. Please pay with Idram.',
  notVerified: 'Email is not verified',
  linkFailed: 'Payment Failed, please try again',
} as const;

export const generateLinkSchema = z.object({
  amount: z.number({ message: PAYMENT_MESSAGES.months }).int(PAYMENT_MESSAGES.months).min(1, PAYMENT_MESSAGES.months).max(36, 'Months to buy: at most 36'),
  userToBePaidId: z.string().max(64).nullable().optional(),
  paymentType: z.string().max(20).optional().default('idram'),
});
export const orderIdSchema = z.object({ orderId: z.string().min(1, 'Choose an order').max(64) });

/** The label a payment shows in Payment History (spec: Payment status labels). */
export type PaymentLabel = 'redirect fail' | 'Declined' | 'confirmed' | 'Canceled' | 'Waiting ...';

export interface PaymentDto {
  _id: string;
  index: number;
  globalIndex: number;
  type: 'Idram' | 'Arca';
  user: { _id: string; name: string; email: string } | null;
  payerUser: { _id: string; name: string; email: string } | null;
  dateCreated: string;
  amount: number;
  priceTotal: number;
  isLinkGenerationFailed: boolean;
  isOrderConfirmationReceived: boolean;
  isPaymentConfirmed: boolean;
  status: PaymentLabel;
}

export interface PriceInfo {
  price: number;
  currency: 'AMD';
  discountPercent: number;
  promoName: string | null;
}
