import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BOARD_NAMES } from '../../../worker/history/boards';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { Card } from '../../components/ui/section';
import { loadDateText, phoneText, shortDate, timeOfDay } from '../../lib/format';
import type { HistoryPageView, HistoryRowDto } from './api';

const ContactsChart = lazy(() => import('./contacts-chart'));

/** A call's number as people write it (stored as E.164 with `;ext=`: "+1 312 555 0142 ext. 12"); an e-mail as it is. */
const contactText = (r: HistoryRowDto) => (r.kind === 'call' ? phoneText(r.contact) : r.contact);

/** The table's columns, with their headers in the user's language. */
const columnsFor = (t: TFunction): ColumnDef<HistoryRowDto, any>[] => [
  { id: 'agent', header: t('historyTable.agent'), accessorFn: (r) => r.parent.name },
  {
    accessorKey: 'mcName',
    header: t('historyTable.mc'),
    // the line the contact was made on and, for a call, the number the broker saw calling
    cell: ({ row }) => {
      const { mcName, line, fromNumber } = row.original;
      if (!line) return mcName;
      const from = fromNumber ? phoneText(fromNumber) : '';
      return (
        <div className="company-cell">
          <span>{mcName}</span>
          <span
            className="contact-line"
            title={from ? t('historyTable.lineFrom', { line, from }) : t('historyTable.line', { line })}
            data-testid="history-line"
          >
            {t('historyTable.lineShort', { line })}
            {from && ` · ${from}`}
          </span>
        </div>
      );
    },
  },
  {
    accessorKey: 'brokerName',
    header: t('historyTable.company'),
    filterFn: 'equalsString',
    meta: { filter: 'select' },
    cell: ({ row }) => (
      <div className="company-cell">
        <span>{row.original.brokerName}</span>
        <span
          className={`contact-line kind-${row.original.kind}`}
          title={
            row.original.kind === 'call'
              ? t('historyTable.call', { contact: contactText(row.original) })
              : t('historyTable.email', { contact: contactText(row.original) })
          }
        >
          <span aria-hidden="true">{row.original.kind === 'call' ? '☎' : '✉'}</span> {contactText(row.original)}
          <span className="board-tag" title={t('historyTable.onBoard', { board: BOARD_NAMES[row.original.board] })} data-testid="history-board">
            {' · '}
            {BOARD_NAMES[row.original.board]}
          </span>
        </span>
      </div>
    ),
  },
  { accessorKey: 'address', header: t('historyTable.address') },
  { accessorKey: 'origin', header: t('historyTable.origin') },
  { accessorKey: 'dest', header: t('historyTable.destination') },
  { accessorKey: 'loadDate', header: t('historyTable.loadDate'), cell: ({ getValue }) => <span className="nowrap">{loadDateText(getValue())}</span> },
  {
    accessorKey: 'callDate',
    header: t('historyTable.contactDate'),
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
  const { t } = useTranslation();
  let calls = 0;
  let emails = 0;
  for (const day of perDay) {
    calls += day.calls;
    emails += day.emails;
  }
  return (
    <Card
      title={t('historyTable.perDay')}
      actions={
        <div className="chart-stats">
          <span>
            {t('historyTable.phoneCalls')} <strong data-testid="calls-count">{calls}</strong>
          </span>
          <span>
            {t('historyTable.emails')} <strong data-testid="emails-count">{emails}</strong>
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
  const { t } = useTranslation();
  const columns = useMemo(() => columnsFor(t), [t]);
  const { page } = props;
  return (
    <DataTable
      data={page?.rows ?? []}
      columns={columns}
      testId="history-table"
      busy={props.busy}
      server={{ total: page?.total ?? 0, shown: page?.filteredTotal ?? 0, filterOptions: { brokerName: page?.companies ?? [] } }}
      // nothing loaded yet is no count: "—", never 0 (decision 0018)
      title={<span data-testid="history-total">{t('historyTable.total', { total: page ? page.total : '—' })}</span>}
      emptyText={props.emptyText}
      toolbar={
        <Button variant="secondary" onClick={props.onExport} disabled={!page?.filteredTotal || props.exporting}>
          {props.exporting ? t('historyTable.exporting') : t('historyTable.export')}
        </Button>
      }
    />
  );
}
