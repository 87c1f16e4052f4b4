import { parseResponse } from 'hono/client';
import { api } from '../../lib/api-client';
import { type Data, keyOf, useGet } from '../../lib/use-api';

export type FailedMailsDto = Data<typeof api.mail.failed.$get>;
export type FailedMailDto = FailedMailsDto['mails'][number];

export const FAILED_MAILS_KEY = keyOf(api.mail.failed);
/** The mails that failed for good (admin), newest first. */
export const useFailedMails = () => useGet(api.mail.failed);
/** Queues a failed mail again. */
export const resendMail = (id: string) => parseResponse(api.mail[':id'].resend.$post({ param: { id } }));
