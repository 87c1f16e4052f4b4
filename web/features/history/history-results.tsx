import type { ColumnDef } from '@tanstack/react-table';
import { lazy, Suspense } from 'react';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { Card } from '../../components/ui/section';
import { loadDateText, shortDate, timeOfDay } from '../../lib/format';
import { formatBoardPhone } from '../../../worker/lib/phone';
import type { HistoryRowDto } from './api';

const ContactsChart = lazy(() => import('./contacts-chart'));

/** A call's number as people write it (stored as E.164 with `;ext=`: "+1 312 555 0142 ext. 12"); an e-mail as it is. */
const contactText = (r: HistoryRowDto) => (r.kind === 'call' ? formatBoardPhone(r.contact) : r.contact);

const columns: ColumnDef<HistoryRowDto, any>[] = [
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

/** Contacts per day with the two counts, over the loaded range. */
export function ContactsPerDay({ rows, from, to }: { rows: HistoryRowDto[]; from: Date; to: Date }) {
  const calls = rows.filter((r) => r.kind === 'call').length;
  return (
    <Card
      title="Contacts per day"
      actions={
        <div className="chart-stats">
          <span>
            Phone Calls <strong data-testid="calls-count">{calls}</strong>
          </span>
          <span>
            Emails <strong data-testid="emails-count">{rows.length - calls}</strong>
          </span>
        </div>
      }
    >
      <Suspense fallback={<div className="history-chart" />}>
        <ContactsChart rows={rows} from={from} to={to} />
      </Suspense>
    </Card>
  );
}

/** The result table (Total: n), with Export CSV. */
export function HistoryTable({ rows, onExport }: { rows: HistoryRowDto[] | null; onExport: () => void }) {
  return (
    <DataTable
      data={rows ?? []}
      columns={columns}
      testId="history-table"
      title={<span data-testid="history-total">Total: {rows?.length ?? 0}</span>}
      emptyText={rows ? 'No contacts in this range' : 'Pick the dates and press Load'}
      toolbar={
        <Button variant="secondary" onClick={onExport} disabled={!rows?.length}>
          Export CSV
        </Button>
      }
    />
  );
}
