import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import * as svc from './filter-types.service';
import { FILTER_MESSAGES as FILTER } from './filters.messages';
import { filterOverrideSchema, filterTypeSchema } from './filters.schema';

/**
 * GET /api/user/filterOverrides and PUT /api/user/update/filterOverride/ (mounted under /api/user,
 * before the users area). Agents may read the team's types but not rename them: refused before the body is read.
 */
export const filterTypeRoutes = new Hono<AppEnv>()
  .get('/filterOverrides', allow('filters'), answers(z.array(filterTypeSchema)), async (c) => c.var.answer(await svc.listTypes(c.var.db, c.var.caller)))
  .put(
    '/update/filterOverride',
    allow('filterTypesEdit'),
    validate('json', filterOverrideSchema),
    answers(withMessage({ filterTypes: z.array(filterTypeSchema) }), [FILTER.typeNameEmpty, FILTER.badColor, FILTER.typeNotFound]),
    async (c) => c.var.answer(await svc.updateTypes(c.var.db, c.var.caller, c.req.valid('json').newFilters)),
  );

export type FilterTypeRoutes = typeof filterTypeRoutes;
