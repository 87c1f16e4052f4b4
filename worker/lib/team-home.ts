import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { userHome } from '../users/directory';
import { openCompany } from './db';

/**
 * The admin reads any manager's team (Contact History's `managerId`), and that team lives on its
 * company's shard while the admin's own database is the staff company's
 * (docs/decisions/0174-company-shards.md). For an admin naming a manager, the request's database
 * becomes the manager's company on its shard, so the route's scope checks and reads run there.
 * Goes after the route's `validate(target)`; an unknown id leaves the admin's own database, where
 * the route answers its 404 as before. Other callers read their own company only.
 */
export const adminOnTeamHome = (target: 'json' | 'query') =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.var.caller?.userType === 'admin') {
      const managerId = (c.req.valid(target as never) as { managerId?: string | null } | undefined)?.managerId;
      const home = managerId ? await userHome(c.env, c.var.control, managerId) : undefined;
      if (home) openCompany(c, home);
    }
    await next();
  });
