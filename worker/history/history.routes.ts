import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers } from '../lib/answer';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { jsonText } from '../lib/json-text';
import { validate } from '../lib/validate';
import { signalsAfter } from '../team/live';
import { exportHistory, historyPage } from './history.page';
import { HISTORY_MESSAGES as HISTORY } from './history.messages';
import {
  DAY_MS,
  type HistoryRowDto,
  historyExportSchema,
  historyPageResultSchema,
  historyPageSchema,
  historyQuerySchema,
  historyRowSchema,
  logContactSchema,
} from './history.schema';
import * as svc from './history.service';

/** /api/callHistory: Contact History and the extension's logging call (docs/api/history.md, docs/api/ingestion.md). */
export const callHistoryRoutes = new Hono<AppEnv>()
  // the JSON text comes whole from SQLite (history.service.ts): no parse and stringify of 10,000s of rows
  // and typed as the JSON it is (HistoryRowDto[]) for the typed clients
  .post(
    '/getHistory',
    allow('history'),
    readOnly(),
    validate('json', historyQuerySchema),
    answers(z.array(historyRowSchema), [HISTORY.range, HISTORY.userNotFound, HISTORY.tooMany]),
    async (c) => {
      const json = await svc.getHistoryJson(c.var.db, c.var.caller, c.req.valid('json'));
      return jsonText<HistoryRowDto[]>(c, json);
    },
  )
  // the screen's form: one page of the view with the load's counts, Companies and days
  .post(
    '/page',
    allow('history'),
    readOnly(),
    validate('json', historyPageSchema),
    answers(historyPageResultSchema, [HISTORY.page, HISTORY.pageSize, HISTORY.search, HISTORY.sort, HISTORY.timeZone, HISTORY.summaryFlag]),
    async (c) => c.var.answer(await historyPage(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  // the whole view as CSV, streamed as it is read (no row cap)
  .post('/export', allow('history'), readOnly(), validate('json', historyExportSchema), async (c) => {
    const q = c.req.valid('json');
    const stream = await exportHistory(c.var.db, c.var.caller, q);
    // the picked days: the range's ends are local midnights, the nearest UTC midnights name the same days
    const day = (t: number) => new Date(Math.round(t / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    return c.body(stream, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="contact-history-${day(q.dateFrom.getTime())}-to-${day(q.dateTo.getTime() - DAY_MS)}.csv"`,
      'cache-control': 'no-store',
    });
  })
  // a logged contact tells the team's boards to fetch the markers (team/live.ts)
  .post(
    '/log',
    allow('extensionWrites'),
    signalsAfter('contacts'),
    validate('json', logContactSchema),
    answers({ 200: historyRowSchema, 201: historyRowSchema }, [
      HISTORY.clientId,
      HISTORY.selectMc,
      HISTORY.kind,
      HISTORY.brokerEmpty,
      HISTORY.phone,
      HISTORY.email,
      HISTORY.contactDate,
      HISTORY.line,
      HISTORY.mcNotFound,
      HISTORY.clientIdReused,
    ]),
    async (c) => {
      const { created, row } = await svc.logContact(c.var.db, c.var.caller, c.req.valid('json'));
      return c.var.answer(row, created ? 201 : 200);
    },
  );

export type CallHistoryRoutes = typeof callHistoryRoutes;
