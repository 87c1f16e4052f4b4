import type { ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ANALYTICS_MESSAGES, type LoginHistoryItem } from '../../../worker/analytics/analytics.schema';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ErrorText, Field } from '../../components/ui/field';
import { Card, Stat } from '../../components/ui/section';
import { Loaded } from '../../components/ui/request-state';
import { dayValue, monthDay, parseDay, shortDate } from '../../lib/format';
import { useLoginHistory } from './api';
import { ExtensionHealth } from './extension-health';
import './analytics.css';

const DAY = 86_400_000;
/** Local midnight of a date input's value, as a ms timestamp (NaN if empty or invalid). */
const startOfDay = (value: string) => parseDay(value)?.getTime() ?? Number.NaN;

const columns: ColumnDef<LoginHistoryItem, any>[] = [
  {
    id: 'email',
    header: 'Manager Email',
    accessorFn: (i) => i.manager.email,
    cell: ({ row, getValue }) => <span title={row.original.manager.name}>{getValue()}</span>,
  },
  { accessorKey: 'totalUsers', header: 'Total Agents' },
  { accessorKey: 'loggedInUsers', header: 'Logged In Agents' },
  {
    id: 'managerLoggedIn',
    header: 'Manager Login',
    accessorFn: (i) => (i.managerLoggedIn ? 'Yes' : 'No'),
    cell: ({ getValue }) => <span className={`label-pill ${getValue() === 'Yes' ? 'pill-ok' : 'pill-off'}`}>{getValue()}</span>,
  },
];

/** /analytics: From date and Load, Login History per manager, the total online and a chart of daily logins. Admin only. */
export default function Analytics() {
  const [from, setFrom] = useState(() => dayValue(new Date(Date.now() - 7 * DAY)));
  const [problem, setProblem] = useState<string | null>(null);
  const [dateFrom, setDateFrom] = useState(() => startOfDay(dayValue(new Date(Date.now() - 7 * DAY))));
  const read = useLoginHistory(dateFrom);
  const { data, isValidating, mutate } = read;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ms = startOfDay(from);
    if (!Number.isFinite(ms)) return setProblem(ANALYTICS_MESSAGES.dateFrom);
    if (ms > Date.now()) return setProblem(ANALYTICS_MESSAGES.future);
    setProblem(null);
    if (ms === dateFrom) await mutate();
    else setDateFrom(ms);
  };

  const totals = useMemo(() => {
    const items = data?.items ?? [];
    return {
      managers: items.length,
      agents: items.reduce((n, i) => n + i.totalUsers, 0),
      agentsIn: items.reduce((n, i) => n + i.loggedInUsers, 0),
      managersIn: items.filter((i) => i.managerLoggedIn).length,
    };
  }, [data]);
  const since = shortDate(new Date(dateFrom));

  return (
    <div className="page analytics-page">
      <h1>Analytics</h1>
      <Card>
        <form className="form-row" onSubmit={submit} noValidate>
          <Field label="From" type="date" value={from} max={dayValue(new Date())} onChange={(e) => setFrom(e.target.value)} />
          <Button type="submit" disabled={isValidating}>
            {isValidating ? 'Loading…' : 'Load'}
          </Button>
        </form>
        <ErrorText>{problem}</ErrorText>
      </Card>

      <Loaded what="the login history" state={read}>
        {(data) => (
          <>
            <div className="stat-row">
              <Stat label="Total online" note={`logged in since ${since}`} testId="total-online">
                {data.totalOnlineAmount}
              </Stat>
              <Stat label="Managers logged in">
                {totals.managersIn} <span className="stat-of">of {totals.managers}</span>
              </Stat>
              <Stat label="Agents logged in">
                {totals.agentsIn} <span className="stat-of">of {totals.agents}</span>
              </Stat>
            </div>
            <Card title="Daily logins">
              <div className="analytics-chart" data-testid="daily-logins-chart">
                <ResponsiveContainer>
                  <ComposedChart data={data.daily.map((d) => ({ ...d, label: monthDay(parseDay(d.day)!) }))}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="label" fontSize={12} minTickGap={16} />
                    <YAxis allowDecimals={false} fontSize={12} />
                    <Tooltip />
                    <Legend />
                    <Bar dataKey="logins" name="Logins" fill="#1d4ed8" isAnimationActive={false} />
                    <Line dataKey="users" name="Users" stroke="#f47b20" strokeWidth={2} dot={false} isAnimationActive={false} />
                  </ComposedChart>
                </ResponsiveContainer>
              </div>
            </Card>
            <DataTable data={data.items} columns={columns} emptyText="No managers" title="Login History" testId="login-history" />
          </>
        )}
      </Loaded>
      <ExtensionHealth />
    </div>
  );
}
