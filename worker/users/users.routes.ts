import { Hono } from 'hono';
import * as z from 'zod';
import { AUTH_MESSAGES as AUTH } from '../auth/auth.messages';
import type { AppEnv } from '../env';
import { answers, messageSchema, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES as COMMON } from '../lib/common-messages';
import { readOnly } from '../lib/db';
import { homeForTarget } from '../lib/directory';
import { LANGUAGES } from '../lib/languages';
import { validate } from '../lib/validate';
import { setReminders } from '../subscriptions/reminders';
import { endLiveSessionsOf } from '../team/live';
import * as credentials from './credentials.service';
import { USER_MESSAGES as USER } from './users.messages';
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
  userPageQuerySchema,
  userSchema,
  usersPageSchema,
  userTypeSchema,
} from './users.schema';
import * as svc from './users.service';
import { usersPage } from './users-page.service';

const users = z.array(userSchema);
/** One's own change ends one's other sessions and answers this session's new token (docs/decisions/0073-sessions-end-when-access-shrinks.md). */
const withToken = withMessage({ accessToken: z.string().optional() });

export const userRoutes = new Hono<AppEnv>()
  .get('/', allow('teamLists'), readOnly(), answers(users), async (c) => c.var.answer(await svc.listUsers(c.env, c.var.db, c.var.caller)))
  .get('/page', allow('teamLists'), readOnly(), validate('query', userPageQuerySchema), answers(usersPageSchema, [COMMON.badCursor]), async (c) =>
    c.var.answer(await usersPage(c.env, c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .delete(
    '/',
    allow('users'),
    validate('json', deleteUserSchema),
    answers(messageSchema, [COMMON.cannotDeleteSelf, COMMON.notAllowedDelete, COMMON.userNotFound, COMMON.managerHasAgents, USER.chooseManager]),
    async (c) => {
      const { userId, eraseHistory } = c.req.valid('json');
      const home = await homeForTarget(c, userId);
      if (eraseHistory) return c.var.answer(await svc.eraseTeam(c.env, c.var.control, home, c.var.caller, userId));
      return c.var.answer(await svc.deleteUser(c.env, c.var.control, home, c.var.caller, userId));
    },
  )
  .get('/directorsList', allow('admin'), readOnly(), answers(users), async (c) => c.var.answer(await svc.byType(c.env, 'director')))
  .get('/marketingUsers', allow('admin'), readOnly(), answers(users), async (c) => c.var.answer(await svc.byType(c.env, 'marketing')))
  .get('/manager', allow('profile'), readOnly(), answers(userSchema.nullable()), async (c) => c.var.answer(await svc.teamManager(c.var.db, c.var.caller)))
  .get('/directorChildManagers', allow('directorTeams'), readOnly(), answers(users), async (c) =>
    c.var.answer(await svc.directorManagers(c.env, c.var.db, c.var.caller)),
  )
  .get('/allTeam', allow('history'), readOnly(), answers(users), async (c) => c.var.answer(await svc.allTeam(c.env, c.var.db, c.var.caller)))
  .get('/childUsers/:id', allow('teamLists'), readOnly(), validate('param', idParam), answers(users, [COMMON.userNotFound]), async (c) =>
    c.var.answer(await svc.childUsers((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id)),
  )
  .post(
    '/managerChildUsers',
    allow('teamLists'),
    readOnly(),
    validate('json', childUsersSchema),
    answers(users, [COMMON.userNotFound, COMMON.managerNotFound]),
    async (c) => {
      const { parentId, includeParent } = c.req.valid('json');
      return c.var.answer(await svc.managerChildUsers((await homeForTarget(c, parentId)).db, c.var.caller, parentId, includeParent));
    },
  )
  // staff who hand out promo codes look a user up by e-mail
  .post(
    '/userByEmail',
    allow('promo'),
    readOnly(),
    validate('json', byEmailSchema),
    answers(userSchema, [AUTH.emailEmpty, AUTH.emailInvalid, COMMON.userNotFound]),
    async (c) => c.var.answer(await svc.userByEmail(c.env, c.var.control, c.req.valid('json').email)),
  )
  .post(
    '/register',
    allow('users'),
    validate('json', createUserSchema),
    answers(withMessage({ user: userSchema }), [
      AUTH.emailEmpty,
      AUTH.emailInvalid,
      AUTH.passwordEmpty,
      USER.passwordShortCreate,
      AUTH.nameEmpty,
      AUTH.nameInvisible,
      USER.parentRequired,
      AUTH.phone,
      AUTH.emailTaken,
    ]),
    async (c) => c.var.answer(await svc.createUser(c.env, c.var.control, c.var.caller, c.req.valid('json'))),
  )
  .put(
    '/update/name/:id',
    allow('profile'),
    validate('param', idParam),
    validate('json', newNameSchema),
    answers(messageSchema, [AUTH.nameEmpty, AUTH.nameInvisible]),
    async (c) =>
      c.var.answer(
        await svc.updateName((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').newName),
      ),
  )
  .put(
    '/update/email/:id',
    allow('profile'),
    validate('param', idParam),
    validate('json', newEmailSchema),
    answers(withToken, [AUTH.emailEmpty, AUTH.emailInvalid, AUTH.emailTaken]),
    async (c) => {
      const id = c.req.valid('param').id;
      const { db } = await homeForTarget(c, id);
      const updated = await credentials.updateEmail(c.env, c.var.control, db, c.var.caller, id, c.req.valid('json'));
      // every other session of the user ended: so do their live sockets
      endLiveSessionsOf(c, db, id, id === c.var.caller.id ? c.var.caller.sessionId : undefined);
      return c.var.answer(updated);
    },
  )
  .put(
    '/update/password/:id',
    allow('profile'),
    validate('param', idParam),
    validate('json', newPasswordSchema),
    answers(withToken, [USER.passwordEmptyUpdate, AUTH.passwordShort]),
    async (c) => {
      const id = c.req.valid('param').id;
      const { db } = await homeForTarget(c, id);
      const updated = await credentials.updatePassword(c.env, db, c.var.caller, id, c.req.valid('json'));
      // every other session of the user ended: so do their live sockets
      endLiveSessionsOf(c, db, id, id === c.var.caller.id ? c.var.caller.sessionId : undefined);
      return c.var.answer(updated);
    },
  )
  .put(
    '/update/reminders/:id',
    allow('profile'),
    validate('param', idParam),
    validate('json', remindersSchema),
    answers(withMessage({ remindersEnabled: z.boolean() }), [COMMON.notAllowedUser, COMMON.userNotFound, USER.remindersFlag]),
    async (c) =>
      c.var.answer(
        await setReminders((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').remindersEnabled),
      ),
  )
  // Not in the spec: the user's language (Profile; docs/decisions/0023-languages.md)
  .put(
    '/update/language/:id',
    allow('profile'),
    validate('param', idParam),
    validate('json', languageBodySchema),
    answers(withMessage({ language: z.enum(LANGUAGES) }), [AUTH.language]),
    async (c) =>
      c.var.answer(
        await svc.updateLanguage((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').language),
      ),
  )
  .put(
    '/update/userType/:id',
    allow('admin'),
    validate('param', idParam),
    validate('json', userTypeSchema),
    answers(messageSchema, [USER.wrongType, COMMON.cannotChangeOwnType, COMMON.ownParent, COMMON.userHasTeam]),
    async (c) => {
      const { userNewType, newParent } = c.req.valid('json');
      const { id } = c.req.valid('param');
      return c.var.answer(await svc.updateType(c.env, c.var.control, await homeForTarget(c, id), c.var.caller, id, userNewType, newParent));
    },
  )
  .put(
    '/update/trialPeriodState/:id',
    allow('admin'),
    validate('param', idParam),
    validate('json', trialStateSchema),
    answers(messageSchema, [USER.trialFlag]),
    async (c) =>
      c.var.answer(
        await svc.setTrial((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').isActive),
      ),
  )
  .put(
    '/update/trialPeriodEndDate/:id',
    allow('admin'),
    validate('param', idParam),
    validate('json', trialDateSchema),
    answers(messageSchema, [USER.badDate]),
    async (c) =>
      c.var.answer(
        await svc.setTrialEndDate((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id, c.req.valid('json').newDate),
      ),
  )
  .put(
    '/update/parent/:id',
    allow('admin'),
    validate('param', idParam),
    validate('json', parentSchema),
    answers(messageSchema, [COMMON.onlyAgentsHaveParent, COMMON.ownParent]),
    async (c) =>
      c.var.answer(
        await svc.updateParent(
          c.env,
          c.var.control,
          await homeForTarget(c, c.req.valid('param').id),
          c.var.caller,
          c.req.valid('param').id,
          c.req.valid('json').newParent,
        ),
      ),
  )
  .put(
    '/resendEmailVerification/:id',
    allow('profile'),
    validate('param', idParam),
    answers(messageSchema, [COMMON.alreadyVerified, AUTH.tooManyMails]),
    async (c) => c.var.answer(await svc.resendVerification(c.env, (await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id)),
  )
  .get('/:id', allow('profile'), readOnly(), validate('param', idParam), answers(userSchema, [COMMON.userNotFound]), async (c) =>
    c.var.answer(await svc.getUser((await homeForTarget(c, c.req.valid('param').id)).db, c.var.caller, c.req.valid('param').id)),
  );

export type UserRoutes = typeof userRoutes;
