import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { readOnly } from '../lib/db';
import { homeForTarget } from '../lib/directory';
import { subscriptionOf } from '../lib/subscription';
import { validate } from '../lib/validate';
import { type TeamSubscriptionDto, teamSubscriptionSchema } from '../payments/payments.schema';
import { USER_MESSAGES } from '../users/users.messages';
import { childUsersSchema } from '../users/users.schema';
import { managerChildUsers } from '../users/users.service';
import { subscriptionStatusSchema } from './subscriptions.schema';

/** /api/subscription: the caller's status, and a manager's team for Pay for Team. */
export const subscriptionRoutes = new Hono<AppEnv>()
  .get('/status', allow('signedIn'), answers(subscriptionStatusSchema), (c) => c.var.answer(subscriptionOf(c.var.caller)))
  .post(
    '/childUsersSubscriptions',
    allow('payForTeam'),
    readOnly(),
    validate('json', childUsersSchema),
    answers(z.array(teamSubscriptionSchema), [COMMON_MESSAGES.userNotFound, USER_MESSAGES.chooseManager]),
    async (c) => {
      const { parentId, includeParent } = c.req.valid('json');
      // the admin's Pay for Team view of any company: that company's shard
      const team = await managerChildUsers((await homeForTarget(c, parentId)).db, c.var.caller, parentId, includeParent);
      return c.var.answer(
        team.map(
          (u): TeamSubscriptionDto => ({
            _id: u._id,
            name: u.name,
            email: u.email,
            userType: u.userType,
            isEmailVerified: u.isEmailVerified,
            ...subscriptionOf({ userType: u.userType, subscriptionEndDate: u.subscriptionEndDate ? new Date(u.subscriptionEndDate) : null }),
          }),
        ),
      );
    },
  );

export type SubscriptionRoutes = typeof subscriptionRoutes;
