import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** docs/decisions/0030-sessions.md: the token names its row (`sid`); a token version bump ends every row issued under the older one. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    // the login's clientType: 0 the web app, 1 the load-board extension
    clientType: integer().notNull(),
    // a short label of the browser and system at sign-in ("Chrome on Windows"), for the Profile list
    device: text().notNull().default(''),
    // the user's token version the session was issued under: a bump ends it
    tokenVersion: integer().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
    // refreshed at most every few minutes (lib/auth.ts), not on every request
    lastSeenAt: integer({ mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer({ mode: 'timestamp_ms' }).notNull(),
    revokedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    // Profile: the user's active sessions; login: clearing the user's expired rows
    index('sessions_user').on(t.userId, t.expiresAt),
  ],
);
