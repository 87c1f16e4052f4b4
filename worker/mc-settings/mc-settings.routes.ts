import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { isLead } from '../lib/team';
import { validate } from '../lib/validate';
import { mcAddSchema, mcAddSchemaFor, mcUpdateSchema, parentIdSchema, settingIdSchema } from './mc-settings.schema';
import * as svc from './mc-settings.service';

/**
 * /api/mcSettings: the Lines screen's MC settings (docs/api/mc-settings.md). The team MC lists are
 * also what Contact History's MC checklist reads (directors included): the history rule. The
 * spec's trailing-slash spellings (`/api/mcSettings/`, `/byParentId/`, `/add/`) answer through the
 * app's `strict: false`.
 */
export const mcSettingsRoutes = new Hono<AppEnv>()
  .get('/', allow('lines'), readOnly(), async (c) => c.json(await svc.mySettings(c.var.db, c.var.caller), 200))
  .delete('/', allow('lines'), validate('json', settingIdSchema), async (c) =>
    c.json(await svc.deleteSetting(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  )
  .get('/parentMcSettings', allow('lines'), readOnly(), async (c) => c.json(await svc.parentSettings(c.var.db, c.var.caller), 200))
  .get('/allMcSettings', allow('history'), readOnly(), async (c) => c.json(await svc.allSettings(c.var.db, c.var.caller), 200))
  .post('/byParentId', allow('history'), readOnly(), validate('json', parentIdSchema), async (c) =>
    c.json(await svc.settingsByParent(c.var.db, c.var.caller, c.req.valid('json').parentId), 200),
  )
  .post(
    '/add',
    allow('lines'),
    validate('json', mcAddSchema, (caller) => mcAddSchemaFor(!isLead(caller))),
    async (c) => c.json(await svc.addSetting(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/update/details', allow('lines'), validate('json', mcUpdateSchema), async (c) =>
    c.json(await svc.updateSettings(c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/update/toggleVisibility', allow('lines'), validate('json', settingIdSchema), async (c) =>
    c.json(await svc.toggleVisibility(c.var.db, c.var.caller, c.req.valid('json').settingID), 200),
  );

export type McSettingsRoutes = typeof mcSettingsRoutes;
