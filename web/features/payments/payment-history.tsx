import type { ColumnDef } from '@tanstack/react-table';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ConfirmDialog } from '../../components/ui/dialog';
import { amd, shortDateTime, timeOfDay } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { cancelOrder, HISTORY_KEY, type PaymentDto } from './api';
import { bought } from './order-text';

const STATUS_CLASS: Record<PaymentDto['status'], string> = {
  confirmed: 'pill-ok',
  Declined: 'pill-bad',
  'redirect fail': 'pill-bad',
  Canceled: 'pill-off',
  // not paid within the order's lifetime (docs/decisions/0020-order-expiry.md)
  Expired: 'pill-off',
  'Waiting ...': 'pill-warn',
  // still open on Idram's page: the order has not expired yet
  'Waiting for payment': 'pill-warn',
  // Idram took the money but the order's discount had gone to another order: the admin refunds it
  'Needs refund': 'pill-bad',
  // every dram given back by the admin
  Refunded: 'pill-off',
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

const monthsBackText = (n: number) => (n ? `, ${n} month${n === 1 ? '' : 's'} taken back` : '');

/** Payment History's Cancel for the payer's order still waiting for payment (asks first). */
export function CancelOrderButton({ payment }: { payment: PaymentDto }) {
  const [asking, setAsking] = useState(false);
  const { loading, run } = useRequest();
  if (!payment.canCancel) return null;
  const confirm = async () => {
    await run(() => cancelOrder(payment._id), { success: `Order #${payment.globalIndex} canceled` });
    setAsking(false);
    // after a refused Cancel too (paid or expired meanwhile): the row shows the order as it now is
    await mutate(HISTORY_KEY);
  };
  return (
    <>
      <Button className="btn-sm" variant="secondary" onClick={() => setAsking(true)} aria-label={`Cancel order ${payment.globalIndex}`}>
        Cancel order
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Cancel order #${payment.globalIndex}?`}
        message={`Idram will refuse this order from now on. If you have just paid it on Idram's page, the payment still counts.`}
        confirmLabel="Cancel order"
        dismissLabel="Keep the order"
        onConfirm={confirm}
        busy={loading}
      />
    </>
  );
}

/** Payment History, Confirmed Payments and All Payments: number, type, for whom, by whom, date, months, total, status, the receipt of a confirmed one. */
export function PaymentsTable({
  data,
  title,
  testId,
  urlKey,
  action,
}: {
  data: PaymentDto[];
  title: string;
  testId: string;
  /** The table's prefix in the query string, when its screen has more than one table. */
  urlKey?: string;
  /** A row's own button (Admin payments: Refund). */
  action?: (p: PaymentDto) => ReactNode;
}) {
  const columns = useMemo<ColumnDef<PaymentDto, any>[]>(
    () => [
      // one order number everywhere: the one its receipt and the receipt mail show
      { id: 'index', header: '#', accessorFn: (p) => p.globalIndex },
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
      { accessorKey: 'amount', header: 'Months', cell: ({ row }) => <span data-testid="bought">{bought(row.original)}</span> },
      {
        accessorKey: 'priceTotal',
        header: 'Total',
        cell: ({ row }) => (
          <span className="num">
            {amd(row.original.priceTotal)}
            {row.original.refunds.length > 0 && (
              <span className="muted refund-note" data-testid="refund-note">
                {row.original.refunded > 0 ? `−${amd(row.original.refunded)} refunded` : 'refunded'}
                {monthsBackText(row.original.refunds.reduce((sum, r) => sum + r.monthsRemoved, 0))}
              </span>
            )}
          </span>
        ),
      },
      {
        accessorKey: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <span className="status-cell">
            <StatusLabel status={row.original.status} />
            {row.original.expiresAt && <span className="muted">until {timeOfDay(row.original.expiresAt)}</span>}
          </span>
        ),
      },
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
      ...(action ? [{ id: 'action', header: '', enableSorting: false, cell: ({ row }: { row: { original: PaymentDto } }) => action(row.original) }] : []),
    ],
    [action],
  );
  return <DataTable data={data} columns={columns} emptyText="No Payments" title={title} testId={testId} urlKey={urlKey} />;
}
