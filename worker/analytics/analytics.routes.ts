import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { loginHistorySchema } from './analytics.schema';
import * as svc from './analytics.service';

/** /api/analytics: the admin's Login History (with daily logins for the chart), over every shard. */
export const analyticsRoutes = new Hono<AppEnv>().post('/loginHistory', allow('analytics'), readOnly(), validate('json', loginHistorySchema), async (c) =>
  c.json(await svc.loginHistory(c.env, c.req.valid('json')), 200),
);

export type AnalyticsRoutes = typeof analyticsRoutes;
