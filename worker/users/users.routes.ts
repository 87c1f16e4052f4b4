import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { homeForTarget } from '../lib/directory';
import { validate } from '../lib/validate';
import { setReminders } from '../subscriptions/reminders';
import { endLiveSessionsOf } from '../team/live';
import * as credentials from './credentials.service';
import {
  byEmailSchema,
  childUsersSchema,
  createUserSchema,
  deleteUserSchema,
  idParam,
  languageBodySchema,
  newEmailSchema,
  newNameSchema,
  newPasswordSchema,
  parentSchema,
  remindersSchema,
  trialDateSchema,
  trialStateSchema,
  userTypeSchema,
} from './users.schema';
import * as svc from './users.service';

/** /api/user: users and teams, scoped by the user tree (docs/api/users.md). */
export const userRoutes = new Hono<AppEnv>()
  .get('/', allow('teamLists'), readOnly(), async (c) => c.json(await svc.listUsers(c.env, c.var.db, c.var.caller), 200))
  .delete('/', allow('users'), validate('json', deleteUserSchema), async (c) => {
    const { userId, eraseHistory } = c.req.valid('json');
    const home = await homeForTarget(c, userId);
    if (eraseHistory) return c.json(await svc.eraseTeam(c.env, c.var.control, home, c.var.caller, userId), 200);
    return c.json(await svc.deleteUser(c.env, c.var.control, home, c.var.caller, userId), 200);
  })
  .get('/directorsList', allow('admin'), readOnly(), async (c) => c.json(await svc.byType(c.env, 'director'), 200))
  .get('/marketingUsers', allow('admin'), readOnly(), async (c) => c.json(await svc.byType(c.env, 'marketing'), 200))
  .get('/manager', allow('profile'), readOnly(), async (c) => c.json(await svc.teamManager(c.var.db, c.var.caller), 200))
  .get('/directorChildManagers', allow('directorTeams'), readOnly(), async (c) => c.json(await svc.directorManagers(c.env, c.var.db, c.var.caller), 200))
  .get('/allTeam', allow('history'), readOnly(), async (c) => c.json(await svc.allTeam(c.env, c.var.db, c.var.caller), 200))
  .get('/childUsers/:id', allow('teamLists'), readOnly(), validate('param', idParam), async (c) =>
    c.json(await svc.childUsers((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id), 200),
  )
  .post('/managerChildUsers', allow('teamLists'), readOnly(), validate('json', childUsersSchema), async (c) => {
    const { parentId, includeParent } = c.req.valid('json');
    return c.json(await svc.managerChildUsers((await homeForTarget(c, parentId)).db, c.var.caller, parentId, includeParent), 200);
  })
  // staff who hand out promo codes look a user up by e-mail
  .post('/userByEmail', allow('promo'), readOnly(), validate('json', byEmailSchema), async (c) =>
    c.json(await svc.userByEmail(c.env, c.var.control, c.req.valid('json').email), 200),
  )
  .post('/register', allow('users'), validate('json', createUserSchema), async (c) =>
    c.json(await svc.createUser(c.env, c.var.control, c.var.caller, c.req.valid('json')), 200),
  )
  .put('/update/name/:id', allow('profile'), validate('param', idParam), validate('json', newNameSchema), async (c) =>
    c.json(await svc.updateName((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').newName), 200),
  )
  .put('/update/email/:id', allow('profile'), validate('param', idParam), validate('json', newEmailSchema), async (c) => {
    const id = c.req.valid('param').id;
    const { db } = await homeForTarget(c, id);
    const answer = await credentials.updateEmail(c.env, c.var.control, db, c.var.caller, id, c.req.valid('json'));
    // every other session of the user ended: so do their live sockets
    endLiveSessionsOf(c, db, id, id === c.var.caller.id ? c.var.caller.sessionId : undefined);
    return c.json(answer, 200);
  })
  .put('/update/password/:id', allow('profile'), validate('param', idParam), validate('json', newPasswordSchema), async (c) => {
    const id = c.req.valid('param').id;
    const { db } = await homeForTarget(c, id);
    const answer = await credentials.updatePassword(c.env, db, c.var.caller, id, c.req.valid('json'));
    // every other session of the user ended: so do their live sockets
    endLiveSessionsOf(c, db, id, id === c.var.caller.id ? c.var.caller.sessionId : undefined);
    return c.json(answer, 200);
  })
  .put('/update/reminders/:id', allow('profile'), validate('param', idParam), validate('json', remindersSchema), async (c) =>
    c.json(
      await setReminders((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').remindersEnabled),
      200,
    ),
  )
  // Not in the spec: the user's language (Profile; docs/decisions/0023-languages.md)
  .put('/update/language/:id', allow('profile'), validate('param', idParam), validate('json', languageBodySchema), async (c) =>
    c.json(
      await svc.updateLanguage((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').language),
      200,
    ),
  )
  .put('/update/userType/:id', allow('admin'), validate('param', idParam), validate('json', userTypeSchema), async (c) => {
    const { userNewType, newParent } = c.req.valid('json');
    const { id } = c.req.valid('param');
    return c.json(await svc.updateType(c.env, c.var.control, await homeForTarget(c, id), c.var.caller, id, userNewType, newParent), 200);
  })
  .put('/update/trialPeriodState/:id', allow('admin'), validate('param', idParam), validate('json', trialStateSchema), async (c) =>
    c.json(await svc.setTrial((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').isActive), 200),
  )
  .put('/update/trialPeriodEndDate/:id', allow('admin'), validate('param', idParam), validate('json', trialDateSchema), async (c) =>
    c.json(
      await svc.setTrialEndDate((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').newDate),
      200,
    ),
  )
  .put('/update/parent/:id', allow('admin'), validate('param', idParam), validate('json', parentSchema), async (c) =>
    c.json(
      await svc.updateParent(
        c.env,
        c.var.control,
        await homeForTarget(c, c.req.valid('param').id),
        c.var.caller,
        c.req.valid('param').id,
        c.req.valid('json').newParent,
      ),
      200,
    ),
  )
  .put('/resendEmailVerification/:id', allow('profile'), validate('param', idParam), async (c) =>
    c.json(await svc.resendVerification(c.env, (await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id), 200),
  )
  .get('/:id', allow('profile'), readOnly(), validate('param', idParam), async (c) =>
    c.json(await svc.getUser((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id), 200),
  );

export type UserRoutes = typeof userRoutes;
