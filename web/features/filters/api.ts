import { parseResponse } from 'hono/client';
import type { FilterSearchInput } from '../../../worker/filters/filters.schema';
import { api } from '../../lib/api-client';
import { download } from '../../lib/download';
import { type Args, type Data, useGet, usePost } from '../../lib/use-api';

const broker = api.broker;

export type FilterDto = Data<typeof broker.index.$post>[number];
export type FilterTypeDto = Data<typeof api.filterTypes.filterOverrides.$get>[number];
export type TeamUserDto = Data<typeof broker.teamUsers.$get>[number];
export type McSettingDto = Data<typeof api.mcSettings.index.$get>[number];
/** What Create Filter and Update Info send. */
export type FilterPayload = Args<typeof broker.add.$post>['json'];
/** The search form's state: every field filled, the type and creator as the selects hold them. */
export type SearchForm = Omit<FilterSearchInput, 'type' | 'creator'> & { type: string; creator: string };

export const useFilterTypes = () => useGet(api.filterTypes.filterOverrides);
export const useTeamUsers = () => useGet(broker.teamUsers);
export const useAllNames = () => useGet(broker.allNames);
/** The caller's own MC list (Lines). */
export const useMyMcs = () => useGet(api.mcSettings.index);
/** The team's MCs (the manager's), to name the MCs a filter lists. */
export const useTeamMcs = () => useGet(api.mcSettings.parentMcSettings);
/** The Filters List for the applied search; the last list stays on screen while the next loads. */
export const useFilterSearch = (search: SearchForm) => usePost(broker.index, { json: search }, { keepPreviousData: true });

export const addFilter = (json: FilterPayload) => parseResponse(broker.add.$post({ json }));
export const updateFilter = (json: FilterPayload) => parseResponse(broker.update.details.$post({ json }));
export const toggleFilter = (filterId: string) => parseResponse(broker.update.isactive.$put({ json: { filterId } }));
export const deleteFilter = (filterId: string) => parseResponse(broker.update.delete.$put({ json: { filterId } }));
export const saveFilterTypes = (newFilters: Pick<FilterTypeDto, '_id' | 'typeName' | 'color'>[]) =>
  parseResponse(api.filterTypes.update.filterOverride.$put({ json: { newFilters } }));

/**
 * The MCs the caller can pick on a filter and in the search: a lead's own MCs; for an agent, its
 * manager's MCs that its own list points at (filters hold the manager's MC ids).
 */
export function pickableMcs(mine: McSettingDto[] | undefined): { _id: string; name: string }[] {
  const seen = new Set<string>();
  const out: { _id: string; name: string }[] = [];
  for (const s of mine ?? []) {
    const mc = s.parentMc ?? { _id: s._id, name: s.name };
    if (!seen.has(mc._id)) {
      seen.add(mc._id);
      out.push(mc);
    }
  }
  return out;
}

export const EMPTY_SEARCH: SearchForm = {
  name: '',
  onlyCreator: false,
  teamWithMe: false,
  teamWithoutMe: false,
  type: 'all',
  onlyContacts: false,
  creator: '',
  allMC: true,
  mcList: [],
};

export type FilterEventDto = Data<(typeof broker)[':filterId']['history']['$get']>[number];
export type FilterNoteDto = Data<(typeof broker)[':filterId']['notes']['$get']>[number];
export type BulkAction = Args<typeof broker.bulk.$post>['json']['action'];

export const useFilterHistory = (filterId: string) => useGet(broker[':filterId'].history, { param: { filterId } });
export const useFilterNotes = (filterId: string) => useGet(broker[':filterId'].notes, { param: { filterId } });
export const addNote = (filterId: string, text: string) => parseResponse(broker[':filterId'].notes.$post({ param: { filterId }, json: { text } }));
export const useQueue = () => useGet(broker.queue);
export const verifyFilters = (filterIds: string[]) => parseResponse(broker.queue.verify.$post({ json: { filterIds } }));
export const rejectFilter = (filterId: string, reason: string) => parseResponse(broker.queue.reject.$post({ json: { filterId, reason } }));
export const bulkFilters = (action: BulkAction, filterIds: string[], type?: string) => parseResponse(broker.bulk.$post({ json: { action, filterIds, type } }));

export type ImportRowInput = Args<typeof broker.import.preview.$post>['json']['rows'][number];
export type ImportPreview = Data<typeof broker.import.preview.$post>;
export const previewImport = (rows: ImportRowInput[]) => parseResponse(broker.import.preview.$post({ json: { rows } }));
export const runImport = (rows: ImportRowInput[]) => parseResponse(broker.import.$post({ json: { rows } }));

/** The filters the caller sees as CSV (GET /api/broker/export), saved as a file. */
export async function exportFilters() {
  const res = await broker.export.$get();
  download(`broker-filters-${new Date().toISOString().slice(0, 10)}.csv`, (await res.text()).replace(/^\ufeff/, ''));
}
