import useSWR from 'swr';
import type { PaymentDto, PaymentLinkDto, PriceInfo, TeamSubscriptionDto } from '../../../worker/payments/payments.schema';
import { PAYMENT_MESSAGES } from '../../../worker/payments/payments.schema';
import { fetcher, get, post } from '../../lib/api-client';
import { updateSession } from '../../lib/session';
import type { SubscriptionStatus } from '../../lib/subscription';

export type { PaymentDto, PriceInfo, TeamSubscriptionDto };

export const PRICE_KEY = '/api/payment/monthlyprice';
export const HISTORY_KEY = '/api/payment/paymentHistory';
export const TEAM_KEY = '/api/subscription/childUsersSubscriptions';

export const usePrice = () => useSWR<PriceInfo>(PRICE_KEY, fetcher);
export const useHistory = () => useSWR<PaymentDto[]>(HISTORY_KEY, fetcher);
/** Pay for Team: the manager's agents with their subscriptions (a POST, keyed by the manager). */
export const useTeamSubscriptions = (managerId: string | null) =>
  useSWR<TeamSubscriptionDto[]>(managerId ? [TEAM_KEY, managerId] : null, ([path, parentId]: [string, string]) =>
    post<TeamSubscriptionDto[]>(path, { parentId, includeParent: false }),
  );

export const amd = (n: number) => `${n.toLocaleString('en-US')} AMD`;
export const shortDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
export const shortDateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const LINK_POLL_MS = 1000;
export const LINK_POLL_TRIES = 30;

/**
 * The spec's payment link: requested, then polled until generated (the browser goes to the
 * provider) or failed ('Payment Failed, please try again').
 */
export async function payWithIdram(months: number, userToBePaidId: string | null) {
  const { orderId } = await post<{ orderId: string }>('/api/payment/generateLink', { amount: months, userToBePaidId, paymentType: 'idram' });
  for (let i = 0; i < LINK_POLL_TRIES; i++) {
    const link = await post<PaymentLinkDto>('/api/payment/getPaymentLink', { orderId });
    if (link.isLinkGenerationFailed) break;
    if (link.isLinkGenerated && link.paymentURL) {
      window.location.assign(link.paymentURL);
      return;
    }
    await sleep(LINK_POLL_MS);
  }
  throw new Error(PAYMENT_MESSAGES.linkFailed);
}

/** Reads the subscription again and writes the session's flag, so every screen unlocks at once. */
export async function refreshSubscription(): Promise<SubscriptionStatus> {
  const status = await get<SubscriptionStatus>('/api/subscription/status');
  updateSession({ isSubscriptionActive: status.isSubscriptionActive });
  return status;
}
