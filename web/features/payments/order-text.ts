import i18next, { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import type { PaymentDto } from './api';

// the payments part's English (Payment History, the receipt and Admin payments all say what an order bought)
addEnglish(english);

/** "3 months", "3 месяца", "3 ամիս": in the screens' language, plural by the library. */
export const monthsText = (count: number) => i18next.t('orderText.months', { count });
/** "31 days" in the screens' language. */
export const daysText = (count: number) => i18next.t('orderText.days', { count });
/** "2 agents" in the screens' language. */
export const agentsText = (count: number) => i18next.t('orderText.agents', { count });
/** "2 months taken back" (a refund) in the screens' language. */
export const monthsBackText = (count: number) => i18next.t('orderText.monthsBack', { count });

/**
 * What an order bought: "3 months"; a team order "2 agents × 2 months" (each agent's months,
 * not their sum), or each agent's share when they differ; days when aligned to an end date.
 */
export function bought(p: Pick<PaymentDto, 'kind' | 'amount' | 'items'>) {
  if (p.kind !== 'team' || p.items.length === 0) return monthsText(p.amount);
  const share = (i: PaymentDto['items'][number]) =>
    i.days && i.months ? `${monthsText(i.months)} + ${daysText(i.days)}` : i.days ? daysText(i.days) : monthsText(i.months);
  const shares = p.items.map(share);
  // an agent sees its own line only: what it got
  if (shares.length === 1) return shares[0]!;
  if (new Set(shares).size === 1) return `${agentsText(shares.length)} × ${shares[0]}`;
  return `${agentsText(shares.length)}: ${shares.join(', ')}`;
}
