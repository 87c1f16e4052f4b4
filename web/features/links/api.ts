import { parseResponse } from 'hono/client';
import useSWR from 'swr';
import { api } from '../../lib/api-client';
import { saveBlob } from '../../lib/download';
import { type Args, type Data, keyOf, useGet } from '../../lib/use-api';

const link = api.link;

export type LinkDto = Data<typeof link.index.$get>[number];
export type LinkDetail = Data<(typeof link)[':id']['$get']>;

export const LINKS_KEY = keyOf(link.index);

/** The caller's own links, whole (the admin's every-user view reads pages: useLinksPage). Errors are silent (spec). */
export const useLinks = (enabled: boolean) => useGet(enabled ? link.index : null, undefined, { onError: () => undefined });
export type LinksPageQuery = Args<typeof link.page.$get>['query'];
/**
 * A page of the admin's every-user links (GET /api/link/page?all=1, decision 0187). The last page
 * stays shown while the next comes; `key` tells which request the data answers, so a failed page
 * is never taken for the one before it.
 */
export const useLinksPage = (query: LinksPageQuery | null) => {
  const key = query ? keyOf(link.page, { query }) : null;
  const read = useSWR(key, async (k: string) => ({ key: k, page: await parseResponse(link.page.$get({ query: query! })) }), { keepPreviousData: true });
  return { ...read, key };
};
/** One link with its stats, refreshed while the page is open. Errors are silent (spec). */
export const useLink = (id: string | undefined) =>
  useGet(id ? link[':id'] : null, { param: { id: encodeURIComponent(id ?? '') } }, { onError: () => undefined, refreshInterval: 10_000 });

export const createLink = (json: Args<typeof link.generate.$post>['json']) => parseResponse(link.generate.$post({ json }));
export const setLinkDisabled = (id: string, isDisabled: boolean) =>
  parseResponse(link[':id'].$put({ param: { id: encodeURIComponent(id) }, json: { isDisabled } }));
export const updateLink = (id: string, json: Args<(typeof link)[':id']['$put']>['json']) =>
  parseResponse(link[':id'].$put({ param: { id: encodeURIComponent(id) }, json }));
export const deleteLink = (id: string) => parseResponse(link[':id'].$delete({ param: { id: encodeURIComponent(id) } }));

export type ApiKeyDto = Data<typeof link.keys.$get>[number];
export const KEYS_KEY = keyOf(link.keys);
export const useApiKeys = () => useGet(link.keys);
export const createApiKey = (json: Args<typeof link.keys.$post>['json']) => parseResponse(link.keys.$post({ json }));
export const revokeApiKey = (id: string) => parseResponse(link.keys[':id'].$delete({ param: { id: encodeURIComponent(id) } }));

/** Saves a CSV the server writes (it carries its own BOM) under `filename`. */
async function saveCsv(res: Promise<Response>, filename: string) {
  saveBlob(filename, await (await res).blob());
}
export const exportLinks = (all: boolean) => saveCsv(link['export.csv'].$get(all ? { query: { all: '1' } } : {}) as Promise<Response>, 'links.csv');
export const exportClicks = (id: string, code: string) =>
  saveCsv(link[':id']['clicks.csv'].$get({ param: { id: encodeURIComponent(id) } }) as Promise<Response>, `link-${code}-clicks.csv`);
