import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BOARD_NAMES, type LoadBoard } from '../../../worker/history/boards';
import { BoardSelect } from '../../components/ui/board-select';
import { DataTable } from '../../components/ui/data-table';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Loaded } from '../../components/ui/request-state';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-loads.json';
import { dateAndTime, loadDateText } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { type ActiveLoadDto, deleteLoad, useActiveLoads } from './api';
import './loads.css';

// this screen's English texts (its chunk brings them)
addEnglish(english);

/** Active loads (/activeLoads): My active loads; a manager's team's. Delete after a confirmation. */
export default function ActiveLoads() {
  const { t } = useTranslation();
  const session = useSession();
  const isManager = session?.userType === 'manager';
  const read = useActiveLoads(isManager);
  const { data, mutate } = read;
  const [deleting, setDeleting] = useState<ActiveLoadDto | null>(null);
  const { loading, run } = useRequest();
  // one board's loads, or every board's
  const [board, setBoard] = useState<LoadBoard | ''>('');
  const loads = useMemo(() => (data ?? []).filter((l) => !board || l.board === board), [data, board]);

  const columns = useMemo<ColumnDef<ActiveLoadDto, any>[]>(
    () => [
      { id: 'agent', header: t('activeLoads.agent'), accessorFn: (l) => l.parent.name },
      { accessorKey: 'brokerName', header: t('activeLoads.company') },
      {
        id: 'load',
        header: t('activeLoads.load'),
        accessorFn: (l) => `${l.origin} → ${l.dest}`,
        cell: ({ row }) => (
          <div className="load-cell">
            <span className="lane">
              {row.original.origin}{' '}
              <span className="arrow" aria-hidden="true">
                →
              </span>
              <span className="sr-only">{t('activeLoads.to')}</span> {row.original.dest}
            </span>
            {row.original.loadDate && <span className="muted load-date">{t('activeLoads.pickUp', { date: loadDateText(row.original.loadDate) })}</span>}
            {row.original.reference && <span className="muted load-date">{t('activeLoads.reference', { reference: row.original.reference })}</span>}
            <span className="muted load-date" data-testid="load-board">
              {t('activeLoads.fromBoard', { board: BOARD_NAMES[row.original.board] })}
            </span>
          </div>
        ),
      },
      { accessorKey: 'date', header: t('activeLoads.date'), cell: ({ getValue }) => <span className="nowrap">{dateAndTime(getValue())}</span> },
      {
        id: 'action',
        header: t('activeLoads.action'),
        enableSorting: false,
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-danger btn-sm"
            onClick={() => setDeleting(row.original)}
            aria-label={t('activeLoads.deleteLabel', { origin: row.original.origin, dest: row.original.dest })}
          >
            {t('activeLoads.delete')}
          </button>
        ),
      },
    ],
    [t],
  );

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await run(() => deleteLoad(deleting._id), {
      success: () => t('loadMessages.deleted'),
    });
    setDeleting(null);
    if (res) await mutate();
  };

  const title = isManager ? t('activeLoads.team') : t('activeLoads.mine');
  return (
    <div className="page active-loads">
      <div className="page-header">
        <h1>{title}</h1>
        <Link className="btn btn-secondary" to="/callHistory">
          {t('activeLoads.contactHistory')}
        </Link>
      </div>
      <BoardSelect className="loads-board" label={t('activeLoads.board')} allLabel={t('activeLoads.allBoards')} value={board} onChange={setBoard} />
      <Loaded what={t('activeLoads.what')} state={read}>
        {() => (
          <DataTable
            data={loads}
            columns={columns}
            emptyText={t('activeLoads.empty')}
            testId="loads-table"
            title={<span data-testid="loads-total">{t('activeLoads.total', { total: loads.length })}</span>}
          />
        )}
      </Loaded>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        message={deleting ? t('activeLoads.confirmDelete', { origin: deleting.origin, dest: deleting.dest, broker: deleting.brokerName }) : ''}
        onConfirm={confirmDelete}
        busy={loading}
      />
    </div>
  );
}
