/** Sessions per client (docs/decisions/foundation.md). The web app and the extension read this file. */
import * as z from 'zod';

/** The login's `clientType`: the spec's web app is 0; the load-board extension signs in as 1. */
export const CLIENT_TYPES = { web: 0, extension: 1 } as const;

/** How the Profile screen names a session's client. */
export function clientLabel(clientType: number): string {
  if (clientType === CLIENT_TYPES.web) return 'Web app';
  if (clientType === CLIENT_TYPES.extension) return 'Load-board extension';
  return 'Other client';
}

/** One of the caller's active sessions (GET /api/auth/sessions). */
export const sessionSchema = z.strictObject({
  _id: z.string(),
  clientType: z.number(),
  /** 'Web app', 'Load-board extension' */
  client: z.string(),
  /** Browser and system at sign-in, e.g. 'Chrome on Windows'; '' when unknown. */
  device: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The session this request was made with. */
  current: z.boolean(),
});
export type SessionDto = z.infer<typeof sessionSchema>;
