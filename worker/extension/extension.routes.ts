import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { healthQuerySchema, healthReportSchema } from './extension-health.schema';
import * as health from './extension-health.service';

/**
 * /api/extension: what the load-board extension reports about DAT's page (docs/api/extension.md).
 * Any signed-in user's extension may report (counts only); the admin reads the summary.
 */
export const extensionRoutes = new Hono<AppEnv>()
  .post('/health', allow('signedIn'), validate('json', healthReportSchema), async (c) => {
    const { stored } = await health.storeReport(c.var.db, c.var.caller, c.req.valid('json'));
    return c.json({ stored }, stored ? 201 : 200);
  })
  .get('/health', allow('admin'), readOnly(), validate('query', healthQuerySchema), async (c) =>
    c.json(await health.summary(c.env, c.req.valid('query').days), 200),
  );

export type ExtensionRoutes = typeof extensionRoutes;
