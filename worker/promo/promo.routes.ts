import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { requireArea, requireAuth } from '../lib/auth';
import { validate } from '../lib/validate';
import {
  PROMO_EFFECT_TYPES,
  assignSchema,
  checkSchema,
  createRandomSchema,
  createSchema,
  EFFECT_TYPES,
  freeStatusSchema,
  idSchema,
  useSchema,
} from './promo.schema';
import * as svc from './promo.service';

const manage = requireArea('promo');
const payer = requireArea('payment');

/** /api/promocode: marketing and the admin manage codes; any paying user checks and uses one. */
export const promoRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .post('/checkPromoCode', payer, validate('json', checkSchema), async (c) =>
    c.json(await svc.check(c.env, c.var.db, c.var.caller, c.req.valid('json').name), 200),
  )
  .post('/usePromoCode', payer, validate('json', useSchema), async (c) =>
    c.json(await svc.use(c.env, c.var.db, c.var.caller, c.req.valid('json').promoName), 200),
  )
  .get('/', manage, async (c) => c.json(await svc.list(c.var.db, 'all'), 200))
  .get('/freeAndPublic', manage, async (c) => c.json(await svc.list(c.var.db, 'free'), 200))
  .get('/usedAndPublic', manage, async (c) => c.json(await svc.list(c.var.db, 'used'), 200))
  .get('/finishedAndPublic', manage, async (c) => c.json(await svc.list(c.var.db, 'finished'), 200))
  .get('/types', manage, (c) => c.json(PROMO_EFFECT_TYPES, 200))
  .get('/effectTypes', manage, (c) => c.json(EFFECT_TYPES, 200))
  .post('/createRandomPublic', manage, validate('json', createRandomSchema), async (c) =>
    c.json(await svc.createRandom(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/create', manage, validate('json', createSchema), async (c) => c.json(await svc.create(c.var.db, c.var.caller, c.req.valid('json')), 200))
  .post('/delete', manage, validate('json', idSchema), async (c) => c.json(await svc.remove(c.var.db, c.req.valid('json').id), 200))
  .post('/assignUser', manage, validate('json', assignSchema), async (c) => c.json(await svc.assign(c.var.db, c.req.valid('json')), 200))
  .post('/removeUserAssignment', manage, validate('json', idSchema), async (c) => c.json(await svc.unassign(c.var.db, c.req.valid('json').id), 200))
  .post('/updatePromoListFreeStatus', manage, validate('json', freeStatusSchema), async (c) =>
    c.json(await svc.setFreeStatus(c.var.db, c.req.valid('json').list), 200),
  );

export type PromoRoutes = typeof promoRoutes;
