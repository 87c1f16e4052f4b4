import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, messageSchema, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { isLead } from '../lib/team';
import { validate } from '../lib/validate';
import { LINES_MESSAGES as LINES } from './mc-settings.messages';
import { mcAddSchema, mcAddSchemaFor, mcSettingSchema, mcUpdateSchema, parentIdSchema, settingIdSchema } from './mc-settings.schema';
import * as svc from './mc-settings.service';

/** Contact History's MC checklist reads the team lists too; trailing-slash spellings answer through `strict: false`. */
const settings = z.array(mcSettingSchema);

export const mcSettingsRoutes = new Hono<AppEnv>()
  .get('/', allow('lines'), readOnly(), answers(settings), async (c) => c.var.answer(await svc.mySettings(c.var.db, c.var.caller)))
  .delete('/', allow('lines'), validate('json', settingIdSchema), answers(messageSchema, [LINES.mcNotFound]), async (c) =>
    c.var.answer(await svc.deleteSetting(c.var.db, c.var.caller, c.req.valid('json').settingID)),
  )
  .get('/parentMcSettings', allow('lines'), readOnly(), answers(settings), async (c) => c.var.answer(await svc.parentSettings(c.var.db, c.var.caller)))
  .get('/allMcSettings', allow('history'), readOnly(), answers(settings), async (c) => c.var.answer(await svc.allSettings(c.var.db, c.var.caller)))
  .post('/byParentId', allow('history'), readOnly(), validate('json', parentIdSchema), answers(settings), async (c) =>
    c.var.answer(await svc.settingsByParent(c.var.db, c.var.caller, c.req.valid('json').parentId)),
  )
  .post(
    '/add',
    allow('lines'),
    validate('json', mcAddSchema, (caller) => mcAddSchemaFor(!isLead(caller))),
    answers(withMessage({ mcSetting: mcSettingSchema }), [
      LINES.nameEmpty,
      LINES.selectMc,
      LINES.selectLine,
      LINES.oneLine,
      LINES.mcNotFound,
      LINES.alreadyAdded,
    ]),
    async (c) => c.var.answer(await svc.addSetting(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/update/details',
    allow('lines'),
    validate('json', mcUpdateSchema),
    answers(withMessage({ mcSettings: settings }), [LINES.nameEmpty, LINES.lineForEvery, LINES.oneLine, LINES.lineTaken, LINES.linesChanged]),
    async (c) => c.var.answer(await svc.updateSettings(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/update/toggleVisibility',
    allow('lines'),
    validate('json', settingIdSchema),
    answers(withMessage({ isVisible: z.boolean() }), [LINES.mcNotFound]),
    async (c) => c.var.answer(await svc.toggleVisibility(c.var.db, c.var.caller, c.req.valid('json').settingID)),
  );

export type McSettingsRoutes = typeof mcSettingsRoutes;
