import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import { mcAddSchema, mcUpdateSchema, parentIdSchema, settingIdSchema } from './mc-settings.schema';
import * as svc from './mc-settings.service';

const factory = createFactory<AppEnv>();
// Team MC lists are also what Contact History's MC checklist reads (directors included): the history rule.
const byParentId = factory.createHandlers(allow('history'), validate('json', parentIdSchema), async (c) =>
  c.json(await svc.settingsByParent(c.var.db, c.var.caller, c.req.valid('json').parentId), 200),
);
const addSetting = factory.createHandlers(allow('lines'), validate('json', mcAddSchema), async (c) =>
  c.json(await svc.addSetting(c.var.db, c.var.caller, c.req.valid('json')), 200),
);

/** /api/mcSettings: the Lines screen's MC settings (docs/api/mc-settings.md). Paths answer with and without the spec's trailing slash. */
export const mcSettingsRoutes = new Hono<AppEnv>()
  .get('/', allow('lines'), async (c) => c.json(await svc.mySettings(c.var.db, c.var.caller), 200))
  .delete('/', allow('lines'), validate('json', settingIdSchema), async (c) =>
    c.json(await svc.deleteSetting(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  )
  .get('/parentMcSettings', allow('lines'), async (c) => c.json(await svc.parentSettings(c.var.db, c.var.caller), 200))
  .get('/allMcSettings', allow('history'), async (c) => c.json(await svc.allSettings(c.var.db, c.var.caller), 200))
  .post('/byParentId', ...byParentId)
  .post('/byParentId/', ...byParentId)
  .post('/add', ...addSetting)
  .post('/add/', ...addSetting)
  .post('/update/details', allow('lines'), validate('json', mcUpdateSchema), async (c) =>
    c.json(await svc.updateSettings(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/update/toggleVisibility', allow('lines'), validate('json', settingIdSchema), async (c) =>
    c.json(await svc.toggleVisibility(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  );

/**
 * `GET /api/mcSettings/` and `DELETE /api/mcSettings/` with the spec's trailing slash: Hono
 * merges a sub-app's '/' into the bare mount path, so this is mounted at '/mcSettings/'.
 */
export const mcSettingsSlashRoutes = new Hono<AppEnv>()
  .get('/', allow('lines'), async (c) => c.json(await svc.mySettings(c.var.db, c.var.caller), 200))
  .delete('/', allow('lines'), validate('json', settingIdSchema), async (c) =>
    c.json(await svc.deleteSetting(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  );

export type McSettingsRoutes = typeof mcSettingsRoutes;
