import useSWR from 'swr';
import type { McSettingDto } from '../../../worker/mc-settings/mc-settings.schema';
import { fetcher } from '../../lib/api-client';

export type { McSettingDto };

export const MY_MCS_KEY = '/api/mcSettings';
/** The caller's own MC list. */
export const useMyMcs = () => useSWR<McSettingDto[]>(MY_MCS_KEY, fetcher);
/** The manager's MCs an agent picks from (a lead gets its own). */
export const useParentMcs = (enabled: boolean) => useSWR<McSettingDto[]>(enabled ? '/api/mcSettings/parentMcSettings' : null, fetcher);
