import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../env';
import { randomId, sha256Hex } from './ids';
import { reportError } from './sentry';

export const REQUEST_ID_HEADER = 'X-Request-Id';

type Level = 'info' | 'warn' | 'error';

/** JSON on one line, which Workers Logs indexes field by field. Callers never pass a token, password or body. */
export function log(level: Level, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

/** A user id as the logs show it: the first 16 hex digits of its SHA-256 (`printf %s ID | sha256sum | cut -c1-16` finds a user's lines). */
export const userHash = async (userId: string) => (await sha256Hex(userId)).slice(0, 16);

/** The route pattern that answered (`/api/user/:id`), never the path with its ids and tokens. */
function routeOf(c: Context): string {
  const route = matchedRoutes(c)[c.req.routeIndex];
  return route?.path ?? 'unmatched';
}

/** A 5xx's line holds its stack, which never reaches the response; the error also goes to Sentry when set. */
export const observeRequests: MiddlewareHandler<AppEnv> = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  const requestId = randomId(16);
  c.set('requestId', requestId);
  await next();
  c.header(REQUEST_ID_HEADER, requestId);
  const status = c.res.status;
  const caller = c.get('caller') as AppEnv['Variables']['caller'] | undefined;
  const fields: Record<string, unknown> = {
    event: 'request',
    requestId,
    method: c.req.method,
    route: routeOf(c),
    status,
    durationMs: Date.now() - started,
    user: caller ? await userHash(caller.id) : null,
  };
  const err = c.error;
  if (status >= 500 && err) {
    fields.error = { name: err.name, message: err.message, stack: err.stack };
    reportError(c.env, err, { requestId, route: String(fields.route) });
  }
  log(status >= 500 ? 'error' : 'info', fields);
});
