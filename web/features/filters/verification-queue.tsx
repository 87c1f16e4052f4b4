import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { ErrorText } from '../../components/ui/field';
import { Loaded } from '../../components/ui/request-state';
import { messageText } from '../../i18n/errors';
import { api } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { keyOf } from '../../lib/use-api';
import { useRequest } from '../../lib/use-request';
import { type FilterDto, type FilterPayload, rejectFilter, updateFilter, useFilterTypes, useQueue, useTeamUsers, verifyFilters } from './api';
import { FilterModal } from './filter-modal';
import { TypeLabel } from './filters-table';
import { filterMessage } from './texts';
import { useMcNames } from './use-mc-names';
import './filters.css';
import { toggled } from '../../lib/sets';
import { useColumnLabels } from '../../lib/use-column-labels';

/**
 * Verification Queue (/companyFilters/queue, managers): the agents' filters waiting for the
 * manager, newest first; verify one or several at once, edit (saving verifies), or reject with
 * a reason the agent sees on its filter.
 */
export default function VerificationQueue() {
  const { t } = useTranslation();
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const session = useSession();
  const queue = useQueue();
  const { mutate } = useSWRConfig();
  const { data: types = [] } = useFilterTypes();
  const { mcs, mcName } = useMcNames();
  const { data: teamUsers = [] } = useTeamUsers();
  const typeById = useMemo(() => new Map(types.map((type) => [type._id, type])), [types]);
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
    const verified = (r: { count: number }) => (r.count === 1 ? t('queue.verifiedOne') : t('queue.verifiedMany', { count: r.count }));
    if (await act.run(() => verifyFilters(ids), { success: verified })) await refresh();
  };
  const confirmReject = async () => {
    if (!rejecting) return;
    const res = await act.run(() => rejectFilter(rejecting._id, reason), { success: () => filterMessage('rejected') });
    if (res) {
      setRejecting(null);
      setReason('');
      await refresh();
    }
  };
  const saveEdit = async (payload: FilterPayload) => {
    if (await save.run(() => updateFilter(payload), { success: (r) => messageText(r.message, r.code) })) {
      setEditing(null);
      await refresh();
    }
  };
  const toggle = (id: string, on: boolean) => setSelected((s) => toggled(s, id, on));

  // only what is still in the queue: a filter rejected or verified meanwhile (here or by another
  // lead) leaves the list, and must leave the count and the request too
  const chosen = rows.filter((f) => selected.has(f._id)).map((f) => f._id);

  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('queue.title')}</h1>
        <div className="card-actions">
          <Link className="btn btn-link" to="/companyFilters">
            {t('queue.brokerFiltering')}
          </Link>
          <Button disabled={!chosen.length || act.loading} onClick={() => verify(chosen)}>
            {chosen.length ? t('queue.verifySelectedCount', { count: chosen.length }) : t('queue.verifySelected')}
          </Button>
        </div>
      </div>
      <p className="muted">{t('queue.intro')}</p>
      <Loaded what={t('queue.what')} state={queue}>
        {() =>
          rows.length === 0 ? (
            <p className="notice" data-testid="queue-empty">
              {t('queue.empty')}
            </p>
          ) : (
            <div className="table-wrap">
              <table className="table cards-narrow" ref={labelColumns} data-testid="queue-table">
                <thead>
                  <tr>
                    <th>
                      <input
                        type="checkbox"
                        aria-label={t('queue.selectAll')}
                        checked={rows.every((f) => selected.has(f._id))}
                        onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((f) => f._id)) : new Set())}
                      />
                    </th>
                    <th>{t('queue.colName')}</th>
                    <th>{t('queue.colMcNumber')}</th>
                    <th>{t('queue.colType')}</th>
                    <th>{t('queue.colComment')}</th>
                    <th>{t('queue.colAgent')}</th>
                    <th>{t('queue.colActions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((f) => (
                    <tr key={f._id}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={t('queue.selectRow', { name: f.name })}
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
                          <Button className="btn-sm" disabled={act.loading} onClick={() => verify([f._id])} aria-label={t('queue.verifyRow', { name: f.name })}>
                            {t('queue.verify')}
                          </Button>
                          <Button className="btn-sm" variant="secondary" onClick={() => setEditing(f)} aria-label={t('queue.editRow', { name: f.name })}>
                            {t('queue.edit')}
                          </Button>
                          <Button className="btn-sm" variant="danger" onClick={() => setRejecting(f)} aria-label={t('queue.rejectRow', { name: f.name })}>
                            {t('queue.reject')}
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
        title={t('queue.rejectTitle', { name: rejecting?.name ?? '' })}
        footer={
          <>
            <Button variant="danger" disabled={act.loading || !reason.trim()} onClick={confirmReject} aria-describedby="reject-why">
              {t('queue.reject')}
            </Button>
            <Button variant="ghost" onClick={() => setRejecting(null)}>
              {t('queue.cancel')}
            </Button>
          </>
        }
      >
        <div className="field">
          <label htmlFor="reject-reason">{t('queue.reason')}</label>
          <textarea id="reject-reason" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby="reject-why" />
          {/* Reject stays disabled without a reason: say so, instead of a button that silently does nothing */}
          <div className="field-hint" id="reject-why" data-testid="reject-why">
            {reason.trim() ? t('queue.reasonGiven') : t('queue.reasonNeeded')}
          </div>
        </div>
        {rejecting && <p className="muted">{t('queue.submittedBy', { name: rejecting.creator.name })}</p>}
        <ErrorText>{act.error}</ErrorText>
      </Modal>
    </div>
  );
}
