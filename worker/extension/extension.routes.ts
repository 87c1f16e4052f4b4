import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers } from '../lib/answer';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { HEALTH_MESSAGES as HEALTH } from './extension-health.messages';
import { healthQuerySchema, healthReportSchema, healthSummarySchema } from './extension-health.schema';
import * as health from './extension-health.service';

/**
 * /api/extension: what the load-board extension reports about DAT's page (docs/api/extension.md).
 * Any signed-in user's extension may report (counts only); the admin reads the summary.
 */
const stored = z.strictObject({ stored: z.boolean() });

export const extensionRoutes = new Hono<AppEnv>()
  .post(
    '/health',
    allow('signedIn'),
    validate('json', healthReportSchema),
    answers({ 200: stored, 201: stored }, [HEALTH.version, HEALTH.board, HEALTH.layout, HEALTH.counts]),
    async (c) => {
      const { stored } = await health.storeReport(c.var.db, c.var.caller, c.req.valid('json'));
      return c.var.answer({ stored }, stored ? 201 : 200);
    },
  )
  .get('/health', allow('admin'), readOnly(), validate('query', healthQuerySchema), answers(healthSummarySchema, [HEALTH.days]), async (c) =>
    c.var.answer(await health.summary(c.env, c.req.valid('query').days)),
  );

export type ExtensionRoutes = typeof extensionRoutes;
