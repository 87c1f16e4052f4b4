import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv, Caller, Db } from '../env';
import { answers, refuses } from '../lib/answer';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { jsonText } from '../lib/json-text';
import { adminOnTeamHome } from '../lib/team-home';
import { validate } from '../lib/validate';
import { signalsAfter } from '../team/live';
import { archiveSettings } from './archive-job';
import { HISTORY_MESSAGES as HISTORY } from './history.messages';
import { exportHistory, historyPage } from './history.page';
import {
  archiveListQuerySchema,
  archiveListSchema,
  archiveMonthSchema,
  archiveRestoreResultSchema,
  DAY_MS,
  type HistoryQuery,
  type HistoryRowDto,
  historyExportSchema,
  historyPageResultSchema,
  historyPageSchema,
  historyQuerySchema,
  historyRowSchema,
  logContactSchema,
} from './history.schema';
import * as svc from './history.service';
import { archivedMonthsIn, exportArchivedMonth, listArchive, restoreArchivedMonth } from './history-archive.service';

/**
 * The range's archived months for the spec's calls, whose bodies are the rows alone: a header
 * naming them ('2025-03,2025-04'), empty when none, so a client knows rows are missing from there.
 */
async function archivedHeader(db: Db, caller: Caller, q: HistoryQuery): Promise<Record<string, string>> {
  const months = await archivedMonthsIn(db, await svc.scopeFor(db, caller, q.managerId), q.dateFrom, q.dateTo);
  return {
    [ARCHIVED_MONTHS_HEADER]: months
      .filter((m) => m.state === 'archived')
      .map((m) => m.month)
      .join(','),
  };
}
export const ARCHIVED_MONTHS_HEADER = 'X-Archived-Months';

export const callHistoryRoutes = new Hono<AppEnv>()
  // the JSON text comes whole from SQLite (history.service.ts): no parse and stringify of 10,000s of rows
  // and typed as the JSON it is (HistoryRowDto[]) for the typed clients
  .post(
    '/getHistory',
    allow('history'),
    readOnly(),
    validate('json', historyQuerySchema),
    adminOnTeamHome('json'),
    answers(z.array(historyRowSchema), [HISTORY.range, HISTORY.board, HISTORY.userNotFound, HISTORY.tooMany]),
    async (c) => {
      const q = c.req.valid('json');
      const json = await svc.getHistoryJson(c.var.db, c.var.caller, q);
      for (const [name, value] of Object.entries(await archivedHeader(c.var.db, c.var.caller, q))) c.header(name, value);
      return jsonText<HistoryRowDto[]>(c, json);
    },
  )
  .post(
    '/page',
    allow('history'),
    readOnly(),
    validate('json', historyPageSchema),
    adminOnTeamHome('json'),
    answers(historyPageResultSchema, [
      HISTORY.range,
      HISTORY.board,
      HISTORY.page,
      HISTORY.pageSize,
      HISTORY.search,
      HISTORY.sort,
      HISTORY.timeZone,
      HISTORY.summaryFlag,
    ]),
    async (c) => c.var.answer(await historyPage(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  // the whole view as CSV, streamed as it is read (no row cap)
  .post(
    '/export',
    allow('history'),
    readOnly(),
    validate('json', historyExportSchema),
    adminOnTeamHome('json'),
    refuses([HISTORY.range, HISTORY.board, HISTORY.userNotFound]),
    async (c) => {
      const q = c.req.valid('json');
      const stream = await exportHistory(c.var.db, c.var.caller, q);
      const archived = await archivedHeader(c.var.db, c.var.caller, q);
      // the picked days: the range's ends are local midnights, the nearest UTC midnights name the same days
      const day = (t: number) => new Date(Math.round(t / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
      return c.body(stream, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="contact-history-${day(q.dateFrom.getTime())}-to-${day(q.dateTo.getTime() - DAY_MS)}.csv"`,
        'cache-control': 'no-store',
        ...archived,
      });
    },
  )
  // a team's archived months (docs/decisions/0171-history-retention-r2.md): the list, a month's CSV
  // streamed from R2, and its restore into D1 for HISTORY_RESTORE_DAYS
  .get(
    '/archive',
    allow('historyArchive'),
    readOnly(),
    validate('query', archiveListQuerySchema),
    adminOnTeamHome('query'),
    answers(archiveListSchema, [HISTORY.selectManager, HISTORY.managerNotFound]),
    async (c) => c.var.answer(await listArchive(c.var.db, c.var.caller, c.req.valid('query').managerId)),
  )
  .post(
    '/archive/export',
    allow('historyArchive'),
    readOnly(),
    validate('json', archiveMonthSchema),
    adminOnTeamHome('json'),
    refuses([HISTORY.archiveMonth, HISTORY.selectManager, HISTORY.managerNotFound, HISTORY.archiveNotFound]),
    async (c) => {
      const input = c.req.valid('json');
      const stream = await exportArchivedMonth(c.var.db, c.env.HISTORY_ARCHIVE, c.var.caller, input);
      return c.body(stream, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="contact-history-${input.month}.csv"`,
        'cache-control': 'no-store',
      });
    },
  )
  .post(
    '/archive/restore',
    allow('historyArchive'),
    validate('json', archiveMonthSchema),
    adminOnTeamHome('json'),
    answers(archiveRestoreResultSchema, [HISTORY.archiveMonth, HISTORY.selectManager, HISTORY.managerNotFound, HISTORY.archiveNotFound]),
    async (c) => {
      const options = { now: Date.now(), restoreDays: archiveSettings(c.env).restoreDays };
      return c.var.answer(await restoreArchivedMonth(c.var.db, c.env.HISTORY_ARCHIVE, c.var.caller, c.req.valid('json'), options));
    },
  )
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
      HISTORY.board,
      HISTORY.mcNotFound,
      HISTORY.clientIdReused,
    ]),
    async (c) => {
      const { created, row } = await svc.logContact(c.var.db, c.var.caller, c.req.valid('json'));
      return c.var.answer(row, created ? 201 : 200);
    },
  );

export type CallHistoryRoutes = typeof callHistoryRoutes;
