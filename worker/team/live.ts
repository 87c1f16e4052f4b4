import { eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { users } from '../db/schema';
import type { AppEnv, Bindings, Db } from '../env';
import { teamIdOf } from '../lib/team';
import type { LiveSignalType, TeamLive } from './team-live';

/** The team's live object (team-live.ts): one per team, by the team's id. */
export const liveOf = (env: Bindings, teamId: string): DurableObjectStub<TeamLive> => env.TEAM_LIVE.get(env.TEAM_LIVE.idFromName(teamId));

/** What these need of a request: its bindings, and its context to outlive the answer. */
type Request = Pick<Context<AppEnv>, 'env' | 'executionCtx'>;

/** Runs a call after the answer: the write's answer never waits for the live object, and its failure is only logged. */
function afterAnswer(c: Request, work: Promise<unknown>, what: string) {
  const done = work.then(
    () => undefined,
    (err: unknown) => console.error(`live ${what} failed`, err),
  );
  try {
    c.executionCtx.waitUntil(done);
  } catch {
    // no execution context (a direct app.request in a script): the call runs on its own
  }
}

/** Tells the team's open boards and screens that its filters or contacts changed. */
export function signalTeam(c: Request, teamId: string, type: LiveSignalType) {
  afterAnswer(c, liveOf(c.env, teamId).signal({ type, at: Date.now() }), 'signal');
}

/**
 * After a successful write of the route (any 2xx), signals the caller's team: put after `allow()`
 * on the routes that change filters or log contacts.
 */
export const signalsAfter = (type: LiveSignalType): MiddlewareHandler<AppEnv> =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const caller = c.get('caller') as AppEnv['Variables']['caller'] | undefined;
    if (caller && c.res.status >= 200 && c.res.status < 300) signalTeam(c, teamIdOf(caller), type);
  });

/** Closes the live sockets of one ended session (sign-out, a session signed out from Profile). */
export function endLiveSession(
  c: Request,
  user: { id: string; userType: AppEnv['Variables']['caller']['userType']; parentId: string | null },
  sessionId: string,
) {
  afterAnswer(c, liveOf(c.env, teamIdOf(user)).endSessions({ sessionId }), 'end session');
}

/**
 * Closes every live socket of a user whose sessions ended (a password change or reset), but the
 * one session a change of one's own password keeps. The user's team is read after the answer.
 */
export function endLiveSessionsOf(c: Request, db: Db, userId: string, exceptSessionId?: string) {
  const work = db
    .select({ id: users.id, userType: users.userType, parentId: users.parentId })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
    .then(([user]) => (user ? liveOf(c.env, teamIdOf(user)).endSessions({ userId, ...(exceptSessionId ? { exceptSessionId } : {}) }) : 0));
  afterAnswer(c, work, 'end sessions');
}
