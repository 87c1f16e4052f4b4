import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, messageSchema, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { PROMO_MESSAGES as PROMO } from './promo.messages';
import {
  assignSchema,
  checkSchema,
  createRandomSchema,
  createSchema,
  EFFECT_TYPES,
  freeStatusSchema,
  idSchema,
  PROMO_EFFECT_TYPES,
  promoCheckSchema,
  promoSchema,
  usePromoResultSchema,
  useSchema,
} from './promo.schema';
import * as svc from './promo.service';

/** Why a code cannot be used by the caller now (checkPromoCode and usePromoCode). */
const unusable = [PROMO.notFound, PROMO.alreadyUsed, PROMO.finished, PROMO.pending, PROMO.tooManyChecks];
const promoList = answers(z.array(promoSchema));

/** /api/promocode: marketing and the admin manage codes; any paying user checks and uses one. */
export const promoRoutes = new Hono<AppEnv>()
  .post('/checkPromoCode', allow('payment'), readOnly(), validate('json', checkSchema), answers(promoCheckSchema, unusable), async (c) =>
    c.var.answer(await svc.check(c.env, c.var.control, c.var.caller, c.req.valid('json').name)),
  )
  .post('/usePromoCode', allow('payment'), validate('json', useSchema), answers(usePromoResultSchema, [...unusable, PROMO.busy]), async (c) =>
    c.var.answer(await svc.use(c.env, c.var.control, { companyId: c.var.companyId, shard: c.var.shard }, c.var.caller, c.req.valid('json').promoName)),
  )
  .get('/', allow('promo'), readOnly(), promoList, async (c) => c.var.answer(await svc.list(c.env, c.var.control, 'all')))
  .get('/freeAndPublic', allow('promo'), readOnly(), promoList, async (c) => c.var.answer(await svc.list(c.env, c.var.control, 'free')))
  .get('/usedAndPublic', allow('promo'), readOnly(), promoList, async (c) => c.var.answer(await svc.list(c.env, c.var.control, 'used')))
  .get('/finishedAndPublic', allow('promo'), readOnly(), promoList, async (c) => c.var.answer(await svc.list(c.env, c.var.control, 'finished')))
  .get('/types', allow('promo'), answers(z.array(z.enum(PROMO_EFFECT_TYPES))), (c) => c.var.answer([...PROMO_EFFECT_TYPES]))
  .get('/effectTypes', allow('promo'), answers(z.array(z.strictObject({ value: z.enum(PROMO_EFFECT_TYPES), label: z.string() }))), (c) =>
    c.var.answer([...EFFECT_TYPES]),
  )
  .post('/createRandomPublic', allow('promo'), validate('json', createRandomSchema), answers(withMessage({ codes: z.array(promoSchema) })), async (c) =>
    c.var.answer(await svc.createRandom(c.env, c.var.control, c.var.caller, c.req.valid('json'))),
  )
  .post('/create', allow('promo'), validate('json', createSchema), answers(promoSchema, [PROMO.nameTaken]), async (c) =>
    c.var.answer(await svc.create(c.env, c.var.control, c.var.caller, c.req.valid('json'))),
  )
  .post('/delete', allow('promo'), validate('json', idSchema), answers(messageSchema, [PROMO.notFound, PROMO.deleteUsed]), async (c) =>
    c.var.answer(await svc.remove(c.var.control, c.req.valid('json').id)),
  )
  .post(
    '/assignUser',
    allow('promo'),
    validate('json', assignSchema),
    answers(withMessage({ promo: promoSchema }), [PROMO.notFound, PROMO.userNotFound, PROMO.userCannotUse, PROMO.assignUsed]),
    async (c) => c.var.answer(await svc.assign(c.env, c.var.control, c.req.valid('json'))),
  )
  .post('/removeUserAssignment', allow('promo'), validate('json', idSchema), answers(withMessage({ promo: promoSchema }), [PROMO.notFound]), async (c) =>
    c.var.answer(await svc.unassign(c.env, c.var.control, c.req.valid('json').id)),
  )
  .post(
    '/updatePromoListFreeStatus',
    allow('promo'),
    validate('json', freeStatusSchema),
    answers(withMessage({ updated: z.number() }), [PROMO.listEmpty, PROMO.listTooLong]),
    async (c) => c.var.answer(await svc.setFreeStatus(c.var.control, c.req.valid('json').list)),
  );

export type PromoRoutes = typeof promoRoutes;
