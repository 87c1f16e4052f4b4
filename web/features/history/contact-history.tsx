import type { ColumnDef } from '@tanstack/react-table';
import { Popover, Switch } from 'radix-ui';
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import { DayPicker } from 'react-day-picker';
import { Link } from 'react-router';
import 'react-day-picker/style.css';
import { pickedRangeError, rangeToQuery } from '../../../worker/history/history.schema';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import {
  dayText,
  download,
  type HistoryRowDto,
  historyCsv,
  loadDateText,
  loadHistory,
  picksManager,
  shortDay,
  timeText,
  useHistoryMcs,
  useManagers,
  useTeamUsers,
} from './api';
import './history.css';

const ContactsChart = lazy(() => import('./contacts-chart'));

interface Range {
  from?: Date;
  to?: Date;
}
interface Loaded {
  rows: HistoryRowDto[];
  from: Date;
  to: Date;
}

const startOfToday = () => {
  const d = new Date();
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
};
const daysAgo = (n: number) => {
  const d = startOfToday();
  d.setDate(d.getDate() - n);
  return d;
};
/** A Date as the value of an `<input type="date">`, in local time. */
const inputValue = (d: Date | undefined) =>
  d ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}` : '';
const fromInput = (value: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
};

const PRESETS = [
  ['Today', 0],
  ['Last 7 days', 6],
  ['Last 30 days', 29],
  ['Last 40 days', 39],
] as const;

/** A checklist with an All box; `excluded` holds the unchecked ids, so new members start checked. */
function Checklist(props: {
  legend: string;
  allLabel: string;
  items: { id: string; label: string }[];
  excluded: Set<string>;
  onChange: (excluded: Set<string>) => void;
  emptyText: string;
}) {
  const { items, excluded } = props;
  const allChecked = items.length > 0 && excluded.size === 0;
  const toggle = (id: string, checked: boolean) => {
    const next = new Set(excluded);
    if (checked) next.delete(id);
    else next.add(id);
    props.onChange(next);
  };
  return (
    <fieldset className="group-box history-group" aria-label={props.legend}>
      <legend>{props.legend}</legend>
      {items.length === 0 ? (
        <span className="muted">{props.emptyText}</span>
      ) : (
        <>
          <label className="check-all">
            <input type="checkbox" checked={allChecked} onChange={(e) => props.onChange(e.target.checked ? new Set() : new Set(items.map((i) => i.id)))} />
            {props.allLabel}
          </label>
          <div className="history-checks">
            {items.map((item) => (
              <label key={item.id}>
                <input type="checkbox" checked={!excluded.has(item.id)} onChange={(e) => toggle(item.id, e.target.checked)} />
                {item.label}
              </label>
            ))}
          </div>
        </>
      )}
    </fieldset>
  );
}

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="toggle">
      <Switch.Root id={id} className="switch" checked={checked} onCheckedChange={onChange}>
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** Contact History (/callHistory): the spec's filters, Load, and the result table; a chart and CSV beyond it. */
export default function ContactHistory() {
  const session = useSession();
  const role = session?.userType;
  const isAgent = role === 'agent';
  const picks = picksManager(role);
  const ids = { from: useId(), to: useId(), manager: useId() };

  const [range, setRange] = useState<Range>({ from: daysAgo(6), to: startOfToday() });
  const [pickedManager, setPickedManager] = useState<string | null>(null);
  const managers = useManagers(picks);
  const managerId = role === 'manager' ? (session?.userId ?? null) : picks ? (pickedManager ?? managers.data?.[0]?._id ?? null) : null;
  const team = useTeamUsers(role, managerId);
  const mcs = useHistoryMcs(role, session?.userId, managerId);
  const [excludedUsers, setExcludedUsers] = useState<Set<string>>(new Set());
  const [excludedMcs, setExcludedMcs] = useState<Set<string>>(new Set());
  const [phoneLogs, setPhoneLogs] = useState(true);
  const [emailLogs, setEmailLogs] = useState(true);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [calendarOpen, setCalendarOpen] = useState(false);
  const { loading, run } = useRequest();

  // another manager's team: its users and MCs, and nothing loaded yet
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset runs when the picked manager changes
  useEffect(() => {
    setExcludedUsers(new Set());
    setExcludedMcs(new Set());
    setLoaded(null);
  }, [managerId]);

  const userItems = useMemo(() => (team.data ?? []).map((u) => ({ id: u._id, label: u.userType === 'manager' ? `${u.name} (manager)` : u.name })), [team.data]);
  const mcItems = useMemo(() => (mcs.data ?? []).map((mc) => ({ id: mc._id, label: mc.name })), [mcs.data]);

  const rangeError = pickedRangeError(range.from, range.to);
  const noUsers = !isAgent && userItems.length > 0 && excludedUsers.size >= userItems.length;
  const noMcs = mcItems.length > 0 && excludedMcs.size >= mcItems.length;
  const noKinds = !phoneLogs && !emailLogs;
  const waitingForManager = picks && !managerId;
  const canLoad = !rangeError && !noUsers && !noMcs && !noKinds && !waitingForManager && !loading;

  const load = async () => {
    if (!canLoad || !range.from || !range.to) return;
    const { from, to } = range;
    // everything checked is sent as "all" (empty list): rows of former members and removed MCs stay in
    const usersList = isAgent || excludedUsers.size === 0 ? [] : userItems.filter((u) => !excludedUsers.has(u.id)).map((u) => u.id);
    const mcList = excludedMcs.size === 0 ? [] : mcItems.filter((m) => !excludedMcs.has(m.id)).map((m) => m.id);
    const rows = await run(() => loadHistory({ usersList, mcList, phoneLogs, emailLogs, managerId, ...rangeToQuery(from, to) }));
    if (rows) setLoaded({ rows, from, to });
  };

  const exportCsv = () => {
    if (!loaded) return;
    const name = `contact-history-${inputValue(loaded.from)}-to-${inputValue(loaded.to)}.csv`;
    download(name, historyCsv(loaded.rows));
  };

  const columns = useMemo<ColumnDef<HistoryRowDto, any>[]>(
    () => [
      { id: 'agent', header: 'Agent', accessorFn: (r) => r.parent.name },
      { accessorKey: 'mcName', header: 'MC' },
      {
        accessorKey: 'brokerName',
        header: 'Company',
        filterFn: 'equalsString',
        meta: { filter: 'select' },
        cell: ({ row }) => (
          <div className="company-cell">
            <span>{row.original.brokerName}</span>
            <span
              className={`contact-line kind-${row.original.kind}`}
              title={`${row.original.kind === 'call' ? 'Phone call' : 'Email'}: ${row.original.contact}`}
            >
              <span aria-hidden="true">{row.original.kind === 'call' ? '☎' : '✉'}</span> {row.original.contact}
            </span>
          </div>
        ),
      },
      { accessorKey: 'address', header: 'Address' },
      { accessorKey: 'origin', header: 'Origin' },
      { accessorKey: 'dest', header: 'Destination' },
      { accessorKey: 'loadDate', header: 'Load Date', cell: ({ getValue }) => <span className="nowrap">{loadDateText(getValue())}</span> },
      {
        accessorKey: 'callDate',
        header: 'Contact Date',
        cell: ({ getValue }) => (
          <span className="date-cell">
            <span>{dayText(getValue())}</span>
            <span className="muted time">{timeText(getValue())}</span>
          </span>
        ),
      },
    ],
    [],
  );

  const calls = loaded ? loaded.rows.filter((r) => r.kind === 'call').length : 0;

  return (
    <div className="page contact-history">
      <div className="page-header">
        <h1>Contact History</h1>
        {(role === 'manager' || role === 'agent') && (
          <Link className="btn btn-secondary" to="/activeLoads">
            {role === 'manager' ? "Team's active loads" : 'My active loads'}
          </Link>
        )}
      </div>
      <Card>
        <form
          className="history-form"
          aria-label="Contact History filters"
          onSubmit={(e) => {
            e.preventDefault();
            void load();
          }}
          noValidate
        >
          <div className="history-row">
            <div className="field date-field">
              <label htmlFor={ids.from}>From</label>
              <input id={ids.from} type="date" value={inputValue(range.from)} onChange={(e) => setRange({ ...range, from: fromInput(e.target.value) })} />
            </div>
            <div className="field date-field">
              <label htmlFor={ids.to}>To</label>
              <input id={ids.to} type="date" value={inputValue(range.to)} onChange={(e) => setRange({ ...range, to: fromInput(e.target.value) })} />
            </div>
            <Popover.Root open={calendarOpen} onOpenChange={setCalendarOpen}>
              <Popover.Trigger asChild>
                <Button variant="secondary" className="calendar-button" aria-label="Pick dates on a calendar">
                  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                    <rect x="3" y="5" width="18" height="16" rx="2" />
                    <path d="M16 3v4M8 3v4M3 10h18" />
                  </svg>
                  Calendar
                </Button>
              </Popover.Trigger>
              <Popover.Portal>
                <Popover.Content className="calendar-popover" align="start" sideOffset={6}>
                  <DayPicker
                    mode="range"
                    numberOfMonths={2}
                    selected={range.from ? { from: range.from, to: range.to } : undefined}
                    onSelect={(r) => setRange({ from: r?.from, to: r?.to })}
                    defaultMonth={range.to ? new Date(range.to.getFullYear(), range.to.getMonth() - 1, 1) : undefined}
                    weekStartsOn={1}
                  />
                  <div className="calendar-footer">
                    <span className="muted">
                      {range.from && range.to ? `${shortDay(range.from)} – ${shortDay(range.to)}` : 'Pick the first and the last day'}
                    </span>
                    <Button variant="primary" className="btn-sm" onClick={() => setCalendarOpen(false)}>
                      Done
                    </Button>
                  </div>
                </Popover.Content>
              </Popover.Portal>
            </Popover.Root>
            <div className="presets" role="group" aria-label="Quick ranges">
              {PRESETS.map(([label, n]) => (
                <button key={label} type="button" className="btn btn-link" onClick={() => setRange({ from: daysAgo(n), to: startOfToday() })}>
                  {label}
                </button>
              ))}
            </div>
          </div>
          <ErrorText>{rangeError}</ErrorText>

          {picks && (
            <div className="field manager-field">
              <label htmlFor={ids.manager}>Manager</label>
              <select id={ids.manager} value={managerId ?? ''} onChange={(e) => setPickedManager(e.target.value || null)} disabled={!managers.data?.length}>
                {!managers.data?.length && <option value="">{managers.isLoading ? 'Loading…' : 'No managers'}</option>}
                {managers.data?.map((m) => (
                  <option key={m._id} value={m._id}>
                    {m.name} ({m.email})
                  </option>
                ))}
              </select>
            </div>
          )}

          <div className="history-row groups">
            {!isAgent && (
              <Checklist
                legend="Users"
                allLabel="All users"
                items={userItems}
                excluded={excludedUsers}
                onChange={setExcludedUsers}
                emptyText={team.isLoading ? 'Loading…' : 'No users'}
              />
            )}
            <Checklist
              legend="MC"
              allLabel="All MC"
              items={mcItems}
              excluded={excludedMcs}
              onChange={setExcludedMcs}
              emptyText={mcs.isLoading ? 'Loading…' : 'No MCs yet'}
            />
          </div>

          <div className="history-row history-actions">
            <Toggle label="Phone Calls" checked={phoneLogs} onChange={setPhoneLogs} />
            <Toggle label="Emails" checked={emailLogs} onChange={setEmailLogs} />
            <span className="muted hint">
              {noUsers ? 'Select at least one user' : noMcs ? 'Select at least one MC' : noKinds ? 'Turn on Phone Calls or Emails' : ''}
            </span>
            <Button type="submit" disabled={!canLoad}>
              {loading ? 'Loading…' : 'Load'}
            </Button>
          </div>
        </form>
      </Card>

      {loading && <Spinner label="Loading contacts" />}

      {loaded && !loading && loaded.rows.length > 0 && (
        <Card
          title="Contacts per day"
          actions={
            <div className="chart-stats">
              <span>
                Phone Calls <strong data-testid="calls-count">{calls}</strong>
              </span>
              <span>
                Emails <strong data-testid="emails-count">{loaded.rows.length - calls}</strong>
              </span>
            </div>
          }
        >
          <Suspense fallback={<div className="history-chart" />}>
            <ContactsChart rows={loaded.rows} from={loaded.from} to={loaded.to} />
          </Suspense>
        </Card>
      )}

      {!loading && (
        <DataTable
          data={loaded?.rows ?? []}
          columns={columns}
          testId="history-table"
          title={<span data-testid="history-total">Total: {loaded?.rows.length ?? 0}</span>}
          emptyText={loaded ? 'No contacts in this range' : 'Pick the dates and press Load'}
          toolbar={
            <Button variant="secondary" onClick={exportCsv} disabled={!loaded?.rows.length}>
              Export CSV
            </Button>
          }
        />
      )}
    </div>
  );
}
