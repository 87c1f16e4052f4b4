import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartLegend } from '../../components/ui/chart-legend';
import { dayKeyLabel } from '../../lib/format';
import type { LinkDetail } from './api';

/** People and bots per day, stacked, and unique visitors as a line. Its own chunk: recharts loads after the Link card shows. */
export default function ClicksChart({ daily }: { daily: LinkDetail['stats']['daily'] }) {
  const { t } = useTranslation();
  return (
    <ResponsiveContainer>
      <ComposedChart data={daily.map((d) => ({ ...d, day: dayKeyLabel(d.day) }))}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" fontSize={12} />
        <YAxis allowDecimals={false} fontSize={12} />
        <Tooltip />
        <Legend content={ChartLegend} />
        <Bar dataKey="people" name={t('linkDetail.chartPeople')} stackId="c" fill="#1d4ed8" isAnimationActive={false} />
        <Bar dataKey="bots" name={t('linkDetail.chartBots')} stackId="c" fill="#9fb4e0" isAnimationActive={false} />
        <Line dataKey="visitors" name={t('linkDetail.chartVisitors')} type="monotone" stroke="#d97706" strokeWidth={2} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
