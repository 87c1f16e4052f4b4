import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartLegend } from '../../components/ui/chart-legend';
import { monthDay, parseDay } from '../../lib/format';
import type { HistoryPageView } from './api';

/** Beyond the spec: a small bar chart of contacts per day for the loaded range. */
export default function ContactsChart({ perDay }: { perDay: HistoryPageView['perDay'] }) {
  const { t } = useTranslation();
  // the server's days are the browser's calendar days (it sends its time zone)
  const data = useMemo(() => perDay.map((d) => ({ ...d, label: monthDay(parseDay(d.date)!) })), [perDay]);
  return (
    <div className="history-chart" data-testid="contacts-chart">
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" fontSize={12} interval="preserveStartEnd" minTickGap={12} />
          <YAxis allowDecimals={false} fontSize={12} />
          <Tooltip />
          <Legend content={ChartLegend} />
          <Bar dataKey="calls" name={t('historyTable.phoneCalls')} stackId="c" fill="#1d4ed8" isAnimationActive={false} />
          <Bar dataKey="emails" name={t('historyTable.emails')} stackId="c" fill="#7fa3ef" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
