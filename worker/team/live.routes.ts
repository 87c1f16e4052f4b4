import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow, LIVE_PROTOCOL } from '../lib/auth';
import { teamIdOf } from '../lib/team';
import { liveOf } from './live';

/** docs/decisions/0162-live-signals.md. The token rides as a subprotocol: a browser cannot set Authorization on a WebSocket. */
export const liveRoutes = new Hono<AppEnv>().get('/', allow('filters'), async (c) => {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') return c.json({ message: 'Expected a WebSocket upgrade' }, 426);
  const caller = c.var.caller;
  const headers = new Headers(c.req.raw.headers);
  headers.set('x-live-user', caller.id);
  headers.set('x-live-session', caller.sessionId);
  headers.set('x-live-protocol', LIVE_PROTOCOL);
  // the runtime's Request and Response (worker/runtime-names.d.ts)
  const answer = await liveOf(c.env, teamIdOf(caller)).fetch(new Request(c.req.raw, { headers }) as unknown as WorkerRequest);
  return answer as unknown as Response;
});
