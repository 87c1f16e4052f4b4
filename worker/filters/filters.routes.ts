import { Hono, type TypedResponse } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { jsonText } from '../lib/json-text';
import { validate } from '../lib/validate';
import { signalsAfter } from '../team/live';
import {
  bulkSchema,
  type FilterDto,
  filterIdParamSchema,
  filterIdSchema,
  filterSaveSchema,
  filterSearchSchema,
  importSchema,
  type MinifiedFilterDto,
  noteSchema,
  rejectSchema,
  verifyManySchema,
} from './filters.schema';
import * as svc from './filters.service';
import * as io from './filters-import.service';
import { minified } from './filters-minified.service';
import { bulk, queue, queueCount, reject, verifyMany } from './filters-queue.service';
import { allNames, searchFilters } from './filters-visibility.service';

/** /api/broker: broker filters (docs/api/filters.md). The spec's trailing-slash spellings answer through the app's `strict: false`. */
// every write of the team's filters tells its open boards and screens (team/live.ts)
export const brokerRoutes = new Hono<AppEnv>()
  // the JSON text comes whole from SQLite, a json_object per row (filters-visibility.service.ts), typed as what it is
  .post('/', allow('filters'), readOnly(), validate('json', filterSearchSchema), async (c) =>
    jsonText<FilterDto[]>(c, await searchFilters(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post('/add', allow('filters'), signalsAfter('filters'), validate('json', filterSaveSchema), async (c) =>
    c.json(await svc.addFilter(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/update/details', allow('filters'), signalsAfter('filters'), validate('json', filterSaveSchema), async (c) =>
    c.json(await svc.updateFilter(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .put('/update/isactive', allow('filters'), signalsAfter('filters'), validate('json', filterIdSchema), async (c) =>
    c.json(await svc.toggleActive(c.var.db, c.var.caller, c.req.valid('json').filterId), 200),
  )
  .put('/update/delete', allow('filters'), signalsAfter('filters'), validate('json', filterIdSchema), async (c) =>
    c.json(await svc.deleteFilter(c.var.db, c.var.caller, c.req.valid('json').filterId), 200),
  )
  // the extension's list, with an ETag: its repeat sync sends If-None-Match and gets 304 while nothing changed
  .get('/minified', allow('filters'), readOnly(), async (c) => {
    const { etag, json } = await minified(c.var.db, c.var.caller, c.req.header('if-none-match'));
    c.header('etag', etag);
    if (json === null) return c.body(null, 304) as unknown as Response & TypedResponse<MinifiedFilterDto[], 200, 'json'>;
    return jsonText<MinifiedFilterDto[]>(c, json);
  })
  .get('/allNames', allow('filters'), readOnly(), async (c) => c.json(await allNames(c.var.db, c.var.caller), 200))
  // Not in the spec: the team's users, for the filter modal's user list (agents may not list users).
  .get('/teamUsers', allow('filters'), readOnly(), async (c) => c.json(await svc.listTeamUsers(c.var.db, c.var.caller), 200))
  // Decision 0007 (docs/api/filters.md): the verification queue, bulk actions, history and notes.
  .get('/queue/count', allow('filtersLead'), readOnly(), async (c) => c.json(await queueCount(c.var.db, c.var.caller), 200))
  .get('/queue', allow('filtersLead'), readOnly(), async (c) => jsonText<FilterDto[]>(c, await queue(c.var.db, c.var.caller)))
  .post('/queue/verify', allow('filtersLead'), signalsAfter('filters'), validate('json', verifyManySchema), async (c) =>
    c.json(await verifyMany(c.var.db, c.var.caller, c.req.valid('json').filterIds), 200),
  )
  .post('/queue/reject', allow('filtersLead'), signalsAfter('filters'), validate('json', rejectSchema), async (c) => {
    const body = c.req.valid('json');
    return c.json(await reject(c.var.db, c.var.caller, body.filterId, body.reason), 200);
  })
  // not readOnly(): a team's first read writes its default filter types (filter-types.service.ts)
  .get('/export', allow('filters'), async (c) => {
    const csv = await io.exportFilters(c.var.db, c.var.caller);
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="broker-filters.csv"' });
  })
  .post('/import/preview', allow('filtersLead'), readOnly(), validate('json', importSchema), async (c) =>
    c.json(await io.previewImport(c.var.db, c.var.caller, c.req.valid('json').rows), 200),
  )
  .post('/import', allow('filtersLead'), signalsAfter('filters'), validate('json', importSchema), async (c) =>
    c.json(await io.runImport(c.var.db, c.var.caller, c.req.valid('json').rows), 200),
  )
  .post('/bulk', allow('filters'), signalsAfter('filters'), validate('json', bulkSchema), async (c) =>
    c.json(await bulk(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .get('/:filterId/history', allow('filters'), readOnly(), validate('param', filterIdParamSchema), async (c) =>
    c.json(await svc.filterHistory(c.var.db, c.var.caller, c.req.valid('param').filterId), 200),
  )
  .get('/:filterId/notes', allow('filters'), readOnly(), validate('param', filterIdParamSchema), async (c) =>
    c.json(await svc.listNotes(c.var.db, c.var.caller, c.req.valid('param').filterId), 200),
  )
  .post('/:filterId/notes', allow('filters'), validate('param', filterIdParamSchema), validate('json', noteSchema), async (c) =>
    c.json(await svc.addNote(c.var.db, c.var.caller, c.req.valid('param').filterId, c.req.valid('json').text), 200),
  );

export type BrokerRoutes = typeof brokerRoutes;
