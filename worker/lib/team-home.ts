import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { openCompany } from './db';
import { userHome } from './directory';

/**
 * The admin's own database is the staff company's, so for an admin naming a manager the request's
 * database becomes that team's shard (docs/decisions/0174-company-shards.md). An unknown id keeps the
 * admin's own, where the route answers 404.
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
