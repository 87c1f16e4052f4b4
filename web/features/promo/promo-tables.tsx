import type { ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROMO_MESSAGES } from '../../../worker/promo/promo.schema';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ConfirmDialog, Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { Loaded } from '../../components/ui/request-state';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-promo.json';
import { shortDate, shortDateTime } from '../../lib/format';
import { toggled } from '../../lib/sets';
import { useRequest } from '../../lib/use-request';
import { assignCode, deleteCode, type PromoDto, refreshPromoLists, removeAssignment, setFreeStatus, usePromoList } from './api';
import { CopyButton } from './copy-button';
import { effectText, formProblemText } from './texts';

addEnglish(english);

type Col = ColumnDef<PromoDto, any>;

/** The columns the three lists share, in the user's language. */
function useSharedColumns() {
  const { t } = useTranslation();
  return useMemo(() => {
    const code: Col = {
      accessorKey: 'name',
      header: t('promo.code'),
      cell: ({ getValue }) => (
        <span className="promo-code-cell">
          <code className="promo-code">{getValue()}</code>
          <CopyButton text={getValue()} />
        </span>
      ),
    };
    const effect: Col = {
      id: 'effect',
      header: t('promo.effect'),
      accessorFn: (p) => effectText(t, p.effectType, p.effectValue),
      cell: ({ row, getValue }) => <span className={`label-pill ${row.original.effectType === 'freeMonths' ? 'pill-ok' : 'pill-info'}`}>{getValue()}</span>,
    };
    const uses: Col = {
      id: 'uses',
      header: t('promo.uses'),
      accessorFn: (p) => `${p.usedCount} / ${p.maxUses}`,
      sortingFn: (a, b) => a.original.usedCount - b.original.usedCount,
    };
    const usedBy: Col = {
      id: 'usedBy',
      header: t('promo.usedBy'),
      accessorFn: (p) => p.usedUsersList.map((u) => u.user?.email ?? t('promo.deletedUser')).join(', '),
      cell: ({ row }) =>
        row.original.usedUsersList.length === 0 ? (
          <span className="muted">{t('promo.nobodyYet')}</span>
        ) : (
          <ul className="plain-list">
            {row.original.usedUsersList.map((u) => (
              <li key={`${u.user?._id ?? 'deleted'}-${u.useDate}`}>
                {u.user?.email ?? <span className="muted">{t('promo.deletedUser')}</span>} <span className="muted nowrap">{shortDateTime(u.useDate)}</span>
              </li>
            ))}
          </ul>
        ),
    };
    return { t, code, effect, uses, usedBy };
  }, [t]);
}

/** Free Promo Codes: the editable list. Select codes and mark them as given away, assign one to a user, or delete one. */
export function FreeCodes() {
  const { t, code: codeColumn, effect: effectColumn } = useSharedColumns();
  const read = usePromoList('free');
  const { data } = read;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [assigning, setAssigning] = useState<PromoDto | null>(null);
  const [deleting, setDeleting] = useState<PromoDto | null>(null);
  const { loading, run } = useRequest();
  const codes = useMemo(() => data ?? [], [data]);
  const live = useMemo(() => new Set(codes.map((c) => c._id)), [codes]);
  const chosen = [...selected].filter((id) => live.has(id));

  const handOut = async (ids: string[]) => {
    const res = await run(() => setFreeStatus(ids.map((_id) => ({ _id, isFree: false }))), { success: (r) => t('promo.updated', { count: r.updated }) });
    if (res) {
      setSelected(new Set());
      await refreshPromoLists();
    }
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await run(() => deleteCode(deleting._id), { success: () => t('promo.deleted') });
    setDeleting(null);
    if (res) await refreshPromoLists();
  };
  const toggle = (id: string, on: boolean) => setSelected((s) => toggled(s, id, on));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the row handlers call only state setters and module functions; the columns change with what they show
  const columns = useMemo<Col[]>(
    () => [
      {
        id: 'select',
        enableSorting: false,
        header: ({ table }) => {
          const rows = table.getRowModel().rows;
          const all = rows.length > 0 && rows.every((r) => selected.has(r.original._id));
          return (
            <input
              type="checkbox"
              aria-label={t('promo.selectPage')}
              checked={all}
              onChange={(e) => {
                for (const r of rows) toggle(r.original._id, e.target.checked);
              }}
            />
          );
        },
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label={t('promo.selectCode', { name: row.original.name })}
            checked={selected.has(row.original._id)}
            onChange={(e) => toggle(row.original._id, e.target.checked)}
          />
        ),
      },
      codeColumn,
      effectColumn,
      {
        id: 'createdAt',
        header: t('promo.createdAt'),
        accessorFn: (p) => p.createdAt,
        cell: ({ getValue }) => <span className="nowrap">{shortDate(getValue())}</span>,
      },
      {
        id: 'actions',
        header: t('promo.actions'),
        enableSorting: false,
        cell: ({ row }) => (
          <div className="row-actions">
            <Button
              variant="secondary"
              className="btn-sm"
              onClick={() => handOut([row.original._id])}
              disabled={loading}
              aria-label={t('promo.markGivenOf', { name: row.original.name })}
            >
              {t('promo.givenAway')}
            </Button>
            <Button
              variant="secondary"
              className="btn-sm"
              onClick={() => setAssigning(row.original)}
              aria-label={t('promo.assignOf', { name: row.original.name })}
            >
              {t('promo.assign')}
            </Button>
            <Button variant="danger" className="btn-sm" onClick={() => setDeleting(row.original)} aria-label={t('promo.deleteOf', { name: row.original.name })}>
              {t('promo.delete')}
            </Button>
          </div>
        ),
      },
    ],
    [selected, loading, t, codeColumn, effectColumn],
  );

  return (
    <Loaded what={t('promo.freeWhat')} state={read}>
      {() => (
        <>
          <DataTable
            data={codes}
            columns={columns}
            emptyText={t('promo.freeEmpty')}
            title={t('promo.freeCount', { n: codes.length })}
            testId="free-codes"
            urlKey="free"
            toolbar={
              <Button variant="primary" className="btn-sm" disabled={chosen.length === 0 || loading} onClick={() => handOut(chosen)}>
                {t('promo.markSelected', { n: chosen.length })}
              </Button>
            }
          />
          <AssignDialog promo={assigning} onClose={() => setAssigning(null)} />
          <ConfirmDialog
            open={deleting !== null}
            onOpenChange={(open) => !open && setDeleting(null)}
            message={t('promo.confirmDelete', { name: deleting?.name ?? '' })}
            confirmLabel={t('promo.delete')}
            dismissLabel={t('promo.cancel')}
            onConfirm={confirmDelete}
            busy={loading}
          />
        </>
      )}
    </Loaded>
  );
}

/** Assigns a code to one user by e-mail: only that user can use it. */
function AssignDialog({ promo, onClose }: { promo: PromoDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [missing, setMissing] = useState(false);
  const { loading, error, clearError, run } = useRequest();
  const close = () => {
    setEmail('');
    setMissing(false);
    clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!promo) return;
    if (!email.trim()) return setMissing(true);
    const res = await run(() => assignCode(promo._id, email.trim()), {
      success: (r) => t('promo.assigned', { name: r.promo.name, email: r.promo.assignedUser?.email ?? email.trim() }),
      silent: true,
    });
    if (res) {
      await refreshPromoLists();
      close();
    }
  };
  return (
    <Modal open={promo !== null} onOpenChange={(open) => !open && close()} title={t('promo.assignTitle', { name: promo?.name ?? '' })}>
      <form className="form" onSubmit={submit} noValidate>
        <p className="muted">{t('promo.assignNote')}</p>
        <Field
          label={t('promo.userEmail')}
          type="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setMissing(false);
            clearError();
          }}
          autoFocus
          placeholder={t('promo.emailPlaceholder')}
        />
        <ErrorText>{missing ? formProblemText(t, PROMO_MESSAGES.userMissing) : error}</ErrorText>
        <div className="dialog-footer">
          <Button type="submit" disabled={loading}>
            {t('promo.assign')}
          </Button>
          <Button variant="ghost" onClick={close}>
            {t('promo.cancel')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Used Promo Codes: handed out, assigned or partly used, with uses left. */
export function UsedCodes() {
  const { t, code: codeColumn, effect: effectColumn, uses: usesColumn, usedBy: usedByColumn } = useSharedColumns();
  const read = usePromoList('used');
  const { data } = read;
  const { loading, run } = useRequest();
  const backToFree = async (p: PromoDto) => {
    const res = await run(() => setFreeStatus([{ _id: p._id, isFree: true }]), { success: () => t('promo.freeAgain', { name: p.name }) });
    if (res) await refreshPromoLists();
  };
  const unassign = async (p: PromoDto) => {
    const res = await run(() => removeAssignment(p._id), { success: () => t('promo.unassigned') });
    if (res) await refreshPromoLists();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the row handlers call only state setters and module functions; the columns change with what they show
  const columns = useMemo<Col[]>(
    () => [
      codeColumn,
      effectColumn,
      usesColumn,
      {
        id: 'givenTo',
        header: t('promo.givenTo'),
        accessorFn: (p) => p.assignedUser?.email ?? (p.isFree ? t('promo.givenPublic') : t('promo.handedOut')),
        cell: ({ row, getValue }) => (row.original.assignedUser ? <strong>{getValue()}</strong> : <span className="muted">{getValue()}</span>),
      },
      usedByColumn,
      {
        id: 'actions',
        header: t('promo.actions'),
        enableSorting: false,
        cell: ({ row }) => {
          const p = row.original;
          return (
            <div className="row-actions">
              {p.assignedUser ? (
                <Button
                  variant="secondary"
                  className="btn-sm"
                  onClick={() => unassign(p)}
                  disabled={loading}
                  aria-label={t('promo.removeAssignmentOf', { name: p.name })}
                >
                  {t('promo.removeAssignment')}
                </Button>
              ) : (
                p.usedCount === 0 && (
                  <Button
                    variant="secondary"
                    className="btn-sm"
                    onClick={() => backToFree(p)}
                    disabled={loading}
                    aria-label={t('promo.markFreeOf', { name: p.name })}
                  >
                    {t('promo.backToFree')}
                  </Button>
                )
              )}
            </div>
          );
        },
      },
    ],
    [loading, t, codeColumn, effectColumn, usesColumn, usedByColumn],
  );
  return (
    <Loaded what={t('promo.usedWhat')} state={read}>
      {() => (
        <DataTable
          data={data ?? []}
          columns={columns}
          emptyText={t('promo.usedEmpty')}
          title={t('promo.usedCount', { n: data?.length ?? 0 })}
          testId="used-codes"
          urlKey="used"
        />
      )}
    </Loaded>
  );
}

/** Activated Promo Codes: every use taken. */
export function FinishedCodes() {
  const { t, code: codeColumn, effect: effectColumn, uses: usesColumn, usedBy: usedByColumn } = useSharedColumns();
  const read = usePromoList('finished');
  const { data } = read;
  const columns = useMemo<Col[]>(
    () => [
      codeColumn,
      effectColumn,
      usesColumn,
      usedByColumn,
      {
        id: 'activated',
        header: t('promo.activated'),
        accessorFn: (p) => p.usedUsersList.at(-1)?.useDate ?? '',
        cell: ({ getValue }) => <span className="nowrap">{getValue() ? shortDateTime(getValue()) : ''}</span>,
      },
    ],
    [t, codeColumn, effectColumn, usesColumn, usedByColumn],
  );
  return (
    <Loaded what={t('promo.finishedWhat')} state={read}>
      {() => (
        <DataTable
          data={data ?? []}
          columns={columns}
          emptyText={t('promo.finishedEmpty')}
          title={t('promo.finishedCount', { n: data?.length ?? 0 })}
          testId="finished-codes"
          urlKey="activated"
        />
      )}
    </Loaded>
  );
}
