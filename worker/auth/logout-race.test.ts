import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { call, createUser, sessionToken } from '../test/helpers';

describe('exclusive sign-out (decision 0150)', () => {
  it('30 simultaneous POST /api/auth/logout with one session answer 200 exactly once, 3 rounds; the session is ended once, the others untouched', async () => {
    const user = await createUser('manager');
    for (let round = 1; round <= 3; round++) {
      const token = await sessionToken(user.id);
      const other = await sessionToken(user.id);
      const answers = await Promise.all(Array.from({ length: 30 }, () => call('POST', '/api/auth/logout', { token })));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 401)).toHaveLength(29);
      expect(answers.find((r) => r.status === 200)!.body).toEqual({ message: 'Logged out' });
      expect(answers.filter((r) => r.status === 401).every((r) => r.body.message === 'Unauthorized')).toBe(true);
      // that session is ended, and stays ended; the user's other session still works
      expect((await call('GET', '/api/subscription/status', { token })).status).toBe(401);
      expect((await call('GET', '/api/subscription/status', { token: other })).status).toBe(200);
      const rows = await user.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows.filter((r) => r.revokedAt !== null)).toHaveLength(round);
    }
  });
});
