import type { ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { effectLabel, PROMO_MESSAGES } from '../../../worker/promo/promo.schema';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ConfirmDialog, Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { Loaded } from '../../components/ui/request-state';
import { useRequest } from '../../lib/use-request';
import { shortDate, shortDateTime } from '../../lib/format';
import { assignCode, deleteCode, type PromoDto, refreshPromoLists, removeAssignment, setFreeStatus, usePromoList } from './api';
import { CopyButton } from './copy-button';

type Col = ColumnDef<PromoDto, any>;

const codeColumn: Col = {
  accessorKey: 'name',
  header: 'Code',
  cell: ({ getValue }) => (
    <span className="promo-code-cell">
      <code className="promo-code">{getValue()}</code>
      <CopyButton text={getValue()} />
    </span>
  ),
};
const effectColumn: Col = {
  id: 'effect',
  header: 'Effect',
  accessorFn: (p) => effectLabel(p.effectType, p.effectValue),
  cell: ({ row, getValue }) => <span className={`label-pill ${row.original.effectType === 'freeMonths' ? 'pill-ok' : 'pill-info'}`}>{getValue()}</span>,
};
const usesColumn: Col = {
  id: 'uses',
  header: 'Uses',
  accessorFn: (p) => `${p.usedCount} / ${p.maxUses}`,
  sortingFn: (a, b) => a.original.usedCount - b.original.usedCount,
};
const usedByColumn: Col = {
  id: 'usedBy',
  header: 'Used by',
  accessorFn: (p) => p.usedUsersList.map((u) => u.user?.email ?? 'deleted user').join(', '),
  cell: ({ row }) =>
    row.original.usedUsersList.length === 0 ? (
      <span className="muted">Nobody yet</span>
    ) : (
      <ul className="plain-list">
        {row.original.usedUsersList.map((u) => (
          <li key={`${u.user?._id ?? 'deleted'}-${u.useDate}`}>
            {u.user?.email ?? <span className="muted">deleted user</span>} <span className="muted nowrap">{shortDateTime(u.useDate)}</span>
          </li>
        ))}
      </ul>
    ),
};

/** Free Promo Codes: the editable list. Select codes and mark them as given away, assign one to a user, or delete one. */
export function FreeCodes() {
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
    const res = await run(() => setFreeStatus(ids.map((_id) => ({ _id, isFree: false }))), { success: (r) => r.message });
    if (res) {
      setSelected(new Set());
      await refreshPromoLists();
    }
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await run(() => deleteCode(deleting._id), { success: (r) => r.message });
    setDeleting(null);
    if (res) await refreshPromoLists();
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

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
              aria-label="Select the codes on this page"
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
            aria-label={`Select ${row.original.name}`}
            checked={selected.has(row.original._id)}
            onChange={(e) => toggle(row.original._id, e.target.checked)}
          />
        ),
      },
      codeColumn,
      effectColumn,
      { id: 'createdAt', header: 'Created', accessorFn: (p) => p.createdAt, cell: ({ getValue }) => <span className="nowrap">{shortDate(getValue())}</span> },
      {
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        cell: ({ row }) => (
          <div className="row-actions">
            <Button
              variant="secondary"
              className="btn-sm"
              onClick={() => handOut([row.original._id])}
              disabled={loading}
              aria-label={`Mark ${row.original.name} as given away`}
            >
              Given away
            </Button>
            <Button variant="secondary" className="btn-sm" onClick={() => setAssigning(row.original)} aria-label={`Assign ${row.original.name} to a user`}>
              Assign
            </Button>
            <Button variant="danger" className="btn-sm" onClick={() => setDeleting(row.original)} aria-label={`Delete ${row.original.name}`}>
              Delete
            </Button>
          </div>
        ),
      },
    ],
    [selected, loading],
  );

  return (
    <Loaded what="the free promo codes" state={read}>
      {() => (
        <>
          <DataTable
            data={codes}
            columns={columns}
            emptyText="No free promo codes"
            title={`Free Promo Codes (${codes.length})`}
            testId="free-codes"
            urlKey="free"
            toolbar={
              <Button variant="primary" className="btn-sm" disabled={chosen.length === 0 || loading} onClick={() => handOut(chosen)}>
                Mark selected as given away ({chosen.length})
              </Button>
            }
          />
          <AssignDialog promo={assigning} onClose={() => setAssigning(null)} />
          <ConfirmDialog
            open={deleting !== null}
            onOpenChange={(open) => !open && setDeleting(null)}
            message={`Are you sure you want to delete the promo code ${deleting?.name ?? ''}?`}
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
    const res = await run(() => assignCode(promo._id, email.trim()), { success: (r) => r.message, silent: true });
    if (res) {
      await refreshPromoLists();
      close();
    }
  };
  return (
    <Modal open={promo !== null} onOpenChange={(open) => !open && close()} title={`Assign ${promo?.name ?? ''}`}>
      <form className="form" onSubmit={submit} noValidate>
        <p className="muted">Only this user will be able to use the code. It moves to Used Promo Codes.</p>
        <Field
          label="User e-mail"
          type="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setMissing(false);
            clearError();
          }}
          autoFocus
          placeholder="name@company.com"
        />
        <ErrorText>{missing ? PROMO_MESSAGES.userMissing : error}</ErrorText>
        <div className="dialog-footer">
          <Button type="submit" disabled={loading}>
            Assign
          </Button>
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Used Promo Codes: handed out, assigned or partly used, with uses left. */
export function UsedCodes() {
  const read = usePromoList('used');
  const { data } = read;
  const { loading, run } = useRequest();
  const backToFree = async (p: PromoDto) => {
    const res = await run(() => setFreeStatus([{ _id: p._id, isFree: true }]), { success: () => `${p.name} is free again` });
    if (res) await refreshPromoLists();
  };
  const unassign = async (p: PromoDto) => {
    const res = await run(() => removeAssignment(p._id), { success: (r) => r.message });
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
        header: 'Given to',
        accessorFn: (p) => p.assignedUser?.email ?? (p.isFree ? 'Public' : 'Handed out'),
        cell: ({ row, getValue }) => (row.original.assignedUser ? <strong>{getValue()}</strong> : <span className="muted">{getValue()}</span>),
      },
      usedByColumn,
      {
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        cell: ({ row }) => {
          const p = row.original;
          return (
            <div className="row-actions">
              {p.assignedUser ? (
                <Button variant="secondary" className="btn-sm" onClick={() => unassign(p)} disabled={loading} aria-label={`Remove the assignment of ${p.name}`}>
                  Remove assignment
                </Button>
              ) : (
                p.usedCount === 0 && (
                  <Button variant="secondary" className="btn-sm" onClick={() => backToFree(p)} disabled={loading} aria-label={`Mark ${p.name} as free`}>
                    Back to free
                  </Button>
                )
              )}
            </div>
          );
        },
      },
    ],
    [loading],
  );
  return (
    <Loaded what="the used promo codes" state={read}>
      {() => (
        <DataTable
          data={data ?? []}
          columns={columns}
          emptyText="No used promo codes"
          title={`Used Promo Codes (${data?.length ?? 0})`}
          testId="used-codes"
          urlKey="used"
        />
      )}
    </Loaded>
  );
}

/** Activated Promo Codes: every use taken. */
export function FinishedCodes() {
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
        header: 'Activated',
        accessorFn: (p) => p.usedUsersList.at(-1)?.useDate ?? '',
        cell: ({ getValue }) => <span className="nowrap">{getValue() ? shortDateTime(getValue()) : ''}</span>,
      },
    ],
    [],
  );
  return (
    <Loaded what="the activated promo codes" state={read}>
      {() => (
        <DataTable
          data={data ?? []}
          columns={columns}
          emptyText="No activated promo codes"
          title={`Activated Promo Codes (${data?.length ?? 0})`}
          testId="finished-codes"
          urlKey="activated"
        />
      )}
    </Loaded>
  );
}
