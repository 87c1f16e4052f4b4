import { type ClientResponse, parseResponse } from 'hono/client';
import useSWR, { type SWRConfiguration } from 'swr';

type AnyCall = (args?: any, options?: any) => Promise<ClientResponse<any, any, any>>;
type AnyUrl = (arg?: any) => URL;

export type Data<F extends AnyCall> = Awaited<ReturnType<typeof parseResponse<Awaited<ReturnType<F>>>>>;
export type Args<F extends AnyCall> = NonNullable<Parameters<F>[0]>;

/** Path and query, so a screen that changes the data refreshes every read of it by the same key. */
export function keyOf(endpoint: { $url: AnyUrl }, arg?: unknown): string {
  const url = endpoint.$url(arg);
  return `${url.pathname}${url.search}`;
}

export function useGet<E extends { $get: AnyCall; $url: AnyUrl }>(endpoint: E | null, args?: Args<E['$get']>, config?: SWRConfiguration<Data<E['$get']>>) {
  return useSWR<Data<E['$get']>>(endpoint ? keyOf(endpoint, args) : null, () => parseResponse(endpoint!.$get(args)), config);
}

/** One SWR read of a POST endpoint that reads (a search, a team list), keyed by its URL and body. */
export function usePost<E extends { $post: AnyCall; $url: AnyUrl }>(endpoint: E | null, args: Args<E['$post']>, config?: SWRConfiguration<Data<E['$post']>>) {
  return useSWR<Data<E['$post']>>(endpoint ? [keyOf(endpoint), args] : null, () => parseResponse(endpoint!.$post(args)), config);
}
