import useSWR, { mutate } from 'swr';
import type { PromoDto } from '../../../worker/promo/promo.schema';
import { fetcher, post } from '../../lib/api-client';

export type { PromoDto };

export const PROMO_LISTS = {
  free: '/api/promocode/freeAndPublic',
  used: '/api/promocode/usedAndPublic',
  finished: '/api/promocode/finishedAndPublic',
} as const;
export type PromoList = keyof typeof PROMO_LISTS;

export const usePromoList = (which: PromoList) => useSWR<PromoDto[]>(PROMO_LISTS[which], fetcher);

/** After any change a code may move between lists: reload all three. */
export const refreshPromoLists = () => Promise.all(Object.values(PROMO_LISTS).map((key) => mutate(key)));

export const generateCodes = (body: { effectType: string; effectValue: number; generateAmount: number }) =>
  post<{ message: string; codes: PromoDto[] }>('/api/promocode/createRandomPublic', body);
export const createNamedCode = (body: { name: string; effectType: string; effectValue: number; maxUses: number; isPublic: boolean }) =>
  post<PromoDto>('/api/promocode/create', body);
export const setFreeStatus = (list: { _id: string; isFree: boolean }[]) =>
  post<{ message: string; updated: number }>('/api/promocode/updatePromoListFreeStatus', { list });
export const assignCode = (id: string, email: string) => post<{ message: string; promo: PromoDto }>('/api/promocode/assignUser', { id, email });
export const removeAssignment = (id: string) => post<{ message: string; promo: PromoDto }>('/api/promocode/removeUserAssignment', { id });
export const deleteCode = (id: string) => post<{ message: string }>('/api/promocode/delete', { id });

export const shortDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
export const shortDateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Copies text; answers whether the browser let us. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
