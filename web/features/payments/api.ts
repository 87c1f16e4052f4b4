import { parseResponse } from 'hono/client';
import { PAYMENT_MESSAGES } from '../../../worker/payments/payments.schema';
import { api } from '../../lib/api-client';
import { updateSession } from '../../lib/session';
import { type Data, keyOf, useGet, usePost } from '../../lib/use-api';

const payment = api.payment;

export type PaymentDto = Data<typeof payment.paymentHistory.$get>[number];
export type TeamSubscriptionDto = Data<typeof api.subscription.childUsersSubscriptions.$post>[number];
export type ReceiptDto = Data<(typeof payment.receipt)[':id']['$get']>;
export type PromoCheckDto = Data<typeof api.promocode.checkPromoCode.$post>;

export type PriceChangesDto = Data<typeof payment.priceSchedule.$get>;
export type PriceInfoDto = Data<typeof payment.monthlyprice.$get>;

export const PRICE_KEY = keyOf(payment.monthlyprice);
export const SUMMARY_KEY = keyOf(payment.summary);
export const SCHEDULE_KEY = keyOf(payment.priceSchedule);
export const HISTORY_KEY = keyOf(payment.paymentHistory);
export const TEAM_KEY = keyOf(api.subscription.childUsersSubscriptions);

export const usePrice = () => useGet(payment.monthlyprice);
export const useHistory = () => useGet(payment.paymentHistory);
/** Admin payments: the totals net of refunds, and the price schedule. */
export const useSummary = () => useGet(payment.summary);
export const usePriceChanges = () => useGet(payment.priceSchedule);
export const recordRefund = (json: { paymentId: string; amount: number; reason: string; monthsRemoved: number; userId?: string | null }) =>
  parseResponse(payment.refund.$post({ json }));
export const schedulePrice = (price: number, effectiveFrom: string) => parseResponse(payment.priceSchedule.$post({ json: { price, effectiveFrom } }));
export const cancelPriceChange = (id: string) => parseResponse(payment.priceSchedule[':id'].$delete({ param: { id } }));
/** A confirmed payment's receipt (payer, payee or admin). */
export const useReceipt = (id: string) => useGet(payment.receipt[':id'], { param: { id } });
/** Pay for Team: the manager's agents with their subscriptions (a POST, keyed by the manager). */
export const useTeamSubscriptions = (managerId: string | null) =>
  usePost(managerId ? api.subscription.childUsersSubscriptions : null, { json: { parentId: managerId ?? '', includeParent: false } });

export const checkPromoCode = (name: string) => parseResponse(api.promocode.checkPromoCode.$post({ json: { name } }));
export const applyPromoCode = (promoName: string) => parseResponse(api.promocode.usePromoCode.$post({ json: { promoName } }));
/** The payer cancels its own order while it waits for payment. */
export const cancelOrder = (orderId: string) => parseResponse(payment.cancelOrder.$post({ json: { orderId } }));
export const arcaStatus = (orderId: string) => parseResponse(payment.get_arca_status.$post({ json: { orderId } }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const LINK_POLL_MS = 1000;
export const LINK_POLL_TRIES = 30;

/**
 * The spec's payment link: requested, then polled until generated (the browser goes to the
 * provider) or failed ('Payment Failed, please try again').
 */
export async function payWithIdram(months: number, userToBePaidId: string | null) {
  const { orderId } = await parseResponse(payment.generateLink.$post({ json: { amount: months, userToBePaidId, paymentType: 'idram' } }));
  await followPaymentLink(orderId);
}

/** Pay for Team: one order for several agents, `months` each or aligned to the manager's end date. */
export async function payTeamWithIdram(userIds: string[], choice: { months: number } | { align: true }) {
  const json = 'align' in choice ? { userIds, align: true, paymentType: 'idram' } : { userIds, amount: choice.months, paymentType: 'idram' };
  const { orderId } = await parseResponse(payment.generateTeamLink.$post({ json }));
  await followPaymentLink(orderId);
}

async function followPaymentLink(orderId: string) {
  for (let i = 0; i < LINK_POLL_TRIES; i++) {
    const link = await parseResponse(payment.getPaymentLink.$post({ json: { orderId } }));
    if (link.isLinkGenerationFailed) break;
    if (link.isLinkGenerated && link.paymentURL) {
      window.location.assign(link.paymentURL);
      return;
    }
    await sleep(LINK_POLL_MS);
  }
  // said in the user's language by its code, as the API's own refusals are (web/i18n/errors.ts)
  throw Object.assign(new Error(PAYMENT_MESSAGES.linkFailed.text), { data: { code: PAYMENT_MESSAGES.linkFailed.code } });
}

/** Reads the subscription again and writes the session's flag, so every screen unlocks at once. */
export async function refreshSubscription() {
  const status = await parseResponse(api.subscription.status.$get());
  updateSession({ isSubscriptionActive: status.isSubscriptionActive });
  return status;
}
