/**
 * The broker's FMCSA status on the filter list and in the filter modal
 * (docs/decisions/0021-broker-vetting.md): a chip with the check's date, and Check now for managers.
 */
import { parseResponse } from 'hono/client';
import { useMemo } from 'react';
import type { VettingDto } from '../../../worker/vetting/vetting.schema';
import { Button } from '../../components/ui/button';
import { RequestFailed } from '../../components/ui/request-state';
import { api } from '../../lib/api-client';
import { shortDate } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { usePost } from '../../lib/use-api';

/** The records of these filters' brokers (one call for the list on screen). */
export function useFilterVetting(filterIds: string[]) {
  const ids = useMemo(() => [...filterIds].sort(), [filterIds]);
  return usePost(ids.length ? api.vetting.filters : null, { json: { filterIds: ids } }, { keepPreviousData: true });
}

export const checkVetting = (filterId: string) => parseResponse(api.vetting.check.$post({ json: { filterId } }));

const TONE: Record<string, string> = { active: 'pill-ok', inactive: 'pill-bad', no_bond: 'pill-bad', not_found: 'pill-warn' };

/** "Broker authority inactive · checked 25 Nov 2026", or "Not checked yet"; "FMCSA checks not configured" without a webKey. */
export function VettingChip({ record, configured }: { record: VettingDto | null | undefined; configured: boolean }) {
  if (!configured) return <span className="muted vetting-chip">FMCSA checks not configured</span>;
  if (!record) return <span className="muted">No MC or DOT</span>;
  const checked = record.checkedAt ? `checked ${shortDate(record.checkedAt)}` : null;
  const title = [
    record.legalName,
    record.lastError && record.checkedAt
      ? `FMCSA did not answer the last check (${record.lastError}); this is the answer of ${shortDate(record.checkedAt)}`
      : null,
  ]
    .filter(Boolean)
    .join(' — ');
  return (
    <span className="vetting-chip" data-testid="vetting-chip" data-state={record.state ?? 'unchecked'} title={title || undefined}>
      <span className={`label-pill ${record.state ? TONE[record.state] : 'pill-off'}`}>{record.label}</span>
      {checked && (
        <>
          {' '}
          <span className="status-note">{checked}</span>
        </>
      )}
    </span>
  );
}

/** The modal's FMCSA section: the broker's record, its details, and Check now for a manager. */
export function VettingPanel({ filterId, canCheck }: { filterId: string; canCheck: boolean }) {
  const state = useFilterVetting(useMemo(() => [filterId], [filterId]));
  const req = useRequest();
  const record = state.data?.records[filterId];
  const configured = state.data?.configured ?? true;
  const check = async () => {
    const res = await req.run(() => checkVetting(filterId), { success: (r) => r.message });
    if (res) await state.mutate();
  };
  return (
    <section className="vetting-panel" aria-label="FMCSA status" data-testid="vetting-panel">
      <h3>FMCSA</h3>
      {state.error != null && !state.data ? (
        <RequestFailed what="the FMCSA status" error={state.error} onRetry={() => void state.mutate()} compact />
      ) : !state.data ? (
        <span className="muted">Loading…</span>
      ) : (
        <div className="vetting-row">
          <VettingChip record={record} configured={configured} />
          {record?.state && record.state !== 'not_found' && (
            <span className="status-note">
              {[
                record.legalName,
                record.dotNumber && `USDOT ${record.dotNumber}`,
                `broker authority ${record.brokerAuthority ?? '?'}`,
                `bond on file ${record.bondOnFile === '0' || !record.bondOnFile ? 'none' : `$${record.bondOnFile}k`}`,
                record.outOfService ? `out of service since ${record.oosDate}` : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          )}
          {canCheck && configured && record && (
            <Button variant="secondary" className="btn-sm" onClick={check} disabled={req.loading}>
              Check now
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
