import { parseResponse } from 'hono/client';
import { api } from '../../lib/api-client';
import { type Args, type Data, keyOf, useGet } from '../../lib/use-api';

const link = api.link;

export type LinkDto = Data<typeof link.index.$get>[number];
export type LinkDetail = Data<(typeof link)[':id']['$get']>;

export const LINKS_KEY = keyOf(link.index);

/** The caller's links; the admin may ask for every user's. Errors are silent (spec). */
export const useLinks = (all: boolean) => useGet(link.index, all ? { query: { all: '1' } } : undefined, { onError: () => undefined });
/** One link with its stats, refreshed while the page is open. Errors are silent (spec). */
export const useLink = (id: string | undefined) =>
  useGet(id ? link[':id'] : null, { param: { id: encodeURIComponent(id ?? '') } }, { onError: () => undefined, refreshInterval: 10_000 });

export const createLink = (json: Args<typeof link.generate.$post>['json']) => parseResponse(link.generate.$post({ json }));
export const setLinkDisabled = (id: string, isDisabled: boolean) =>
  parseResponse(link[':id'].$put({ param: { id: encodeURIComponent(id) }, json: { isDisabled } }));
