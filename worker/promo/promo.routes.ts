import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import {
  assignSchema,
  checkSchema,
  createRandomSchema,
  createSchema,
  EFFECT_TYPES,
  freeStatusSchema,
  idSchema,
  PROMO_EFFECT_TYPES,
  useSchema,
} from './promo.schema';
import * as svc from './promo.service';

/** /api/promocode: marketing and the admin manage codes; any paying user checks and uses one. */
export const promoRoutes = new Hono<AppEnv>()
  .post('/checkPromoCode', allow('payment'), readOnly(), validate('json', checkSchema), async (c) =>
    c.json(await svc.check(c.env, c.var.control, c.var.caller, c.req.valid('json').name), 200),
  )
  .post('/usePromoCode', allow('payment'), validate('json', useSchema), async (c) =>
    c.json(await svc.use(c.env, c.var.control, { companyId: c.var.companyId, shard: c.var.shard }, c.var.caller, c.req.valid('json').promoName), 200),
  )
  .get('/', allow('promo'), readOnly(), async (c) => c.json(await svc.list(c.env, c.var.control, 'all'), 200))
  .get('/freeAndPublic', allow('promo'), readOnly(), async (c) => c.json(await svc.list(c.env, c.var.control, 'free'), 200))
  .get('/usedAndPublic', allow('promo'), readOnly(), async (c) => c.json(await svc.list(c.env, c.var.control, 'used'), 200))
  .get('/finishedAndPublic', allow('promo'), readOnly(), async (c) => c.json(await svc.list(c.env, c.var.control, 'finished'), 200))
  .get('/types', allow('promo'), (c) => c.json(PROMO_EFFECT_TYPES, 200))
  .get('/effectTypes', allow('promo'), (c) => c.json(EFFECT_TYPES, 200))
  .post('/createRandomPublic', allow('promo'), validate('json', createRandomSchema), async (c) =>
    c.json(await svc.createRandom(c.env, c.var.control, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/create', allow('promo'), validate('json', createSchema), async (c) =>
    c.json(await svc.create(c.env, c.var.control, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/delete', allow('promo'), validate('json', idSchema), async (c) => c.json(await svc.remove(c.var.control, c.req.valid('json').id), 200))
  .post('/assignUser', allow('promo'), validate('json', assignSchema), async (c) => c.json(await svc.assign(c.env, c.var.control, c.req.valid('json')), 200))
  .post('/removeUserAssignment', allow('promo'), validate('json', idSchema), async (c) =>
    c.json(await svc.unassign(c.env, c.var.control, c.req.valid('json').id), 200),
  )
  .post('/updatePromoListFreeStatus', allow('promo'), validate('json', freeStatusSchema), async (c) =>
    c.json(await svc.setFreeStatus(c.var.control, c.req.valid('json').list), 200),
  );

export type PromoRoutes = typeof promoRoutes;
