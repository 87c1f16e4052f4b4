import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../components/ui/data-table';
import { amd, type PaymentDto, shortDateTime } from './api';

const STATUS_CLASS: Record<PaymentDto['status'], string> = {
  confirmed: 'pill-ok',
  Declined: 'pill-bad',
  'redirect fail': 'pill-bad',
  Canceled: 'pill-off',
  'Waiting ...': 'pill-warn',
};

export function StatusLabel({ status }: { status: PaymentDto['status'] }) {
  return (
    <span className={`label-pill ${STATUS_CLASS[status]}`}>
      {status === 'confirmed' ? '✓ confirmed' : status}
    </span>
  );
}

/** Payment History / All Payments: index, type, for whom, by whom, date, months, total, status. */
export function PaymentsTable({ data, title, testId, showGlobal = false }: { data: PaymentDto[]; title: string; testId: string; showGlobal?: boolean }) {
  const columns = useMemo<ColumnDef<PaymentDto, any>[]>(
    () => [
      { id: 'index', header: '#', accessorFn: (p) => (showGlobal ? p.globalIndex : p.index) },
      { accessorKey: 'type', header: 'Type' },
      { id: 'user', header: 'For', accessorFn: (p) => p.user?.email ?? '' },
      { id: 'payer', header: 'Paid by', accessorFn: (p) => p.payerUser?.email ?? '' },
      { accessorKey: 'dateCreated', header: 'Date', cell: ({ getValue }) => shortDateTime(getValue()) },
      { accessorKey: 'amount', header: 'Months' },
      { accessorKey: 'priceTotal', header: 'Total', cell: ({ getValue }) => amd(getValue()) },
      { accessorKey: 'status', header: 'Status', cell: ({ row }) => <StatusLabel status={row.original.status} /> },
    ],
    [showGlobal],
  );
  return <DataTable data={data} columns={columns} emptyText="No Payments" title={title} testId={testId} />;
}
