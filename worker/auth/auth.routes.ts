import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { endLiveSession, endLiveSessionsOf } from '../team/live';
import { emailSchema, hashParam, loginSchema, newPasswordSchema, registerSchema, sessionIdParam } from './auth.schema';
import * as auth from './auth.service';

export const authRoutes = new Hono<AppEnv>()
  .post('/login', allow('public'), validate('json', loginSchema), async (c) =>
    c.json(await auth.login(c.env, c.var.control, c.req.raw, c.req.valid('json')), 200),
  )
  .post('/register', allow('public'), validate('json', registerSchema), async (c) =>
    c.json(await auth.register(c.env, c.var.control, c.req.raw, c.req.valid('json')), 200),
  )
  .post('/sendPasswordHash', allow('public'), validate('json', emailSchema), async (c) =>
    c.json(await auth.sendPasswordHash(c.env, c.var.control, c.req.valid('json').email), 200),
  )
  .post('/passwordHashVerify/:hash', allow('public'), validate('param', hashParam), validate('json', newPasswordSchema), async (c) => {
    const { hash } = c.req.valid('param');
    const db = await auth.tokenDb(c.env, c.var.control, hash);
    const { message, userId } = await auth.resetPassword(c.env, db, hash, c.req.valid('json').newPassword);
    // every session ended: so do its live sockets
    endLiveSessionsOf(c, db, userId);
    return c.json({ message }, 200);
  })
  // Not in the spec: signs this client's session out (the caller's other sessions stay).
  .post('/logout', allow('signedIn'), async (c) => {
    const answer = await auth.logout(c.var.db, c.var.caller);
    endLiveSession(c, c.var.caller, c.var.caller.sessionId);
    return c.json(answer, 200);
  })
  // Not in the spec: the caller's active sessions (Profile), and signing one of them out.
  .get('/sessions', allow('signedIn'), readOnly(), async (c) => c.json(await auth.listSessions(c.var.db, c.var.caller), 200))
  .delete('/sessions/:id', allow('signedIn'), validate('param', sessionIdParam), async (c) => {
    const answer = await auth.revokeSession(c.var.db, c.var.caller, c.req.valid('param').id);
    endLiveSession(c, c.var.caller, c.req.valid('param').id);
    return c.json(answer, 200);
  });

/** GET /api/user/verify/{hash}: public, mounted before the users area. */
export const emailVerifyRoutes = new Hono<AppEnv>().get('/verify/:hash', allow('public'), validate('param', hashParam), async (c) => {
  const { hash } = c.req.valid('param');
  return c.json(await auth.verifyEmail(await auth.tokenDb(c.env, c.var.control, hash), hash), 200);
});

export type AuthRoutes = typeof authRoutes;

export type EmailVerifyRoutes = typeof emailVerifyRoutes;
