import type { ColumnDef } from '@tanstack/react-table';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ConfirmDialog } from '../../components/ui/dialog';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { amd, shortDateTime, timeOfDay } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { cancelOrder, HISTORY_KEY, type PaymentDto } from './api';
import { agentsText, bought, monthsBackText } from './order-text';

// Payment History is on Payment and Admin payments: the part's English, whichever loads first
addEnglish(english);

type T = (key: string, options?: Record<string, unknown>) => string;

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

/** Each status's words as a catalogue key (English: the spec's labels as the API answers them). */
const STATUS_TEXT: Record<PaymentDto['status'], string> = {
  confirmed: 'payHistory.statusConfirmed',
  Declined: 'payHistory.statusDeclined',
  'redirect fail': 'payHistory.statusRedirectFail',
  Canceled: 'payHistory.statusCanceled',
  Expired: 'payHistory.statusExpired',
  'Waiting ...': 'payHistory.statusWaiting',
  'Waiting for payment': 'payHistory.statusWaitingPayment',
  'Needs refund': 'payHistory.statusNeedsRefund',
  Refunded: 'payHistory.statusRefunded',
};

/** The spec's status label; confirmed carries a green check. */
export function StatusLabel({ status }: { status: PaymentDto['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={`label-pill ${STATUS_CLASS[status]}`} data-status={status}>
      {status === 'confirmed' && (
        <span className="check" aria-hidden="true">
          ✓{' '}
        </span>
      )}
      {STATUS_TEXT[status] ? t(STATUS_TEXT[status]) : status}
    </span>
  );
}

const person = (t: T, p: PaymentDto['user']) =>
  p ? (
    <span className="person">
      <span>{p.name}</span>
      <span className="muted">{p.email}</span>
    </span>
  ) : (
    <span className="muted">{t('payHistory.deletedUser')}</span>
  );

/** A team order's agents: how many, and their names. */
const teamPeople = (t: T, items: PaymentDto['items']) => (
  <span className="person" data-testid="team-order-agents">
    <span>{agentsText(items.length)}</span>
    <span className="muted">{items.map((i) => i.user?.name ?? t('payHistory.deletedUser')).join(', ')}</span>
  </span>
);

/** ", 2 months taken back" after a refund's amount, or nothing. */
const monthsBackNote = (n: number) => (n ? `, ${monthsBackText(n)}` : '');

/** Payment History's Cancel for the payer's order still waiting for payment (asks first). */
export function CancelOrderButton({ payment }: { payment: PaymentDto }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const { loading, run } = useRequest();
  if (!payment.canCancel) return null;
  const confirm = async () => {
    await run(() => cancelOrder(payment._id), { success: t('payHistory.canceledToast', { number: payment.globalIndex }) });
    setAsking(false);
    // after a refused Cancel too (paid or expired meanwhile): the row shows the order as it now is
    await mutate(HISTORY_KEY);
  };
  return (
    <>
      <Button
        className="btn-sm"
        variant="secondary"
        onClick={() => setAsking(true)}
        aria-label={t('payHistory.cancelOrderLabel', { number: payment.globalIndex })}
      >
        {t('payHistory.cancelOrder')}
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t('payHistory.cancelTitle', { number: payment.globalIndex })}
        message={t('payHistory.cancelMessage')}
        confirmLabel={t('payHistory.cancelOrder')}
        dismissLabel={t('payHistory.keepOrder')}
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
  const { t } = useTranslation();
  const columns = useMemo<ColumnDef<PaymentDto, any>[]>(
    () => [
      // one order number everywhere: the one its receipt and the receipt mail show
      { id: 'index', header: '#', accessorFn: (p) => p.globalIndex },
      { accessorKey: 'type', header: t('payHistory.colType') },
      {
        id: 'user',
        header: t('payHistory.colFor'),
        accessorFn: (p) =>
          p.kind === 'team' ? p.items.map((i) => `${i.user?.name ?? ''} ${i.user?.email ?? ''}`).join(' ') : `${p.user?.name ?? ''} ${p.user?.email ?? ''}`,
        cell: ({ row }) => (row.original.kind === 'team' ? teamPeople(t, row.original.items) : person(t, row.original.user)),
      },
      {
        id: 'payer',
        header: t('payHistory.colPaidBy'),
        accessorFn: (p) => `${p.payerUser?.name ?? ''} ${p.payerUser?.email ?? ''}`,
        cell: ({ row }) => person(t, row.original.payerUser),
      },
      { accessorKey: 'dateCreated', header: t('payHistory.colDate'), cell: ({ getValue }) => shortDateTime(getValue()) },
      { accessorKey: 'amount', header: t('payHistory.colMonths'), cell: ({ row }) => <span data-testid="bought">{bought(row.original)}</span> },
      {
        accessorKey: 'priceTotal',
        header: t('payHistory.colTotal'),
        cell: ({ row }) => (
          <span className="num">
            {amd(row.original.priceTotal)}
            {row.original.refunds.length > 0 && (
              <span className="muted refund-note" data-testid="refund-note">
                {row.original.refunded > 0 ? t('payHistory.refundedAmount', { amount: amd(row.original.refunded) }) : t('payHistory.refunded')}
                {monthsBackNote(row.original.refunds.reduce((sum, r) => sum + r.monthsRemoved, 0))}
              </span>
            )}
          </span>
        ),
      },
      {
        accessorKey: 'status',
        header: t('payHistory.colStatus'),
        cell: ({ row }) => (
          <span className="status-cell">
            <StatusLabel status={row.original.status} />
            {row.original.expiresAt && <span className="muted">{t('payHistory.until', { time: timeOfDay(row.original.expiresAt) })}</span>}
          </span>
        ),
      },
      {
        id: 'receipt',
        header: '',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.isPaymentConfirmed ? (
            <Link
              className="receipt-link"
              to={`/payment/receipt/${row.original._id}`}
              aria-label={t('payHistory.receiptOf', { number: row.original.globalIndex })}
            >
              {t('payHistory.receipt')}
            </Link>
          ) : null,
      },
      ...(action ? [{ id: 'action', header: '', enableSorting: false, cell: ({ row }: { row: { original: PaymentDto } }) => action(row.original) }] : []),
    ],
    [action, t],
  );
  return <DataTable data={data} columns={columns} emptyText={t('payHistory.empty')} title={title} testId={testId} urlKey={urlKey} />;
}
