import { parseResponse } from 'hono/client';
import useSWR from 'swr';
import { api } from '../../lib/api-client';
import { type Args, type Data, keyOf } from '../../lib/use-api';

export type LoginHistoryPageQuery = Args<typeof api.analytics.loginHistory.page.$post>['json'];
export type LoginHistoryPage = Data<typeof api.analytics.loginHistory.page.$post>;
/**
 * A page of Login History (POST /api/analytics/loginHistory/page, docs/decisions/0187-paged-fan-out.md).
 * The last page stays shown while the next comes; `key` tells which request the data answers, so a
 * failed page is never taken for the one before it.
 */
export const useLoginHistoryPage = (query: LoginHistoryPageQuery | null) => {
  const key = query ? JSON.stringify([keyOf(api.analytics.loginHistory.page), query]) : null;
  const read = useSWR(key, async (k: string) => ({ key: k, page: await parseResponse(api.analytics.loginHistory.page.$post({ json: query! })) }), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  return { ...read, key };
};
