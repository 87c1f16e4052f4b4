import useSWR from 'swr';
import type { ActiveLoadDto } from '../../../worker/loads/loads.schema';
import { fetcher, post } from '../../lib/api-client';

export type { ActiveLoadDto };

/** A manager sees its team's loads (POST /team); everyone else its own (GET /my). */
export function useActiveLoads(isManager: boolean) {
  return useSWR<ActiveLoadDto[]>(isManager ? ['activeLoadTeam'] : '/api/activeLoad/my', (key: string | string[]) =>
    typeof key === 'string' ? fetcher<ActiveLoadDto[]>(key) : post<ActiveLoadDto[]>('/api/activeLoad/team', {}),
  );
}

export const deleteLoad = (id: string) => post<{ message: string }>('/api/activeLoad/delete/', { id });

/** A 'YYYY-MM-DD' load date as a short local date; any other text as it came. */
export function loadDateText(value: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
}
