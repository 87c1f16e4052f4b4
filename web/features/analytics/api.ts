import { api } from '../../lib/api-client';
import { usePost } from '../../lib/use-api';

/** Login History since `dateFrom` (local midnight, ms), counted in the browser's time zone. */
export const useLoginHistory = (dateFrom: number) =>
  usePost(api.analytics.loginHistory, { json: { dateFrom, timezoneOffset: new Date().getTimezoneOffset() } }, { revalidateOnFocus: false });
