import type { ColumnDef } from '@tanstack/react-table';
import { lazy, Suspense } from 'react';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { Card } from '../../components/ui/section';
import { loadDateText, phoneText, shortDate, timeOfDay } from '../../lib/format';
import type { HistoryPageView, HistoryRowDto } from './api';

const ContactsChart = lazy(() => import('./contacts-chart'));

/** A call's number as people write it (stored as E.164 with `;ext=`: "+1 312 555 0142 ext. 12"); an e-mail as it is. */
const contactText = (r: HistoryRowDto) => (r.kind === 'call' ? phoneText(r.contact) : r.contact);

const columns: ColumnDef<HistoryRowDto, any>[] = [
  { id: 'agent', header: 'Agent', accessorFn: (r) => r.parent.name },
  {
    accessorKey: 'mcName',
    header: 'MC',
    // the line the contact was made on and, for a call, the number the broker saw calling
    cell: ({ row }) => {
      const { mcName, line, fromNumber } = row.original;
      if (!line) return mcName;
      const from = fromNumber ? phoneText(fromNumber) : '';
      return (
        <div className="company-cell">
          <span>{mcName}</span>
          <span className="contact-line" title={from ? `Line ${line}, calling from ${from}` : `Line ${line}`} data-testid="history-line">
            L{line}
            {from && ` · ${from}`}
          </span>
        </div>
      );
    },
  },
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
          title={`${row.original.kind === 'call' ? 'Phone call' : 'Email'}: ${contactText(row.original)}`}
        >
          <span aria-hidden="true">{row.original.kind === 'call' ? '☎' : '✉'}</span> {contactText(row.original)}
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
        <span>{shortDate(getValue())}</span>
        <span className="muted time">{timeOfDay(getValue())}</span>
      </span>
    ),
  },
];

/** Contacts per day with the two counts, over the loaded range (the server's per-day counts). */
export function ContactsPerDay({ perDay }: { perDay: HistoryPageView['perDay'] }) {
  let calls = 0;
  let emails = 0;
  for (const day of perDay) {
    calls += day.calls;
    emails += day.emails;
  }
  return (
    <Card
      title="Contacts per day"
      actions={
        <div className="chart-stats">
          <span>
            Phone Calls <strong data-testid="calls-count">{calls}</strong>
          </span>
          <span>
            Emails <strong data-testid="emails-count">{emails}</strong>
          </span>
        </div>
      }
    >
      <Suspense fallback={<div className="history-chart" />}>
        <ContactsChart perDay={perDay} />
      </Suspense>
    </Card>
  );
}

/**
 * The result table (Total: n), with Export CSV: the server searches, filters by Company, sorts
 * and pages (the table keeps its URL keys); the export is the whole view, streamed by the server.
 */
export function HistoryTable(props: { page: HistoryPageView | null; busy: boolean; emptyText: string; onExport: () => void; exporting: boolean }) {
  const { page } = props;
  return (
    <DataTable
      data={page?.rows ?? []}
      columns={columns}
      testId="history-table"
      busy={props.busy}
      server={{ total: page?.total ?? 0, shown: page?.filteredTotal ?? 0, filterOptions: { brokerName: page?.companies ?? [] } }}
      title={<span data-testid="history-total">Total: {page?.total ?? 0}</span>}
      emptyText={props.emptyText}
      toolbar={
        <Button variant="secondary" onClick={props.onExport} disabled={!page?.filteredTotal || props.exporting}>
          {props.exporting ? 'Exporting…' : 'Export CSV'}
        </Button>
      }
    />
  );
}
