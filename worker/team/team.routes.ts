import { Hono, type TypedResponse } from 'hono';
import type { AppEnv } from '../env';
import { answers, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { LINES_MESSAGES as LINES } from '../mc-settings/mc-settings.messages';
import { type TeamContactsDto, teamContactsSchema, teamSettingsInputSchema, teamSettingsSchema } from './team.schema';
import * as svc from './team.service';

/** /api/team: the team's shared desk settings (docs/decisions/0019-team-desk.md). */
export const teamRoutes = new Hono<AppEnv>()
  // the Lines screen and the extension (dialer links): everyone who has Lines reads the team's
  .get('/settings', allow('lines'), readOnly(), answers(teamSettingsSchema), async (c) => c.var.answer(await svc.teamSettingsFor(c.var.db, c.var.caller)))
  // the board's "contacted by the team" markers: If-None-Match with the last ETag answers 304
  .get('/contacts', allow('boardContacts'), readOnly(), answers(teamContactsSchema), async (c) => {
    const contacts = await svc.teamContacts(c.var.db, c.var.caller, c.req.header('if-none-match'));
    c.header('ETag', contacts.etag);
    // typed as the JSON it answers otherwise, for the typed clients (the extension handles the 304)
    if (contacts.notModified) return c.body(null, 304) as unknown as Response & TypedResponse<TeamContactsDto, 200, 'json'>;
    return c.var.answer(contacts.body);
  })
  .put(
    '/settings',
    allow('teamSettings'),
    validate('json', teamSettingsInputSchema),
    answers(withMessage({ settings: teamSettingsSchema }), [
      LINES.dialer,
      LINES.line,
      LINES.tooManyLines,
      LINES.lineTwice,
      LINES.callerNumber,
      LINES.label,
      LINES.window,
      LINES.markers,
      LINES.templateEmpty,
      LINES.templateTo,
      LINES.templateLong,
      LINES.templateScheme,
      LINES.templateUnknown,
    ]),
    async (c) => c.var.answer(await svc.saveTeamSettings(c.var.db, c.var.caller, c.req.valid('json'))),
  );

export type TeamRoutes = typeof teamRoutes;
