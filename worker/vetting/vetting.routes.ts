import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { checkNow, vettingOfFilters } from './vetting.filters';
import { vettingCheckSchema, vettingFiltersSchema } from './vetting.schema';

/** /api/vetting: FMCSA records of the team's brokers (docs/api/vetting.md). */
export const vettingRoutes = new Hono<AppEnv>()
  .post('/filters', allow('filters'), readOnly(), validate('json', vettingFiltersSchema), async (c) =>
    c.json(await vettingOfFilters(c.env, c.var.db, c.var.caller, c.req.valid('json').filterIds), 200),
  )
  .post('/check', allow('vettingCheck'), validate('json', vettingCheckSchema), async (c) =>
    c.json(await checkNow(c.env, c.var.db, c.var.caller, c.req.valid('json').filterId), 200),
  );
export type VettingRoutes = typeof vettingRoutes;
