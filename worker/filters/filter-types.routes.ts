import { Hono } from 'hono';
import { createFactory, createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { requireArea, requireAuth } from '../lib/auth';
import { forbidden } from '../lib/errors';
import { validate } from '../lib/validate';
import { isLead } from '../mc-settings/team';
import { FILTER_MESSAGES, filterOverrideSchema } from './filters.schema';
import * as svc from './filter-types.service';

const filters = requireArea('filters');
/** Agents may read the team's types but not rename them: refused before the body is read. */
const leadsOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!isLead(c.var.caller)) throw forbidden(FILTER_MESSAGES.agentsCannotRename);
  await next();
});
const updateTypes = createFactory<AppEnv>().createHandlers(requireAuth, filters, leadsOnly, validate('json', filterOverrideSchema), async (c) =>
  c.json(await svc.updateTypes(c.var.db, c.var.caller, c.req.valid('json').newFilters), 200),
);

/**
 * GET /api/user/filterOverrides and PUT /api/user/update/filterOverride/ (mounted under /api/user,
 * before the users area). The auth is per route, not `.use()`: a middleware here would also run
 * for every other /api/user call.
 */
export const filterTypeRoutes = new Hono<AppEnv>()
  .get('/filterOverrides', requireAuth, filters, async (c) => c.json(await svc.listTypes(c.var.db, c.var.caller), 200))
  .put('/update/filterOverride', ...updateTypes)
  .put('/update/filterOverride/', ...updateTypes);

export type FilterTypeRoutes = typeof filterTypeRoutes;
