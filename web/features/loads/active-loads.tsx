import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/ui/dialog';
import { DataTable } from '../../components/ui/data-table';
import { Loaded } from '../../components/ui/request-state';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { dateAndTime, loadDateText } from '../../lib/format';
import { type ActiveLoadDto, deleteLoad, useActiveLoads } from './api';
import './loads.css';

/** Active loads (/activeLoads): My active loads; a manager's team's. Delete after a confirmation. */
export default function ActiveLoads() {
  const session = useSession();
  const isManager = session?.userType === 'manager';
  const read = useActiveLoads(isManager);
  const { data, mutate } = read;
  const [deleting, setDeleting] = useState<ActiveLoadDto | null>(null);
  const { loading, run } = useRequest();
  const loads = useMemo(() => data ?? [], [data]);

  const columns = useMemo<ColumnDef<ActiveLoadDto, any>[]>(
    () => [
      { id: 'agent', header: 'Agent', accessorFn: (l) => l.parent.name },
      { accessorKey: 'brokerName', header: 'Company' },
      {
        id: 'load',
        header: 'Load',
        accessorFn: (l) => `${l.origin} → ${l.dest}`,
        cell: ({ row }) => (
          <div className="load-cell">
            <span className="lane">
              {row.original.origin}{' '}
              <span className="arrow" aria-hidden="true">
                →
              </span>
              <span className="sr-only">to</span> {row.original.dest}
            </span>
            {row.original.loadDate && <span className="muted load-date">Pick-up {loadDateText(row.original.loadDate)}</span>}
            {row.original.reference && <span className="muted load-date">Ref {row.original.reference}</span>}
          </div>
        ),
      },
      { accessorKey: 'date', header: 'Date', cell: ({ getValue }) => <span className="nowrap">{dateAndTime(getValue())}</span> },
      {
        id: 'action',
        header: 'Action',
        enableSorting: false,
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-danger btn-sm"
            onClick={() => setDeleting(row.original)}
            aria-label={`Delete load ${row.original.origin} to ${row.original.dest}`}
          >
            Delete
          </button>
        ),
      },
    ],
    [],
  );

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await run(() => deleteLoad(deleting._id), { success: (r) => r.message });
    setDeleting(null);
    if (res) await mutate();
  };

  const title = isManager ? "My team's active loads" : 'My active loads';
  return (
    <div className="page active-loads">
      <div className="page-header">
        <h1>{title}</h1>
        <Link className="btn btn-secondary" to="/callHistory">
          Contact History
        </Link>
      </div>
      <Loaded what="the active loads" state={read}>
        {() => (
          <DataTable
            data={loads}
            columns={columns}
            emptyText="No active loads"
            testId="loads-table"
            title={<span data-testid="loads-total">Total: {loads.length}</span>}
          />
        )}
      </Loaded>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        message={deleting ? `Are you sure you want to delete the load ${deleting.origin} → ${deleting.dest} (${deleting.brokerName})?` : ''}
        onConfirm={confirmDelete}
        busy={loading}
      />
    </div>
  );
}
