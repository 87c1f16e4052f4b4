import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/ui/data-table';
import { amd, shortDateTime } from '../../lib/format';
import type { PaymentDto } from './api';

const STATUS_CLASS: Record<PaymentDto['status'], string> = {
  confirmed: 'pill-ok',
  Declined: 'pill-bad',
  'redirect fail': 'pill-bad',
  Canceled: 'pill-off',
  'Waiting ...': 'pill-warn',
  // Idram took the money but the order's discount had gone to another order: the admin refunds it
  'Needs refund': 'pill-bad',
};

/** The spec's status label; confirmed carries a green check. */
export function StatusLabel({ status }: { status: PaymentDto['status'] }) {
  return (
    <span className={`label-pill ${STATUS_CLASS[status]}`} data-status={status}>
      {status === 'confirmed' && (
        <span className="check" aria-hidden="true">
          ✓{' '}
        </span>
      )}
      {status}
    </span>
  );
}

const person = (p: PaymentDto['user']) =>
  p ? (
    <span className="person">
      <span>{p.name}</span>
      <span className="muted">{p.email}</span>
    </span>
  ) : (
    <span className="muted">Deleted user</span>
  );

/** A team order's agents: how many, and their names. */
const teamPeople = (items: PaymentDto['items']) => (
  <span className="person" data-testid="team-order-agents">
    <span>
      {items.length} agent{items.length === 1 ? '' : 's'}
    </span>
    <span className="muted">{items.map((i) => i.user?.name ?? 'Deleted user').join(', ')}</span>
  </span>
);

/** Months bought; an order aligned to an end date bought days. */
function bought(p: PaymentDto) {
  const days = p.items.reduce((sum, i) => sum + i.days, 0);
  if (!days) return p.amount;
  return p.amount ? `${p.amount} + ${days} days` : `${days} days`;
}

/** Payment History, Confirmed Payments and All Payments: number, type, for whom, by whom, date, months, total, status, the receipt of a confirmed one. */
export function PaymentsTable({ data, title, testId, showGlobal = false }: { data: PaymentDto[]; title: string; testId: string; showGlobal?: boolean }) {
  const columns = useMemo<ColumnDef<PaymentDto, any>[]>(
    () => [
      { id: 'index', header: '#', accessorFn: (p) => (showGlobal ? p.globalIndex : p.index) },
      { accessorKey: 'type', header: 'Type' },
      {
        id: 'user',
        header: 'For',
        accessorFn: (p) =>
          p.kind === 'team' ? p.items.map((i) => `${i.user?.name ?? ''} ${i.user?.email ?? ''}`).join(' ') : `${p.user?.name ?? ''} ${p.user?.email ?? ''}`,
        cell: ({ row }) => (row.original.kind === 'team' ? teamPeople(row.original.items) : person(row.original.user)),
      },
      {
        id: 'payer',
        header: 'Paid by',
        accessorFn: (p) => `${p.payerUser?.name ?? ''} ${p.payerUser?.email ?? ''}`,
        cell: ({ row }) => person(row.original.payerUser),
      },
      { accessorKey: 'dateCreated', header: 'Date', cell: ({ getValue }) => shortDateTime(getValue()) },
      { accessorKey: 'amount', header: 'Months', cell: ({ row }) => bought(row.original) },
      { accessorKey: 'priceTotal', header: 'Total', cell: ({ getValue }) => <span className="num">{amd(getValue())}</span> },
      { accessorKey: 'status', header: 'Status', cell: ({ row }) => <StatusLabel status={row.original.status} /> },
      {
        id: 'receipt',
        header: '',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.isPaymentConfirmed ? (
            <Link className="receipt-link" to={`/payment/receipt/${row.original._id}`} aria-label={`Receipt of order ${row.original.globalIndex}`}>
              Receipt
            </Link>
          ) : null,
      },
    ],
    [showGlobal],
  );
  return <DataTable data={data} columns={columns} emptyText="No Payments" title={title} testId={testId} />;
}
