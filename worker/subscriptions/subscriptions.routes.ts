import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { subscriptionOf } from '../lib/subscription';

export const subscriptionRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/status', (c) => c.json(subscriptionOf(c.var.caller), 200));
