import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { mailIdParam } from './mail.schema';
import { listFailedMails, resendMail } from './mail.service';

/** /api/mail: the admin's Failed mails screen (mails out of tries, with their error) and Resend. */
export const mailRoutes = new Hono<AppEnv>()
  .get('/failed', allow('mail'), readOnly(), async (c) => c.json(await listFailedMails(c.var.db), 200))
  .post('/:id/resend', allow('mail'), validate('param', mailIdParam), async (c) =>
    c.json(await resendMail(c.env, c.var.db, c.req.valid('param').id, c.var.caller.id), 200),
  );

export type MailRoutes = typeof mailRoutes;
