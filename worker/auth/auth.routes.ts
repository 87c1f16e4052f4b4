import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, messageSchema } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { endLiveSession, endLiveSessionsOf } from '../team/live';
import { AUTH_MESSAGES as AUTH } from './auth.messages';
import { emailSchema, hashParam, loginAnswerSchema, loginSchema, newPasswordSchema, registerSchema, sessionIdParam, sessionSchema } from './auth.schema';
import * as auth from './auth.service';

export const authRoutes = new Hono<AppEnv>()
  .post(
    '/login',
    allow('public'),
    validate('json', loginSchema),
    answers(loginAnswerSchema, [AUTH.wrongCredentials, AUTH.tooManyLogins, AUTH.language]),
    async (c) => c.var.answer(await auth.login(c.env, c.var.control, c.req.raw, c.req.valid('json'))),
  )
  .post(
    '/register',
    allow('public'),
    validate('json', registerSchema),
    answers(messageSchema, [
      AUTH.nameEmpty,
      AUTH.nameInvisible,
      AUTH.emailEmpty,
      AUTH.emailInvalid,
      AUTH.passwordEmpty,
      AUTH.passwordShort,
      AUTH.country,
      AUTH.phone,
      AUTH.repeatEmpty,
      AUTH.mismatch,
      AUTH.emailTaken,
      AUTH.language,
    ]),
    async (c) => c.var.answer(await auth.register(c.env, c.var.control, c.req.raw, c.req.valid('json'))),
  )
  .post('/sendPasswordHash', allow('public'), validate('json', emailSchema), answers(messageSchema, [AUTH.emailEmpty, AUTH.tooManyMails]), async (c) =>
    c.var.answer(await auth.sendPasswordHash(c.env, c.var.control, c.req.valid('json').email)),
  )
  .post(
    '/passwordHashVerify/:hash',
    allow('public'),
    validate('param', hashParam),
    validate('json', newPasswordSchema),
    answers(messageSchema, [AUTH.passwordShort, AUTH.invalidLink]),
    async (c) => {
      const { hash } = c.req.valid('param');
      const db = await auth.tokenDb(c.env, c.var.control, hash);
      const { message, userId } = await auth.resetPassword(c.env, db, hash, c.req.valid('json').newPassword);
      // every session ended: so do its live sockets
      endLiveSessionsOf(c, db, userId);
      return c.var.answer({ message });
    },
  )
  // Not in the spec: signs this client's session out (the caller's other sessions stay).
  .post('/logout', allow('signedIn'), answers(messageSchema), async (c) => {
    const signedOut = await auth.logout(c.var.db, c.var.caller);
    endLiveSession(c, c.var.caller, c.var.caller.sessionId);
    return c.var.answer(signedOut);
  })
  // Not in the spec: the caller's active sessions (Profile), and signing one of them out.
  .get('/sessions', allow('signedIn'), readOnly(), answers(z.array(sessionSchema)), async (c) => c.var.answer(await auth.listSessions(c.var.db, c.var.caller)))
  .delete('/sessions/:id', allow('signedIn'), validate('param', sessionIdParam), answers(messageSchema, [COMMON_MESSAGES.sessionNotFound]), async (c) => {
    const revoked = await auth.revokeSession(c.var.db, c.var.caller, c.req.valid('param').id);
    endLiveSession(c, c.var.caller, c.req.valid('param').id);
    return c.var.answer(revoked);
  });

/** GET /api/user/verify/{hash}: public, mounted before the users area. */
export const emailVerifyRoutes = new Hono<AppEnv>().get(
  '/verify/:hash',
  allow('public'),
  validate('param', hashParam),
  answers(messageSchema, [AUTH.invalidLink]),
  async (c) => {
    const { hash } = c.req.valid('param');
    return c.var.answer(await auth.verifyEmail(await auth.tokenDb(c.env, c.var.control, hash), hash));
  },
);

export type AuthRoutes = typeof authRoutes;

export type EmailVerifyRoutes = typeof emailVerifyRoutes;
