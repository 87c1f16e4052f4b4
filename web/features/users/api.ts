import useSWR from 'swr';
import type { UserDto } from '../../../worker/users/users.schema';
import { fetcher } from '../../lib/api-client';

export type { UserDto };

export const useUsers = () => useSWR<UserDto[]>('/api/user', fetcher);
export const useUser = (id: string | undefined) => useSWR<UserDto>(id ? `/api/user/${id}` : null, fetcher);

/** "Email verification pending", "No End Date" or a short date (spec: Users List). */
export function subscriptionEndText(u: Pick<UserDto, 'isEmailVerified' | 'subscriptionEndDate'>) {
  if (!u.isEmailVerified) return 'Email verification pending';
  if (!u.subscriptionEndDate) return 'No End Date';
  return shortDate(u.subscriptionEndDate);
}

export const shortDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
