import type { PaymentDto } from './api';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What an order bought: "3 months"; a team order "2 agents × 2 months" (each agent's months,
 * not their sum), or each agent's share when they differ; days when aligned to an end date.
 */
export function bought(p: Pick<PaymentDto, 'kind' | 'amount' | 'items'>) {
  if (p.kind !== 'team' || p.items.length === 0) return plural(p.amount, 'month');
  const share = (i: PaymentDto['items'][number]) =>
    i.days && i.months ? `${plural(i.months, 'month')} + ${plural(i.days, 'day')}` : i.days ? plural(i.days, 'day') : plural(i.months, 'month');
  const shares = p.items.map(share);
  // an agent sees its own line only: what it got
  if (shares.length === 1) return shares[0]!;
  if (new Set(shares).size === 1) return `${plural(shares.length, 'agent')} × ${shares[0]}`;
  return `${plural(shares.length, 'agent')}: ${shares.join(', ')}`;
}
