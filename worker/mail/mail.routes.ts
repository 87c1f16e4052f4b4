import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, messageSchema } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES as COMMON } from '../lib/common-messages';
import { shardDb } from '../lib/d1';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { MAIL_MESSAGES as MAIL } from './mail.messages';
import { failedMailSchema, failedMailsPageSchema, failedPageQuerySchema, mailIdParam } from './mail.schema';
import { failedMailsPage, listFailedMails, resendMail } from './mail.service';
import { shardOfMail } from './mailer';

/** /api/mail: the admin's Failed mails screen (mails out of tries, with their error) and Resend. */
export const mailRoutes = new Hono<AppEnv>()
  .get('/failed', allow('mail'), readOnly(), answers(z.strictObject({ total: z.number(), mails: z.array(failedMailSchema) })), async (c) =>
    c.var.answer(await listFailedMails(c.env)),
  )
  .get('/failed/page', allow('mail'), readOnly(), validate('query', failedPageQuerySchema), answers(failedMailsPageSchema, [COMMON.badCursor]), async (c) =>
    c.var.answer(await failedMailsPage(c.env, c.req.valid('query'))),
  )
  .post('/:id/resend', allow('mail'), validate('param', mailIdParam), answers(messageSchema, [MAIL.notFound, MAIL.notFailed]), async (c) => {
    const { id } = c.req.valid('param');
    return c.var.answer(await resendMail(c.env, shardDb(c.env, shardOfMail(id)), id, c.var.caller.id));
  });

export type MailRoutes = typeof mailRoutes;
