import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { HISTORY_MESSAGES } from '../history/history.messages';
import { answers, messageSchema } from '../lib/answer';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { LOAD_MESSAGES as LOAD } from './loads.messages';
import { activeLoadSchema, addLoadSchema, deleteLoadSchema } from './loads.schema';
import * as svc from './loads.service';

const loads = z.array(activeLoadSchema);

/** /api/activeLoad: My active loads, the team's for a manager, and the extension's add call (docs/api/history.md). */
export const activeLoadRoutes = new Hono<AppEnv>()
  .get('/my', allow('loads'), readOnly(), answers(loads), async (c) => c.var.answer(await svc.myLoads(c.var.db, c.var.caller)))
  .post('/team', allow('teamLoads'), readOnly(), answers(loads), async (c) => c.var.answer(await svc.teamLoads(c.var.db, c.var.caller)))
  .post('/delete', allow('loads'), validate('json', deleteLoadSchema), answers(messageSchema, [LOAD.notFound]), async (c) =>
    c.var.answer(await svc.deleteLoad(c.var.db, c.var.caller, c.req.valid('json').id)),
  )
  .post(
    '/add',
    allow('extensionWrites'),
    validate('json', addLoadSchema),
    answers({ 200: activeLoadSchema, 201: activeLoadSchema }, [
      HISTORY_MESSAGES.clientId,
      LOAD.brokerEmpty,
      LOAD.originEmpty,
      LOAD.destEmpty,
      LOAD.date,
      LOAD.reference,
      HISTORY_MESSAGES.board,
      LOAD.mcNotFound,
      LOAD.clientIdReused,
    ]),
    async (c) => {
      const { created, load } = await svc.addLoad(c.var.db, c.var.caller, c.req.valid('json'));
      return c.var.answer(load, created ? 201 : 200);
    },
  );

export type ActiveLoadRoutes = typeof activeLoadRoutes;
