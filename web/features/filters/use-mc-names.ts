import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { pickableMcs, useMyMcs, useTeamMcs } from './api';

/**
 * The MCs the caller can pick (`pickableMcs`) and an MC's name by its id for the filter screens:
 * "…" while the MC lists load (never "Removed MC" for an MC not loaded yet), "Removed MC" for an id
 * neither the caller's nor the team's list has.
 */
export function useMcNames() {
  const { t } = useTranslation();
  const { data: myMcs } = useMyMcs();
  const { data: teamMcs } = useTeamMcs();
  const mcs = useMemo(() => pickableMcs(myMcs), [myMcs]);
  const names = useMemo(() => new Map([...(teamMcs ?? []), ...mcs].map((m) => [m._id, m.name] as const)), [teamMcs, mcs]);
  const loaded = myMcs !== undefined && teamMcs !== undefined;
  const mcName = useCallback((id: string) => names.get(id) ?? (loaded ? t('filters.removedMc') : '…'), [names, loaded, t]);
  return { myMcs, mcs, mcName };
}
