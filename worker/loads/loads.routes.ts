import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { addLoadSchema, deleteLoadSchema } from './loads.schema';
import * as svc from './loads.service';

/** /api/activeLoad: My active loads, the team's for a manager, and the extension's add call (docs/api/history.md). */
export const activeLoadRoutes = new Hono<AppEnv>()
  .get('/my', allow('loads'), readOnly(), async (c) => c.json(await svc.myLoads(c.var.db, c.var.caller), 200))
  .post('/team', allow('teamLoads'), readOnly(), async (c) => c.json(await svc.teamLoads(c.var.db, c.var.caller), 200))
  .post('/delete', allow('loads'), validate('json', deleteLoadSchema), async (c) =>
    c.json(await svc.deleteLoad(c.var.db, c.var.caller, c.req.valid('json').id), 200),
  )
  .post('/add', allow('extensionWrites'), validate('json', addLoadSchema), async (c) => {
    const { created, load } = await svc.addLoad(c.var.db, c.var.caller, c.req.valid('json'));
    return c.json(load, created ? 201 : 200);
  });

export type ActiveLoadRoutes = typeof activeLoadRoutes;
