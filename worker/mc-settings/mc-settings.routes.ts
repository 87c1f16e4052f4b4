import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import type { AppEnv } from '../env';
import { requireArea, requireAuth } from '../lib/auth';
import { validate } from '../lib/validate';
import { mcAddSchema, mcUpdateSchema, parentIdSchema, settingIdSchema } from './mc-settings.schema';
import * as svc from './mc-settings.service';

const lines = requireArea('lines');
/** Team MC lists are also what Contact History's MC checklist reads (directors included). */
const linesOrHistory = requireArea('lines', 'history');

const factory = createFactory<AppEnv>();
const byParentId = factory.createHandlers(linesOrHistory, validate('json', parentIdSchema), async (c) =>
  c.json(await svc.settingsByParent(c.var.db, c.var.caller, c.req.valid('json').parentId), 200),
);
const addSetting = factory.createHandlers(lines, validate('json', mcAddSchema), async (c) =>
  c.json(await svc.addSetting(c.var.db, c.var.caller, c.req.valid('json')), 200),
);

/** /api/mcSettings: the Lines screen's MC settings (docs/api/mc-settings.md). Paths answer with and without the spec's trailing slash. */
export const mcSettingsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', lines, async (c) => c.json(await svc.mySettings(c.var.db, c.var.caller), 200))
  .delete('/', lines, validate('json', settingIdSchema), async (c) =>
    c.json(await svc.deleteSetting(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  )
  .get('/parentMcSettings', lines, async (c) => c.json(await svc.parentSettings(c.var.db, c.var.caller), 200))
  .get('/allMcSettings', linesOrHistory, async (c) => c.json(await svc.allSettings(c.var.db, c.var.caller), 200))
  .post('/byParentId', ...byParentId)
  .post('/byParentId/', ...byParentId)
  .post('/add', ...addSetting)
  .post('/add/', ...addSetting)
  .post('/update/details', lines, validate('json', mcUpdateSchema), async (c) =>
    c.json(await svc.updateSettings(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/update/toggleVisibility', lines, validate('json', settingIdSchema), async (c) =>
    c.json(await svc.toggleVisibility(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  );

/**
 * `GET /api/mcSettings/` and `DELETE /api/mcSettings/` with the spec's trailing slash: Hono
 * merges a sub-app's '/' into the bare mount path, so this is mounted at '/mcSettings/'. Each
 * route checks the token itself (the main sub-app's middleware may also run: harmless).
 */
export const mcSettingsSlashRoutes = new Hono<AppEnv>()
  .get('/', requireAuth, lines, async (c) => c.json(await svc.mySettings(c.var.db, c.var.caller), 200))
  .delete('/', requireAuth, lines, validate('json', settingIdSchema), async (c) =>
    c.json(await svc.deleteSetting(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  );

export type McSettingsRoutes = typeof mcSettingsRoutes;
