import { Hono, type TypedResponse } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { type HistoryRowDto, historyQuerySchema, logContactSchema } from './history.schema';
import * as svc from './history.service';

/** /api/callHistory: Contact History and the extension's logging call (docs/api/history.md, docs/api/ingestion.md). */
export const callHistoryRoutes = new Hono<AppEnv>()
  // the JSON text comes whole from SQLite (history.service.ts): no parse and stringify of 10,000s of rows
  // and typed as the JSON it is (HistoryRowDto[]) for the typed clients
  .post('/getHistory', allow('history'), readOnly(), validate('json', historyQuerySchema), async (c) => {
    const json = await svc.getHistoryJson(c.var.db, c.var.caller, c.req.valid('json'));
    return c.body(json, 200, { 'content-type': 'application/json; charset=UTF-8' }) as unknown as Response & TypedResponse<HistoryRowDto[], 200, 'json'>;
  })
  .post('/log', allow('extensionWrites'), validate('json', logContactSchema), async (c) => {
    const { created, row } = await svc.logContact(c.var.db, c.var.caller, c.req.valid('json'));
    return c.json(row, created ? 201 : 200);
  });

export type CallHistoryRoutes = typeof callHistoryRoutes;
