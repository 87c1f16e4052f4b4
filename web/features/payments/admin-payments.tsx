import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Button } from '../../components/ui/button';
import { Pending } from '../../components/ui/request-state';
import { Card, Stat } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { amd, monthOf } from '../../lib/format';
import { formatLocale } from '../../lib/format-dates';
import { RefundDialog, refundable } from './admin-refund';
import { type PaymentDto, useHistory, useSummary } from './api';
import { PaymentsTable } from './payment-history';
import { PriceScheduleCard } from './price-schedule';
import './payments.css';

addEnglish(english);

/** A revenue axis tick: "12,000" in English (as before the languages), grouped as the language groups digits otherwise. */
const axisNumber = (v: number) => {
  const locale = formatLocale();
  return v.toLocaleString(!locale || locale.startsWith('en') ? 'en-US' : locale);
};

/** /adminPayments: revenue net of refunds, revenue per month, the monthly price, Confirmed Payments and All Payments (with Refund). */
export default function AdminPayments() {
  const { t } = useTranslation();
  const historyRead = useHistory();
  const summaryRead = useSummary();
  const { data } = historyRead;
  const { data: summary } = summaryRead;
  const [refunding, setRefunding] = useState<PaymentDto | null>(null);
  const confirmed = useMemo(() => (data ?? []).filter((p) => p.isPaymentConfirmed), [data]);
  // revenue in the month it came in, less refunds in the month they went out
  const perMonth = useMemo(() => {
    const byMonth = new Map<string, number>();
    const add = (date: string, amount: number) => byMonth.set(date.slice(0, 7), (byMonth.get(date.slice(0, 7)) ?? 0) + amount);
    for (const p of confirmed) {
      add(p.dateCreated, p.priceTotal);
      for (const r of p.refunds) add(r.date, -r.amount);
    }
    return [...byMonth].sort(([a], [b]) => a.localeCompare(b)).map(([key, revenue]) => ({ month: monthOf(key), revenue }));
  }, [confirmed]);
  const action = useCallback(
    (p: PaymentDto) =>
      refundable(p) ? (
        <Button className="btn-sm" variant="secondary" onClick={() => setRefunding(p)} aria-label={t('adminPayments.refundLabel', { number: p.globalIndex })}>
          {t('adminPayments.refund')}
        </Button>
      ) : null,
    [t],
  );
  if (!data) return <Pending what={t('adminPayments.what')} state={historyRead} />;
  if (!summary) return <Pending what={t('adminPayments.totalsWhat')} state={summaryRead} />;
  return (
    <div className="page admin-payments">
      <div className="page-header">
        <h1>{t('adminPayments.title')}</h1>
      </div>
      <div className="stat-row">
        <Stat
          label={t('payment.total')}
          note={t('adminPayments.netNote', { refunded: amd(summary.refundedTotal), count: summary.confirmedCount })}
          testId="confirmed-total"
        >
          {amd(summary.netRevenue)}
        </Stat>
        <Stat label={t('adminPayments.monthsSold')}>{summary.monthsSold}</Stat>
        <Stat label={t('adminPayments.allCount')}>{data.length}</Stat>
        {summary.owedCount > 0 && (
          <Stat label={t('payHistory.statusNeedsRefund')} note={t('adminPayments.owedNote', { count: summary.owedCount })} testId="refunds-due">
            {amd(summary.owedTotal)}
          </Stat>
        )}
      </div>
      <div className="grid-2">
        <Card title={t('adminPayments.perMonth')}>
          {perMonth.length === 0 ? (
            <p className="muted">{t('adminPayments.noConfirmed')}</p>
          ) : (
            <div className="revenue-chart" data-testid="revenue-chart">
              <ResponsiveContainer>
                <BarChart data={perMonth} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="month" fontSize={12} />
                  <YAxis fontSize={12} tickFormatter={axisNumber} width={70} />
                  <Tooltip formatter={(v) => [amd(Number(v)), t('adminPayments.revenue')]} />
                  <Bar dataKey="revenue" name={t('adminPayments.revenue')} fill="#1b7f3b" radius={[4, 4, 0, 0]} maxBarSize={56} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
        </Card>
        <PriceScheduleCard />
      </div>
      <PaymentsTable data={confirmed} title={t('adminPayments.confirmed')} testId="confirmed-payments" urlKey="confirmed" action={action} />
      <div style={{ height: '1rem' }} />
      <PaymentsTable data={data} title={t('adminPayments.all')} testId="all-payments" urlKey="all" action={action} />
      {refunding && <RefundDialog key={refunding._id} payment={refunding} onClose={() => setRefunding(null)} />}
    </div>
  );
}
