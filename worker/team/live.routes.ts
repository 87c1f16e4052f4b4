import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow, LIVE_PROTOCOL } from '../lib/auth';
import { teamIdOf } from '../lib/team';
import { liveOf } from './live';

/**
 * /api/live: the WebSocket of the live signals (docs/decisions/0162-live-signals.md).
 * The client offers the subprotocols `freightdesk.live, <access token>` (a browser cannot set
 * Authorization on a WebSocket); the session is checked as on every call (401 without one, 403
 * for roles without filters or without an active subscription) and the socket goes to the
 * caller's team's object, which answers the upgrade naming `freightdesk.live`.
 */
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
