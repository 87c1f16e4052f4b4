import { parseResponse } from 'hono/client';
import useSWRInfinite from 'swr/infinite';
import { api } from '../../lib/api-client';
import { type Data, keyOf, useGet } from '../../lib/use-api';

export type FailedMailsDto = Data<typeof api.mail.failed.$get>;
export type FailedMailDto = FailedMailsDto['mails'][number];

export const FAILED_MAILS_KEY = keyOf(api.mail.failed);
/** The mails that failed for good (admin), newest first. */
export const useFailedMails = () => useGet(api.mail.failed);

export type FailedMailsPage = Data<typeof api.mail.failed.page.$get>;
export const FAILED_PAGE_SIZE = 50;
/**
 * The failed mails a page at a time (GET /api/mail/failed/page, docs/decisions/0187-paged-fan-out.md):
 * each next page asked for with the cursor of the one before; Load more adds one.
 */
export const useFailedMailPages = () =>
  useSWRInfinite<FailedMailsPage>(
    (index: number, previous: FailedMailsPage | null) => (index > 0 && !previous?.next ? null : ['/api/mail/failed/page', previous?.next ?? '']),
    ([, cursor]: [string, string]) => parseResponse(api.mail.failed.page.$get({ query: { limit: String(FAILED_PAGE_SIZE), ...(cursor ? { cursor } : {}) } })),
    { revalidateFirstPage: false },
  );
/** Queues a failed mail again. */
export const resendMail = (id: string) => parseResponse(api.mail[':id'].resend.$post({ param: { id } }));
