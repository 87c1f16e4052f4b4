import { parseResponse } from 'hono/client';
import { useMemo } from 'react';
import type { Role } from '../../../worker/lib/permissions';
import { api } from '../../lib/api-client';
import { type Args, type Data, useGet, usePost } from '../../lib/use-api';

export type HistoryRowDto = Data<typeof api.callHistory.getHistory.$post>[number];
export type HistoryQuery = Args<typeof api.callHistory.getHistory.$post>['json'];

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

export const loadHistory = (json: HistoryQuery) => parseResponse(api.callHistory.getHistory.$post({ json }));
