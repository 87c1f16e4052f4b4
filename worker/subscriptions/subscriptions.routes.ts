import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { readOnly } from '../lib/db';
import { subscriptionOf } from '../lib/subscription';
import { validate } from '../lib/validate';
import type { TeamSubscriptionDto } from '../payments/payments.schema';
import { homeForTarget } from '../users/directory';
import { childUsersSchema } from '../users/users.schema';
import { managerChildUsers } from '../users/users.service';

/** /api/subscription: the caller's status, and a manager's team for Pay for Team. */
export const subscriptionRoutes = new Hono<AppEnv>()
  .get('/status', allow('signedIn'), (c) => c.json(subscriptionOf(c.var.caller), 200))
  .post('/childUsersSubscriptions', allow('payForTeam'), readOnly(), validate('json', childUsersSchema), async (c) => {
    const { parentId, includeParent } = c.req.valid('json');
    // the admin's Pay for Team view of any company: that company's shard
    const team = await managerChildUsers((await homeForTarget(c, parentId)).db, c.var.caller, parentId, includeParent);
    return c.json(
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
      200,
    );
  });

export type SubscriptionRoutes = typeof subscriptionRoutes;
