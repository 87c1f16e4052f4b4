import * as z from 'zod';
import { pageQueryShape, pageShape } from '../lib/paging.schema';
import { MAIL_MESSAGES } from './mail.messages';

export const MAIL_KINDS = ['verify', 'reset', 'email_changed', 'receipt', 'reminder', 'digest', 'vetting'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** pending: waiting for (another) try; sent: the provider took it; failed: out of tries (dead letter), until the admin resends it. */
export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** A mail that failed for good, as the admin's Failed mails screen lists it (never its body: it may hold a reset link). */
export const failedMailSchema = z.strictObject({
  _id: z.string(),
  kind: z.enum(MAIL_KINDS),
  to: z.string(),
  subject: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  failedAt: z.string().nullable(),
});
export type FailedMailDto = z.infer<typeof failedMailSchema>;

/** GET /api/mail/failed/page: failed mails a page at a time, searched by recipient or subject. */
export const failedPageQuerySchema = z.object(pageQueryShape);
export type FailedPageQuery = z.output<typeof failedPageQuerySchema>;
export const failedMailsPageSchema = z.strictObject(pageShape(failedMailSchema));
export type FailedMailsPage = z.infer<typeof failedMailsPageSchema>;

export { MAIL_MESSAGES };

export const mailIdParam = z.object({ id: z.string().min(1).max(64) });
