import { parseResponse } from 'hono/client';
import { useMemo } from 'react';
import useSWR from 'swr';
import { saveBlob } from '../../lib/download';
import type { Role } from '../../../worker/lib/permissions';
import { api } from '../../lib/api-client';
import { type Args, type Data, useGet, usePost } from '../../lib/use-api';

export type HistoryRowDto = Data<typeof api.callHistory.getHistory.$post>[number];
export type HistoryQuery = Args<typeof api.callHistory.getHistory.$post>['json'];
export type HistoryPageQuery = Args<typeof api.callHistory.page.$post>['json'];
export type HistoryPageDto = Data<typeof api.callHistory.page.$post>;
export type HistoryExportQuery = Args<typeof api.callHistory.export.$post>['json'];

/** Who picks a manager first: a director its managers; the admin any manager. */
export const picksManager = (role: Role | undefined) => role === 'director' || role === 'admin';

const quiet = { onError: () => undefined, revalidateOnFocus: false };

/** The director's managers (the admin: every manager). */
export const useManagers = (enabled: boolean) => useGet(enabled ? api.user.directorChildManagers : null, undefined, quiet);

/** The user checklist: a manager's own team; a director's (or the admin's) picked manager's team. */
export function useTeamUsers(role: Role | undefined, managerId: string | null) {
  const own = useGet(role === 'manager' ? api.user.allTeam : null, undefined, quiet);
  const picked = usePost(
    picksManager(role) && managerId ? api.user.managerChildUsers : null,
    { json: { parentId: managerId ?? '', includeParent: true } },
    quiet,
  );
  return role === 'manager' ? own : picked;
}

/**
 * The MC checklist: an agent's own settings; a manager's own MCs (the team's; the agents'
 * settings point at them); a director's picked manager's MCs.
 */
export function useHistoryMcs(role: Role | undefined, userId: string | undefined, managerId: string | null) {
  const mine = useGet(role === 'agent' ? api.mcSettings.index : null, undefined, quiet);
  const team = useGet(role === 'manager' ? api.mcSettings.allMcSettings : null, undefined, quiet);
  const picked = usePost(picksManager(role) && managerId ? api.mcSettings.byParentId : null, { json: { parentId: managerId ?? '' } }, quiet);
  const read = role === 'agent' ? mine : role === 'manager' ? team : picked;
  const data = useMemo(
    () => (role === 'manager' ? read.data?.filter((mc) => mc.parentMc === null && mc.userId === userId) : read.data),
    [role, userId, read.data],
  );
  return { data, isLoading: read.isLoading };
}

/**
 * One page of the loaded view from the server (search, Company, sort, page, size), keyed by the
 * body and the load's `stamp` (a new Load reads again); the previous page stays shown while the
 * next one comes, so paging and typing do not flash.
 */
export const useHistoryPage = (json: HistoryPageQuery | null, stamp: number, onError: (err: unknown) => void) =>
  useSWR<HistoryPageDto>(json ? ['/api/callHistory/page', json, stamp] : null, () => parseResponse(api.callHistory.page.$post({ json: json! })), {
    keepPreviousData: true,
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    onError,
  });

/** The whole view as CSV, written by the server as it reads (no row cap), saved under `filename`. */
export async function exportHistory(json: HistoryExportQuery, filename: string) {
  // a refusal throws its message (lib/api-client.ts)
  const res = await api.callHistory.export.$post({ json });
  saveBlob(filename, await res.blob());
}
