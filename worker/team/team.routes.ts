import { Hono, type TypedResponse } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { type TeamContactsDto, teamSettingsInputSchema } from './team.schema';
import * as svc from './team.service';

/** /api/team: the team's shared desk settings (docs/decisions/0019-team-desk.md). */
export const teamRoutes = new Hono<AppEnv>()
  // the Lines screen and the extension (dialer links): everyone who has Lines reads the team's
  .get('/settings', allow('lines'), readOnly(), async (c) => c.json(await svc.teamSettingsFor(c.var.db, c.var.caller), 200))
  // the board's "contacted by the team" markers: If-None-Match with the last ETag answers 304
  .get('/contacts', allow('boardContacts'), readOnly(), async (c) => {
    const answer = await svc.teamContacts(c.var.db, c.var.caller, c.req.header('if-none-match'));
    c.header('ETag', answer.etag);
    // typed as the JSON it answers otherwise, for the typed clients (the extension handles the 304)
    if (answer.notModified) return c.body(null, 304) as unknown as Response & TypedResponse<TeamContactsDto, 200, 'json'>;
    return c.json(answer.body, 200);
  })
  .put('/settings', allow('teamSettings'), validate('json', teamSettingsInputSchema), async (c) =>
    c.json(await svc.saveTeamSettings(c.var.db, c.var.caller, c.req.valid('json')), 200),
  );

export type TeamRoutes = typeof teamRoutes;
