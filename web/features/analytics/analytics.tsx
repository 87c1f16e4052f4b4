import type { ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LoginHistoryItem } from '../../../worker/analytics/analytics.schema';
import { Button } from '../../components/ui/button';
import { ChartLegend } from '../../components/ui/chart-legend';
import { DataTable } from '../../components/ui/data-table';
import { DateField } from '../../components/ui/date-input';
import { ErrorText } from '../../components/ui/field';
import { Loaded } from '../../components/ui/request-state';
import { Card, Stat } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-analytics.json';
import { dayValue, monthDay, parseDay, shortDate } from '../../lib/format';
import { ExtensionHealth } from './extension-health';
import { useLoginHistoryPageView } from './use-login-history-page';
import './analytics.css';

// this screen's English texts (its own chunk)
addEnglish(english);

const DAY = 86_400_000;
/** Local midnight of a date input's value, as a ms timestamp (NaN if empty or invalid). */
const startOfDay = (value: string) => parseDay(value)?.getTime() ?? Number.NaN;

/** What the From date's check found, as a catalogue key (English: the API's own words, worker/analytics/analytics.schema.ts). */
type Problem = 'analytics.badDate' | 'analytics.futureDate';

/** /analytics: From date and Load, Login History per manager, the total online and a chart of daily logins. Admin only. */
export default function Analytics() {
  const { t } = useTranslation();
  // every column sorts on the server (docs/decisions/0187-paged-fan-out.md)
  const columns = useMemo<ColumnDef<LoginHistoryItem, any>[]>(
    () =>
      [
        {
          id: 'email',
          header: t('analytics.colManagerEmail'),
          accessorFn: (i) => i.manager.email,
          cell: ({ row, getValue }) => <span title={row.original.manager.name}>{getValue()}</span>,
        },
        { accessorKey: 'totalUsers', header: t('analytics.colTotalAgents') },
        { accessorKey: 'loggedInUsers', header: t('analytics.colLoggedInAgents') },
        {
          id: 'managerLoggedIn',
          header: t('analytics.colManagerLogin'),
          accessorFn: (i) => (i.managerLoggedIn ? t('analytics.yes') : t('analytics.no')),
          cell: ({ row, getValue }) => <span className={`label-pill ${row.original.managerLoggedIn ? 'pill-ok' : 'pill-off'}`}>{getValue()}</span>,
        },
      ] satisfies ColumnDef<LoginHistoryItem, any>[],
    [t],
  );
  const [from, setFrom] = useState(() => dayValue(new Date(Date.now() - 7 * DAY)));
  const [problem, setProblem] = useState<Problem | null>(null);
  const [dateFrom, setDateFrom] = useState(() => startOfDay(dayValue(new Date(Date.now() - 7 * DAY))));
  // every manager of every company: a page at a time, in e-mail order (the server's only order)
  const paged = useLoginHistoryPageView(dateFrom);
  const loading = paged.busy || (paged.state.isLoading && !paged.page);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ms = startOfDay(from);
    if (!Number.isFinite(ms)) return setProblem('analytics.badDate');
    if (ms > Date.now()) return setProblem('analytics.futureDate');
    setProblem(null);
    if (ms === dateFrom) paged.reload();
    else setDateFrom(ms);
  };

  const since = shortDate(new Date(dateFrom));

  return (
    <div className="page analytics-page">
      <h1>{t('analytics.title')}</h1>
      <Card>
        <form className="form-row" onSubmit={submit} noValidate>
          <DateField label={t('analytics.from')} value={from} max={dayValue(new Date())} onChange={setFrom} />
          <Button type="submit" disabled={loading}>
            {loading ? t('analytics.loading') : t('analytics.load')}
          </Button>
        </form>
        <ErrorText>{problem ? t(problem) : null}</ErrorText>
      </Card>

      <Loaded what={t('analytics.what')} state={paged.state}>
        {(data) => (
          <>
            <div className="stat-row">
              <Stat label={t('analytics.totalOnline')} note={t('analytics.since', { date: since })} testId="total-online">
                {data.totalOnlineAmount}
              </Stat>
              <Stat label={t('analytics.managersIn')}>
                {data.managersIn} <span className="stat-of">{t('analytics.of', { total: data.managers })}</span>
              </Stat>
              <Stat label={t('analytics.agentsIn')}>
                {data.agentsIn} <span className="stat-of">{t('analytics.of', { total: data.agents })}</span>
              </Stat>
            </div>
            <Card title={t('analytics.daily')}>
              <div className="analytics-chart" data-testid="daily-logins-chart">
                <ResponsiveContainer>
                  <ComposedChart data={(paged.daily ?? []).map((d) => ({ ...d, label: monthDay(parseDay(d.day)!) }))}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="label" fontSize={12} minTickGap={16} />
                    <YAxis allowDecimals={false} fontSize={12} />
                    <Tooltip />
                    <Legend content={ChartLegend} />
                    <Bar dataKey="logins" name={t('analytics.logins')} fill="#1d4ed8" isAnimationActive={false} />
                    <Line dataKey="users" name={t('analytics.users')} stroke="#f47b20" strokeWidth={2} dot={false} isAnimationActive={false} />
                  </ComposedChart>
                </ResponsiveContainer>
              </div>
            </Card>
            <DataTable
              data={data.items}
              columns={columns}
              emptyText={t('analytics.noManagers')}
              title={t('analytics.history')}
              testId="login-history"
              busy={paged.busy}
              server={{ total: data.managers, shown: data.total }}
            />
          </>
        )}
      </Loaded>
      <ExtensionHealth />
    </div>
  );
}
