import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { requireArea, requireAuth, requireRoles } from '../lib/auth';
import { validate } from '../lib/validate';
import {
  byEmailSchema,
  childUsersSchema,
  createUserSchema,
  deleteUserSchema,
  idParam,
  newEmailSchema,
  newNameSchema,
  newPasswordSchema,
  parentSchema,
  trialDateSchema,
  trialStateSchema,
  userTypeSchema,
} from './users.schema';
import * as svc from './users.service';

const adminOnly = requireRoles(['admin'], false);
/** Lists of a team: the admin, and directors and managers with an active subscription. */
const teamLeads = requireRoles(['admin', 'director', 'manager'], true);

/** /api/user: users and teams, scoped by the user tree (docs/api/users.md). */
export const userRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', teamLeads, async (c) => c.json(await svc.listUsers(c.var.db, c.var.caller), 200))
  .delete('/', requireArea('users'), validate('json', deleteUserSchema), async (c) =>
    c.json(await svc.deleteUser(c.var.db, c.var.caller, c.req.valid('json').userId), 200),
  )
  .get('/directorsList', adminOnly, async (c) => c.json(await svc.byType(c.var.db, 'director'), 200))
  .get('/marketingUsers', adminOnly, async (c) => c.json(await svc.byType(c.var.db, 'marketing'), 200))
  .get('/manager', requireArea('profile'), async (c) => c.json(await svc.teamManager(c.var.db, c.var.caller), 200))
  .get('/directorChildManagers', requireRoles(['admin', 'director'], true), async (c) => c.json(await svc.directorManagers(c.var.db, c.var.caller), 200))
  .get('/allTeam', requireArea('history'), async (c) => c.json(await svc.allTeam(c.var.db, c.var.caller), 200))
  .get('/childUsers/:id', teamLeads, validate('param', idParam), async (c) =>
    c.json(await svc.childUsers(c.var.db, c.var.caller, c.req.valid('param').id), 200),
  )
  .post('/managerChildUsers', teamLeads, validate('json', childUsersSchema), async (c) => {
    const { parentId, includeParent } = c.req.valid('json');
    return c.json(await svc.managerChildUsers(c.var.db, c.var.caller, parentId, includeParent), 200);
  })
  .post('/userByEmail', requireRoles(['admin', 'marketing'], false), validate('json', byEmailSchema), async (c) =>
    c.json(await svc.userByEmail(c.var.db, c.req.valid('json').email), 200),
  )
  .post('/register', requireArea('users'), validate('json', createUserSchema), async (c) =>
    c.json(await svc.createUser(c.env, c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .put('/update/name/:id', requireArea('profile'), validate('param', idParam), validate('json', newNameSchema), async (c) =>
    c.json(await svc.updateName(c.var.db, c.var.caller, c.req.valid('param').id, c.req.valid('json').newName), 200),
  )
  .put('/update/email/:id', requireArea('profile'), validate('param', idParam), validate('json', newEmailSchema), async (c) =>
    c.json(await svc.updateEmail(c.env, c.var.db, c.var.caller, c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .put('/update/password/:id', requireArea('profile'), validate('param', idParam), validate('json', newPasswordSchema), async (c) =>
    c.json(await svc.updatePassword(c.env, c.var.db, c.var.caller, c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .put('/update/userType/:id', adminOnly, validate('param', idParam), validate('json', userTypeSchema), async (c) => {
    const { userNewType, newParent } = c.req.valid('json');
    return c.json(await svc.updateType(c.var.db, c.var.caller, c.req.valid('param').id, userNewType, newParent), 200);
  })
  .put('/update/trialPeriodState/:id', adminOnly, validate('param', idParam), validate('json', trialStateSchema), async (c) =>
    c.json(await svc.setTrial(c.var.db, c.var.caller, c.req.valid('param').id, c.req.valid('json').isActive), 200),
  )
  .put('/update/trialPeriodEndDate/:id', adminOnly, validate('param', idParam), validate('json', trialDateSchema), async (c) =>
    c.json(await svc.setTrialEndDate(c.var.db, c.var.caller, c.req.valid('param').id, c.req.valid('json').newDate), 200),
  )
  .put('/update/parent/:id', adminOnly, validate('param', idParam), validate('json', parentSchema), async (c) =>
    c.json(await svc.updateParent(c.var.db, c.var.caller, c.req.valid('param').id, c.req.valid('json').newParent), 200),
  )
  .put('/resendEmailVerification/:id', requireArea('profile'), validate('param', idParam), async (c) =>
    c.json(await svc.resendVerification(c.env, c.var.db, c.var.caller, c.req.valid('param').id), 200),
  )
  .get('/:id', requireArea('profile'), validate('param', idParam), async (c) =>
    c.json(await svc.getUser(c.var.db, c.var.caller, c.req.valid('param').id), 200),
  );

export type UserRoutes = typeof userRoutes;
