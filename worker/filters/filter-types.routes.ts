import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import * as svc from './filter-types.service';
import { filterOverrideSchema } from './filters.schema';

/**
 * GET /api/user/filterOverrides and PUT /api/user/update/filterOverride/ (mounted under /api/user,
 * before the users area). Agents may read the team's types but not rename them: refused before the body is read.
 */
export const filterTypeRoutes = new Hono<AppEnv>()
  .get('/filterOverrides', allow('filters'), async (c) => c.json(await svc.listTypes(c.var.db, c.var.caller), 200))
  .put('/update/filterOverride', allow('filterTypesEdit'), validate('json', filterOverrideSchema), async (c) =>
    c.json(await svc.updateTypes(c.var.db, c.var.caller, c.req.valid('json').newFilters), 200),
  );

export type FilterTypeRoutes = typeof filterTypeRoutes;
