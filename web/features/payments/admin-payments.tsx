import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card, Stat } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { amd, monthOf } from '../../lib/format';
import { useHistory } from './api';
import { PaymentsTable } from './payment-history';
import './payments.css';

/** /adminPayments: Total of confirmed AMD, revenue per month, Confirmed Payments and All Payments. */
export default function AdminPayments() {
  const { data } = useHistory();
  const confirmed = useMemo(() => (data ?? []).filter((p) => p.isPaymentConfirmed), [data]);
  const total = confirmed.reduce((sum, p) => sum + p.priceTotal, 0);
  const refunds = (data ?? []).filter((p) => p.status === 'Needs refund');
  const months = confirmed.reduce((sum, p) => sum + p.amount, 0);
  const perMonth = useMemo(() => {
    const byMonth = new Map<string, number>();
    for (const p of confirmed) byMonth.set(p.dateCreated.slice(0, 7), (byMonth.get(p.dateCreated.slice(0, 7)) ?? 0) + p.priceTotal);
    return [...byMonth].sort(([a], [b]) => a.localeCompare(b)).map(([key, revenue]) => ({ month: monthOf(key), revenue }));
  }, [confirmed]);
  if (!data) return <Spinner />;
  return (
    <div className="page admin-payments">
      <div className="page-header">
        <h1>Payments</h1>
      </div>
      <div className="stat-row">
        <Stat label="Total" note={`from ${confirmed.length} confirmed payment${confirmed.length === 1 ? '' : 's'}`} testId="confirmed-total">
          {amd(total)}
        </Stat>
        <Stat label="Months sold">{months}</Stat>
        <Stat label="All payments">{data.length}</Stat>
        {refunds.length > 0 && (
          <Stat
            label="Needs refund"
            note={`${refunds.length} paid order${refunds.length === 1 ? '' : 's'} whose discount another order used`}
            testId="refunds-due"
          >
            {amd(refunds.reduce((sum, p) => sum + p.priceTotal, 0))}
          </Stat>
        )}
      </div>
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
      <PaymentsTable data={confirmed} title="Confirmed Payments" testId="confirmed-payments" showGlobal />
      <div style={{ height: '1rem' }} />
      <PaymentsTable data={data} title="All Payments" testId="all-payments" showGlobal />
    </div>
  );
}
