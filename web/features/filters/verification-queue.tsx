import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { ErrorText } from '../../components/ui/field';
import { Loaded } from '../../components/ui/request-state';
import { api } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { keyOf } from '../../lib/use-api';
import { useRequest } from '../../lib/use-request';
import {
  type FilterDto,
  type FilterPayload,
  pickableMcs,
  rejectFilter,
  updateFilter,
  useFilterTypes,
  useMyMcs,
  useQueue,
  useTeamMcs,
  useTeamUsers,
  verifyFilters,
} from './api';
import { FilterModal } from './filter-modal';
import { TypeLabel } from './filters-table';
import './filters.css';
import { useColumnLabels } from '../../lib/use-column-labels';

/**
 * Verification Queue (/companyFilters/queue, managers): the agents' filters waiting for the
 * manager, newest first; verify one or several at once, edit (saving verifies), or reject with
 * a reason the agent sees on its filter.
 */
export default function VerificationQueue() {
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const session = useSession();
  const queue = useQueue();
  const { mutate } = useSWRConfig();
  const { data: types = [] } = useFilterTypes();
  const { data: myMcs } = useMyMcs();
  const { data: teamMcs } = useTeamMcs();
  const { data: teamUsers = [] } = useTeamUsers();
  const mcs = useMemo(() => pickableMcs(myMcs), [myMcs]);
  const mcNames = useMemo(
    () => new Map([...(teamMcs ?? []).map((m) => [m._id, m.name] as const), ...mcs.map((m) => [m._id, m.name] as const)]),
    [teamMcs, mcs],
  );
  const mcName = useCallback((id: string) => mcNames.get(id) ?? 'Removed MC', [mcNames]);
  const typeById = useMemo(() => new Map(types.map((t) => [t._id, t])), [types]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<FilterDto | null>(null);
  const [rejecting, setRejecting] = useState<FilterDto | null>(null);
  const [reason, setReason] = useState('');
  const act = useRequest();
  const save = useRequest();
  const rows = queue.data ?? [];

  const refresh = async () => {
    setSelected(new Set());
    const search = keyOf(api.broker.index);
    // the badge, and Broker Filtering's cached lists (statuses changed)
    await Promise.all([queue.mutate(), mutate(keyOf(api.broker.queue.count)), mutate((key) => Array.isArray(key) && key[0] === search)]);
  };
  const verify = async (ids: string[]) => {
    if (await act.run(() => verifyFilters(ids), { success: (r) => r.message })) await refresh();
  };
  const confirmReject = async () => {
    if (!rejecting) return;
    const res = await act.run(() => rejectFilter(rejecting._id, reason), { success: (r) => r.message });
    if (res) {
      setRejecting(null);
      setReason('');
      await refresh();
    }
  };
  const saveEdit = async (payload: FilterPayload) => {
    if (await save.run(() => updateFilter(payload), { success: (r) => r.message })) {
      setEditing(null);
      await refresh();
    }
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="page">
      <div className="page-header">
        <h1>Verification Queue</h1>
        <div className="card-actions">
          <Link className="btn btn-link" to="/companyFilters">
            Broker Filtering
          </Link>
          <Button disabled={!selected.size || act.loading} onClick={() => verify([...selected])}>
            Verify selected{selected.size ? ` (${selected.size})` : ''}
          </Button>
        </div>
      </div>
      <p className="muted">
        Filters your agents added or changed, newest first. Verified filters reach the team; a rejected one goes back to its agent with your reason.
      </p>
      <Loaded what="the verification queue" state={queue}>
        {() =>
          rows.length === 0 ? (
            <p className="notice" data-testid="queue-empty">
              Nothing to verify.
            </p>
          ) : (
            <div className="table-wrap">
              <table className="table cards-narrow" ref={labelColumns} data-testid="queue-table">
                <thead>
                  <tr>
                    <th>
                      <input
                        type="checkbox"
                        aria-label="Select all"
                        checked={rows.every((f) => selected.has(f._id))}
                        onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((f) => f._id)) : new Set())}
                      />
                    </th>
                    <th>Name</th>
                    <th>MC #</th>
                    <th>Type</th>
                    <th>Comment</th>
                    <th>Agent</th>
                    <th>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((f) => (
                    <tr key={f._id}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Select ${f.name}`}
                          checked={selected.has(f._id)}
                          onChange={(e) => toggle(f._id, e.target.checked)}
                        />
                      </td>
                      <td>
                        <strong>{f.name}</strong>
                      </td>
                      <td className="cell-number">{f.mcNumber ?? ''}</td>
                      <td>
                        <TypeLabel type={typeById.get(f.type)} />
                      </td>
                      <td className="cell-comment">{f.comment}</td>
                      <td>{f.creator.name}</td>
                      <td>
                        <div className="queue-actions">
                          <Button className="btn-sm" disabled={act.loading} onClick={() => verify([f._id])} aria-label={`Verify ${f.name}`}>
                            Verify
                          </Button>
                          <Button className="btn-sm" variant="secondary" onClick={() => setEditing(f)} aria-label={`Edit ${f.name}`}>
                            Edit
                          </Button>
                          <Button className="btn-sm" variant="danger" onClick={() => setRejecting(f)} aria-label={`Reject ${f.name}`}>
                            Reject
                          </Button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {editing && session && (
        <FilterModal
          key={editing._id}
          mode="update"
          draft={{ filter: editing }}
          me={{ id: session.userId, isLead: true }}
          types={types}
          mcs={mcs}
          mcName={mcName}
          teamUsers={teamUsers}
          saving={save.loading}
          onClose={() => setEditing(null)}
          onSave={saveEdit}
        />
      )}
      <Modal
        open={rejecting !== null}
        onOpenChange={(open) => !open && setRejecting(null)}
        title={`Reject ${rejecting?.name ?? ''}`}
        footer={
          <>
            <Button variant="danger" disabled={act.loading || !reason.trim()} onClick={confirmReject} aria-describedby="reject-why">
              Reject
            </Button>
            <Button variant="ghost" onClick={() => setRejecting(null)}>
              Cancel
            </Button>
          </>
        }
      >
        <div className="field">
          <label htmlFor="reject-reason">Reason (the agent sees it)</label>
          <textarea id="reject-reason" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby="reject-why" />
          {/* Reject stays disabled without a reason: say so, instead of a button that silently does nothing */}
          <div className="field-hint" id="reject-why" data-testid="reject-why">
            {reason.trim() ? 'The filter goes back to its agent with this reason.' : 'Write the reason first: Reject needs it, and the agent sees it.'}
          </div>
        </div>
        {rejecting && <p className="muted">Submitted by {rejecting.creator.name}</p>}
        <ErrorText>{act.error}</ErrorText>
      </Modal>
    </div>
  );
}
