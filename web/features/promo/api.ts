import { parseResponse } from 'hono/client';
import { mutate } from 'swr';
import { api } from '../../lib/api-client';
import { type Args, type Data, keyOf, useGet } from '../../lib/use-api';

const promocode = api.promocode;

export type PromoDto = Data<typeof promocode.freeAndPublic.$get>[number];

const LISTS = {
  free: promocode.freeAndPublic,
  used: promocode.usedAndPublic,
  finished: promocode.finishedAndPublic,
} as const;
export type PromoList = keyof typeof LISTS;

export const usePromoList = (which: PromoList) => useGet(LISTS[which]);

/** After any change a code may move between lists: reload all three. */
export const refreshPromoLists = () => Promise.all(Object.values(LISTS).map((list) => mutate(keyOf(list))));

export const generateCodes = (json: Args<typeof promocode.createRandomPublic.$post>['json']) => parseResponse(promocode.createRandomPublic.$post({ json }));
export const createNamedCode = (json: Args<typeof promocode.create.$post>['json']) => parseResponse(promocode.create.$post({ json }));
export const setFreeStatus = (list: { _id: string; isFree: boolean }[]) => parseResponse(promocode.updatePromoListFreeStatus.$post({ json: { list } }));
export const assignCode = (id: string, email: string) => parseResponse(promocode.assignUser.$post({ json: { id, email } }));
export const removeAssignment = (id: string) => parseResponse(promocode.removeUserAssignment.$post({ json: { id } }));
export const deleteCode = (id: string) => parseResponse(promocode.delete.$post({ json: { id } }));
