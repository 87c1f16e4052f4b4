import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { shardDb } from '../lib/d1';
import { shardOfMail } from '../lib/mailer';
import { mailIdParam } from './mail.schema';
import { listFailedMails, resendMail } from './mail.service';

/** /api/mail: the admin's Failed mails screen (mails out of tries, with their error) and Resend. */
export const mailRoutes = new Hono<AppEnv>()
  .get('/failed', allow('mail'), readOnly(), async (c) => c.json(await listFailedMails(c.env), 200))
  .post('/:id/resend', allow('mail'), validate('param', mailIdParam), async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await resendMail(c.env, shardDb(c.env, shardOfMail(id)), id, c.var.caller.id), 200);
  });

export type MailRoutes = typeof mailRoutes;
