import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES as COMMON } from '../lib/common-messages';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { checkNow, vettingOfFilters } from './vetting.filters';
import { VETTING_MESSAGES } from './vetting.messages';
import { filterVettingAnswerSchema, vettingCheckSchema, vettingFiltersSchema, vettingSchema } from './vetting.schema';

/** /api/vetting: FMCSA records of the team's brokers (docs/api/vetting.md). */
export const vettingRoutes = new Hono<AppEnv>()
  .post('/filters', allow('filters'), readOnly(), validate('json', vettingFiltersSchema), answers(filterVettingAnswerSchema), async (c) =>
    c.var.answer(await vettingOfFilters(c.env, c.var.db, c.var.caller, c.req.valid('json').filterIds)),
  )
  .post(
    '/check',
    allow('vettingCheck'),
    validate('json', vettingCheckSchema),
    answers(withMessage({ configured: z.boolean(), record: vettingSchema.nullable() }), [
      COMMON.vettingManagers,
      VETTING_MESSAGES.notFound,
      COMMON.tooManyChecks,
      COMMON.fmcsaBudget,
    ]),
    async (c) => c.var.answer(await checkNow(c.env, c.var.db, c.var.caller, c.req.valid('json').filterId)),
  );
export type VettingRoutes = typeof vettingRoutes;
