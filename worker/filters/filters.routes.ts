import { Hono, type TypedResponse } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, messageSchema, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { readOnly } from '../lib/db';
import { jsonText } from '../lib/json-text';
import { validate } from '../lib/validate';
import { signalsAfter } from '../team/live';
import { FILTER_MESSAGES as FILTER } from './filters.messages';
import {
  bulkSchema,
  type FilterDto,
  filterEventSchema,
  filterIdParamSchema,
  filterIdSchema,
  filterNoteSchema,
  filterSaveSchema,
  filterSchema,
  filterSearchSchema,
  importPreviewSchema,
  importResultSchema,
  importSchema,
  type MinifiedFilterDto,
  minifiedFilterSchema,
  noteSchema,
  rejectSchema,
  teamUserSchema,
  verifyManySchema,
} from './filters.schema';
import * as svc from './filters.service';
import * as io from './filters-import.service';
import { minified } from './filters-minified.service';
import { bulk, queue, queueCount, reject, verifyMany } from './filters-queue.service';
import { allNames, searchFilters } from './filters-visibility.service';

/** The spec's trailing-slash spellings answer through the app's `strict: false`. */
// every write of the team's filters tells its open boards and screens (team/live.ts)
const filters = z.array(filterSchema);
const counted = withMessage({ count: z.number() });
const saveRefusals = [
  FILTER.nameEmpty,
  FILTER.typeEmpty,
  FILTER.mcEmpty,
  FILTER.typeNotFound,
  FILTER.mcNotFound,
  COMMON_MESSAGES.userNotFound,
  FILTER.notFound,
  FILTER.cannotEdit,
  FILTER.duplicate,
  FILTER.duplicateThisName,
  FILTER.hiddenDuplicate,
  FILTER.tooManyContacts,
  FILTER.tooManyAliases,
];
const importRefusals = [FILTER.importEmpty, FILTER.importTooMany];

export const brokerRoutes = new Hono<AppEnv>()
  // the JSON text comes whole from SQLite, a json_object per row (filters-visibility.service.ts), typed as what it is
  .post('/', allow('filters'), readOnly(), validate('json', filterSearchSchema), answers(filters, [FILTER.searchMcEmpty]), async (c) =>
    jsonText<FilterDto[]>(c, await searchFilters(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/add',
    allow('filters'),
    signalsAfter('filters'),
    validate('json', filterSaveSchema),
    answers(withMessage({ _id: z.string() }), saveRefusals),
    async (c) => c.var.answer(await svc.addFilter(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post('/update/details', allow('filters'), signalsAfter('filters'), validate('json', filterSaveSchema), answers(messageSchema, saveRefusals), async (c) =>
    c.var.answer(await svc.updateFilter(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .put(
    '/update/isactive',
    allow('filters'),
    signalsAfter('filters'),
    validate('json', filterIdSchema),
    answers(withMessage({ isVisible: z.boolean() }), [FILTER.notFound, FILTER.cannotEdit]),
    async (c) => c.var.answer(await svc.toggleActive(c.var.db, c.var.caller, c.req.valid('json').filterId)),
  )
  .put(
    '/update/delete',
    allow('filters'),
    signalsAfter('filters'),
    validate('json', filterIdSchema),
    answers(messageSchema, [FILTER.notFound, FILTER.cannotEdit]),
    async (c) => c.var.answer(await svc.deleteFilter(c.var.db, c.var.caller, c.req.valid('json').filterId)),
  )
  // the extension's list, with an ETag: its repeat sync sends If-None-Match and gets 304 while nothing changed
  .get('/minified', allow('filters'), readOnly(), answers(z.array(minifiedFilterSchema)), async (c) => {
    const { etag, json } = await minified(c.var.db, c.var.caller, c.req.header('if-none-match'));
    c.header('etag', etag);
    if (json === null) return c.body(null, 304) as unknown as Response & TypedResponse<MinifiedFilterDto[], 200, 'json'>;
    return jsonText<MinifiedFilterDto[]>(c, json);
  })
  .get('/allNames', allow('filters'), readOnly(), answers(z.array(z.string())), async (c) => c.var.answer(await allNames(c.var.db, c.var.caller)))
  // Not in the spec: the team's users, for the filter modal's user list (agents may not list users).
  .get('/teamUsers', allow('filters'), readOnly(), answers(z.array(teamUserSchema)), async (c) => c.var.answer(await svc.listTeamUsers(c.var.db, c.var.caller)))
  // Decision 0007 (docs/api/filters.md): the verification queue, bulk actions, history and notes.
  .get('/queue/count', allow('filtersLead'), readOnly(), answers(z.strictObject({ count: z.number() })), async (c) =>
    c.var.answer(await queueCount(c.var.db, c.var.caller)),
  )
  .get('/queue', allow('filtersLead'), readOnly(), answers(filters), async (c) => jsonText<FilterDto[]>(c, await queue(c.var.db, c.var.caller)))
  .post(
    '/queue/verify',
    allow('filtersLead'),
    signalsAfter('filters'),
    validate('json', verifyManySchema),
    answers(counted, [FILTER.noneSelected]),
    async (c) => c.var.answer(await verifyMany(c.var.db, c.var.caller, c.req.valid('json').filterIds)),
  )
  .post(
    '/queue/reject',
    allow('filtersLead'),
    signalsAfter('filters'),
    validate('json', rejectSchema),
    answers(messageSchema, [FILTER.reasonEmpty, FILTER.notFound]),
    async (c) => {
      const body = c.req.valid('json');
      return c.var.answer(await reject(c.var.db, c.var.caller, body.filterId, body.reason));
    },
  )
  // not readOnly(): a team's first read writes its default filter types (filter-types.service.ts)
  .get('/export', allow('filters'), async (c) => {
    const csv = await io.exportFilters(c.var.db, c.var.caller);
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="broker-filters.csv"' });
  })
  .post('/import/preview', allow('filtersLead'), readOnly(), validate('json', importSchema), answers(importPreviewSchema, importRefusals), async (c) =>
    c.var.answer(await io.previewImport(c.var.db, c.var.caller, c.req.valid('json').rows)),
  )
  .post(
    '/import',
    allow('filtersLead'),
    signalsAfter('filters'),
    validate('json', importSchema),
    answers(importResultSchema, [...importRefusals, COMMON_MESSAGES.importMeanwhile]),
    async (c) => c.var.answer(await io.runImport(c.var.db, c.var.caller, c.req.valid('json').rows)),
  )
  .post(
    '/bulk',
    allow('filters'),
    signalsAfter('filters'),
    validate('json', bulkSchema),
    answers(counted, [FILTER.notFound, FILTER.typeNotFound, FILTER.typeEmpty]),
    async (c) => c.var.answer(await bulk(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/:filterId/history',
    allow('filters'),
    readOnly(),
    validate('param', filterIdParamSchema),
    answers(z.array(filterEventSchema), [FILTER.notFound]),
    async (c) => c.var.answer(await svc.filterHistory(c.var.db, c.var.caller, c.req.valid('param').filterId)),
  )
  .get(
    '/:filterId/notes',
    allow('filters'),
    readOnly(),
    validate('param', filterIdParamSchema),
    answers(z.array(filterNoteSchema), [FILTER.notFound]),
    async (c) => c.var.answer(await svc.listNotes(c.var.db, c.var.caller, c.req.valid('param').filterId)),
  )
  .post(
    '/:filterId/notes',
    allow('filters'),
    validate('param', filterIdParamSchema),
    validate('json', noteSchema),
    answers(withMessage({ _id: z.string() }), [FILTER.noteEmpty, FILTER.notFound]),
    async (c) => c.var.answer(await svc.addNote(c.var.db, c.var.caller, c.req.valid('param').filterId, c.req.valid('json').text)),
  );

export type BrokerRoutes = typeof brokerRoutes;
