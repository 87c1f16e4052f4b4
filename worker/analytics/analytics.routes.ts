import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { answers } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES as COMMON } from '../lib/common-messages';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { ANALYTICS_MESSAGES as ANALYTICS } from './analytics.messages';
import { loginHistoryPageResultSchema, loginHistoryPageSchema, loginHistoryResultSchema, loginHistorySchema } from './analytics.schema';
import * as svc from './analytics.service';

/** /api/analytics: the admin's Login History (with daily logins for the chart), over every shard. */
export const analyticsRoutes = new Hono<AppEnv>()
  .post(
    '/loginHistory',
    allow('analytics'),
    readOnly(),
    validate('json', loginHistorySchema),
    answers(loginHistoryResultSchema, [ANALYTICS.dateFrom, ANALYTICS.future, ANALYTICS.timeZone]),
    async (c) => c.var.answer(await svc.loginHistory(c.env, c.req.valid('json'))),
  )
  .post(
    '/loginHistory/page',
    allow('analytics'),
    readOnly(),
    validate('json', loginHistoryPageSchema),
    answers(loginHistoryPageResultSchema, [ANALYTICS.dateFrom, ANALYTICS.future, ANALYTICS.timeZone, COMMON.badCursor]),
    async (c) => c.var.answer(await svc.loginHistoryPage(c.env, c.req.valid('json'))),
  );

export type AnalyticsRoutes = typeof analyticsRoutes;
