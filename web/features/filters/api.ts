import useSWR from 'swr';
import type { FilterDto, FilterSearchInput, FilterTypeDto, TeamUserDto } from '../../../worker/filters/filters.schema';
import type { McSettingDto } from '../../../worker/mc-settings/mc-settings.schema';
import { fetcher } from '../../lib/api-client';

export type { FilterDto, FilterTypeDto, McSettingDto, TeamUserDto };
export type SearchForm = Omit<FilterSearchInput, 'type' | 'creator'> & { type: string; creator: string };

export const TYPES_KEY = '/api/user/filterOverrides';
export const useFilterTypes = () => useSWR<FilterTypeDto[]>(TYPES_KEY, fetcher);
export const useTeamUsers = () => useSWR<TeamUserDto[]>('/api/broker/teamUsers', fetcher);
export const useAllNames = () => useSWR<string[]>('/api/broker/allNames', fetcher);
/** The caller's own MC list (Lines). */
export const useMyMcs = () => useSWR<McSettingDto[]>('/api/mcSettings', fetcher);
/** The team's MCs (the manager's), to name the MCs a filter lists. */
export const useTeamMcs = () => useSWR<McSettingDto[]>('/api/mcSettings/parentMcSettings', fetcher);

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
