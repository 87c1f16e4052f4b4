import { parseResponse } from 'hono/client';
import { useMemo } from 'react';
import useSWR from 'swr';
import type { Role } from '../../../worker/lib/permissions';
import { api } from '../../lib/api-client';
import { saveBlob } from '../../lib/download';
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
  return { data, isLoading: read.isLoading, error: read.error as unknown, mutate: read.mutate };
}

/** A page of the view with its load's total, Companies and days always there. */
export type HistoryPageView = HistoryPageDto & {
  total: number;
  filteredTotal: number;
  companies: string[];
  perDay: NonNullable<HistoryPageDto['perDay']>;
  archived: NonNullable<HistoryPageDto['archived']>;
};
type LoadSummary = Pick<HistoryPageView, 'total' | 'companies' | 'perDay' | 'archived'>;

/**
 * Each Load's total, Companies and days, by its stamp: they do not change with the view, so only
 * a Load's first page asks for them, and each page, sort, search or Company change after it asks
 * for its page alone (`summary: false`: one read instead of three on the server).
 */
const summaries = new Map<number, LoadSummary>();

async function readPage(json: HistoryPageQuery, stamp: number): Promise<HistoryPageView> {
  const known = summaries.get(stamp);
  const answer = await parseResponse(api.callHistory.page.$post({ json: { ...json, summary: !known } }));
  if (answer.total !== null && answer.companies && answer.perDay) {
    const summary = { total: answer.total, companies: answer.companies, perDay: answer.perDay, archived: answer.archived ?? [] };
    if (summaries.size > 20) summaries.clear();
    summaries.set(stamp, summary);
    return { ...answer, ...summary, filteredTotal: answer.filteredTotal ?? summary.total };
  }
  // `known` is there: this page was asked for without the summary
  const summary = known!;
  return { ...answer, ...summary, filteredTotal: answer.filteredTotal ?? summary.total };
}

/**
 * One page of the loaded view from the server (search, Company, sort, page, size), keyed by the
 * body and the load's `stamp` (a new Load reads again); the previous page stays shown while the
 * next one comes, so paging and typing do not flash.
 */
export const useHistoryPage = (json: HistoryPageQuery | null, stamp: number, onError: (err: unknown) => void) =>
  useSWR<HistoryPageView>(json ? ['/api/callHistory/page', json, stamp] : null, () => readPage(json!, stamp), {
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

export type ArchivedMonth = Data<typeof api.callHistory.archive.$get>['months'][number];
type ArchiveMonthBody = Args<typeof api.callHistory.archive.restore.$post>['json'];

/** A team's archived months (decision 0171): a manager's own (no `managerId`), a director's or the admin's picked manager's. */
export const useArchivedMonths = (enabled: boolean, managerId: string | null) =>
  useGet(enabled ? api.callHistory.archive : null, { query: managerId ? { managerId } : {} }, { revalidateOnFocus: false, shouldRetryOnError: false });

/** One archived month as CSV, streamed by the server from the archive, saved under `filename`. */
export async function exportArchivedMonth(json: ArchiveMonthBody, filename: string) {
  const res = await api.callHistory.archive.export.$post({ json });
  saveBlob(filename, await res.blob());
}

/** Puts an archived month back into Contact History for a while. */
export const restoreArchivedMonth = (json: ArchiveMonthBody) => parseResponse(api.callHistory.archive.restore.$post({ json }));
