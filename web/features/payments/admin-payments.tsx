import { useCallback, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Button } from '../../components/ui/button';
import { Card, Stat } from '../../components/ui/section';
import { Pending } from '../../components/ui/request-state';
import { amd, monthOf } from '../../lib/format';
import { RefundDialog, refundable } from './admin-refund';
import { type PaymentDto, useHistory, useSummary } from './api';
import { PaymentsTable } from './payment-history';
import { PriceScheduleCard } from './price-schedule';
import './payments.css';

/** /adminPayments: revenue net of refunds, revenue per month, the monthly price, Confirmed Payments and All Payments (with Refund). */
export default function AdminPayments() {
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
        <Button className="btn-sm" variant="secondary" onClick={() => setRefunding(p)} aria-label={`Refund order ${p.globalIndex}`}>
          Refund
        </Button>
      ) : null,
    [],
  );
  if (!data) return <Pending what="the payments" state={historyRead} />;
  if (!summary) return <Pending what="the payment totals" state={summaryRead} />;
  return (
    <div className="page admin-payments">
      <div className="page-header">
        <h1>Payments</h1>
      </div>
      <div className="stat-row">
        <Stat
          label="Total"
          note={`net of ${amd(summary.refundedTotal)} refunded, from ${summary.confirmedCount} confirmed payment${summary.confirmedCount === 1 ? '' : 's'}`}
          testId="confirmed-total"
        >
          {amd(summary.netRevenue)}
        </Stat>
        <Stat label="Months sold">{summary.monthsSold}</Stat>
        <Stat label="All payments">{data.length}</Stat>
        {summary.owedCount > 0 && (
          <Stat
            label="Needs refund"
            note={`${summary.owedCount} paid order${summary.owedCount === 1 ? '' : 's'} whose discount another order used`}
            testId="refunds-due"
          >
            {amd(summary.owedTotal)}
          </Stat>
        )}
      </div>
      <div className="grid-2">
        <Card title="Revenue per month">
          {perMonth.length === 0 ? (
            <p className="muted">No confirmed payments yet.</p>
          ) : (
            <div className="revenue-chart" data-testid="revenue-chart">
              <ResponsiveContainer>
                <BarChart data={perMonth} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="month" fontSize={12} />
                  <YAxis fontSize={12} tickFormatter={(v: number) => v.toLocaleString('en-US')} width={70} />
                  <Tooltip formatter={(v) => [amd(Number(v)), 'Revenue']} />
                  <Bar dataKey="revenue" name="Revenue" fill="#1b7f3b" radius={[4, 4, 0, 0]} maxBarSize={56} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
        </Card>
        <PriceScheduleCard />
      </div>
      <PaymentsTable data={confirmed} title="Confirmed Payments" testId="confirmed-payments" urlKey="confirmed" showGlobal action={action} />
      <div style={{ height: '1rem' }} />
      <PaymentsTable data={data} title="All Payments" testId="all-payments" urlKey="all" showGlobal action={action} />
      {refunding && <RefundDialog key={refunding._id} payment={refunding} onClose={() => setRefunding(null)} />}
    </div>
  );
}
