import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import { emailSchema, hashParam, loginSchema, newPasswordSchema, registerSchema } from './auth.schema';
import * as auth from './auth.service';

export const authRoutes = new Hono<AppEnv>()
  .post('/login', allow('public'), validate('json', loginSchema), async (c) => c.json(await auth.login(c.env, c.var.db, c.req.raw, c.req.valid('json')), 200))
  .post('/register', allow('public'), validate('json', registerSchema), async (c) =>
    c.json(await auth.register(c.env, c.var.db, c.req.raw, c.req.valid('json')), 200),
  )
  .post('/sendPasswordHash', allow('public'), validate('json', emailSchema), async (c) =>
    c.json(await auth.sendPasswordHash(c.env, c.var.db, c.req.valid('json').email), 200),
  )
  .post('/passwordHashVerify/:hash', allow('public'), validate('param', hashParam), validate('json', newPasswordSchema), async (c) =>
    c.json(await auth.resetPassword(c.env, c.var.db, c.req.valid('param').hash, c.req.valid('json').newPassword), 200),
  )
  // Not in the spec: ends every session of the caller (older tokens stop working).
  .post('/logout', allow('signedIn'), async (c) => c.json(await auth.logout(c.var.db, c.var.caller.id), 200));

/** GET /api/user/verify/{hash}: public, mounted before the users area. */
export const emailVerifyRoutes = new Hono<AppEnv>().get('/verify/:hash', allow('public'), validate('param', hashParam), async (c) =>
  c.json(await auth.verifyEmail(c.var.db, c.req.valid('param').hash), 200),
);

export type AuthRoutes = typeof authRoutes;

export type EmailVerifyRoutes = typeof emailVerifyRoutes;
