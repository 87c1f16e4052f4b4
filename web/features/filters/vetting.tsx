/**
 * The broker's FMCSA status on the filter list and in the filter modal
 * (docs/decisions/0021-broker-vetting.md): a chip with the check's date, and Check now for managers.
 */
import { parseResponse } from 'hono/client';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { VettingDto } from '../../../worker/vetting/vetting.schema';
import { Button } from '../../components/ui/button';
import { RequestFailed } from '../../components/ui/request-state';
import { messageText } from '../../i18n/errors';
import { api } from '../../lib/api-client';
import { shortDate } from '../../lib/format';
import { usePost } from '../../lib/use-api';
import { useRequest } from '../../lib/use-request';
import { VETTING_LABEL_KEYS } from './texts';

/** The records of these filters' brokers (one call for the list on screen). */
export function useFilterVetting(filterIds: string[]) {
  const ids = useMemo(() => [...filterIds].sort(), [filterIds]);
  return usePost(ids.length ? api.vetting.filters : null, { json: { filterIds: ids } }, { keepPreviousData: true });
}

export const checkVetting = (filterId: string) => parseResponse(api.vetting.check.$post({ json: { filterId } }));

const TONE: Record<string, string> = { active: 'pill-ok', inactive: 'pill-bad', no_bond: 'pill-bad', not_found: 'pill-warn' };

/** "Broker authority inactive · checked 25 Nov 2026", or "Not checked yet"; "FMCSA checks not configured" without a webKey. */
export function VettingChip({ record, configured }: { record: VettingDto | null | undefined; configured: boolean }) {
  const { t } = useTranslation();
  if (!configured) return <span className="muted vetting-chip">{t('filterVetting.notConfigured')}</span>;
  if (!record) return <span className="muted">{t('filterVetting.noNumber')}</span>;
  const checked = record.checkedAt ? t('filterVetting.checked', { date: shortDate(record.checkedAt) }) : null;
  const title = [
    record.legalName,
    record.lastError && record.checkedAt ? t('filterVetting.lastFailed', { error: record.lastError, date: shortDate(record.checkedAt) }) : null,
  ]
    .filter(Boolean)
    .join(' — ');
  return (
    <span className="vetting-chip" data-testid="vetting-chip" data-state={record.state ?? 'unchecked'} title={title || undefined}>
      <span className={`label-pill ${record.state ? TONE[record.state] : 'pill-off'}`}>{t(VETTING_LABEL_KEYS[record.state ?? 'unchecked'])}</span>
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
  const { t } = useTranslation();
  const state = useFilterVetting(useMemo(() => [filterId], [filterId]));
  const req = useRequest();
  const record = state.data?.records[filterId];
  const configured = state.data?.configured ?? true;
  const check = async () => {
    const res = await req.run(() => checkVetting(filterId), { success: (r) => messageText(r.message, r.code) });
    if (res) await state.mutate();
  };
  return (
    <section className="vetting-panel" aria-label={t('filterVetting.label')} data-testid="vetting-panel">
      <h3>{t('filterVetting.heading')}</h3>
      {state.error != null && !state.data ? (
        <RequestFailed what={t('filterVetting.what')} error={state.error} onRetry={() => void state.mutate()} compact />
      ) : !state.data ? (
        <span className="muted">{t('filterVetting.loading')}</span>
      ) : (
        <div className="vetting-row">
          <VettingChip record={record} configured={configured} />
          {record?.state && record.state !== 'not_found' && (
            <span className="status-note">
              {[
                record.legalName,
                record.dotNumber && t('filterVetting.usdot', { number: record.dotNumber }),
                t('filterVetting.authority', { value: record.brokerAuthority ?? '?' }),
                t('filterVetting.bond', {
                  value:
                    record.bondOnFile === '0' || !record.bondOnFile
                      ? t('filterVetting.bondNone')
                      : t('filterVetting.bondAmount', { amount: record.bondOnFile }),
                }),
                record.outOfService ? t('filterVetting.outOfService', { date: record.oosDate }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          )}
          {canCheck && configured && record && (
            <Button variant="secondary" className="btn-sm" onClick={check} disabled={req.loading}>
              {t('filterVetting.checkNow')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
