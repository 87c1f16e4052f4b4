/** Sessions per client (docs/decisions/0030-sessions.md). No imports: the web app and the extension read this file. */

/** The login's `clientType`: the spec's web app is 0; the load-board extension signs in as 1. */
export const CLIENT_TYPES = { web: 0, extension: 1 } as const;

/** How the Profile screen names a session's client. */
export function clientLabel(clientType: number): string {
  if (clientType === CLIENT_TYPES.web) return 'Web app';
  if (clientType === CLIENT_TYPES.extension) return 'Load-board extension';
  return 'Other client';
}

/** One of the caller's active sessions (GET /api/auth/sessions): the schema is in auth.schema.ts, so this file stays free of zod for the extension. */
export type { SessionDto } from './auth.schema';
