import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { amd, useHistory } from './api';
import { PaymentsTable } from './payment-history';

/** /adminPayments: total of confirmed AMD, revenue per month, Confirmed Payments and All Payments. */
export default function AdminPayments() {
  const { data } = useHistory();
  const confirmed = useMemo(() => (data ?? []).filter((p) => p.isPaymentConfirmed), [data]);
  const total = confirmed.reduce((sum, p) => sum + p.priceTotal, 0);
  const perMonth = useMemo(() => {
    const months = new Map<string, number>();
    for (const p of confirmed) {
      const key = p.dateCreated.slice(0, 7);
      months.set(key, (months.get(key) ?? 0) + p.priceTotal);
    }
    return [...months].sort(([a], [b]) => a.localeCompare(b)).map(([month, amd]) => ({ month, amd }));
  }, [confirmed]);
  if (!data) return <Spinner />;
  return (
    <div className="page">
      <h1>Payments</h1>
      <div className="stat-row">
        <div className="stat" data-testid="confirmed-total">
          <span className="stat-label">Total</span>
          <strong>{amd(total)}</strong>
          <span className="muted">{confirmed.length} confirmed payments</span>
        </div>
      </div>
      <Card title="Revenue per month">
        {perMonth.length === 0 ? (
          <p className="muted">No confirmed payments yet.</p>
        ) : (
          <div style={{ width: '100%', height: 220 }}>
            <ResponsiveContainer>
              <BarChart data={perMonth}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="month" fontSize={12} />
                <YAxis fontSize={12} />
                <Tooltip formatter={(v) => amd(Number(v))} />
                <Bar dataKey="amd" name="AMD" fill="#1b7f3b" isAnimationActive={false} />
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
