import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { deviceLabel, deviceParts, SESSION_TOUCH_MS } from '../lib/auth';
import { call, createUser, homeOfUser, otherShard, PASSWORD, testEnv, tokenFromMail } from '../test/helpers';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';

/** Signs in through the API as the given client; answers the login's body. */
async function signIn(email: string, clientType: number, userAgent = CHROME_WINDOWS, password = PASSWORD) {
  const res = await call('POST', '/api/auth/login', { body: { email, password, clientType }, headers: { 'user-agent': userAgent } });
  expect(res.status, res.text).toBe(200);
  return res.body as { accessToken: string; userId: string };
}

const status = async (token: string) => (await call('GET', '/api/subscription/status', { token })).status;
const sessionRows = async (userId: string) => (await homeOfUser(userId)).db.select().from(sessions).where(eq(sessions.userId, userId));

describe('sessions per client', () => {
  it('a sign-in from the web app and one from the extension are two sessions, listed with their client and device', async () => {
    const user = await createUser('agent');
    const web = await signIn(user.email, 0, CHROME_WINDOWS);
    const ext = await signIn(user.email, 1, FIREFOX_MAC);
    const list = await call('GET', '/api/auth/sessions', { token: ext.accessToken });
    expect(list.status).toBe(200);
    // createUser's own session is the third
    const mine = list.body.filter((s: { device: string }) => s.device !== 'test' && s.device !== '');
    expect(mine.map((s: { client: string; device: string; current: boolean }) => [s.client, s.device, s.current]).sort()).toEqual([
      ['Load-board extension', 'Firefox on macOS', true],
      ['Web app', 'Chrome on Windows', false],
    ]);
    // the browser and system apart, for screens that say "on" in their own language
    expect(mine.map((s: { clientType: number; browser: string; os: string }) => [s.clientType, s.browser, s.os]).sort()).toEqual([
      [0, 'Chrome', 'Windows'],
      [1, 'Firefox', 'macOS'],
    ]);
    for (const s of list.body) {
      expect(Object.keys(s).sort()).toEqual(['_id', 'browser', 'client', 'clientType', 'createdAt', 'current', 'device', 'lastSeenAt', 'os']);
      expect(Number.isNaN(Date.parse(s.lastSeenAt))).toBe(false);
    }
    expect(await status(web.accessToken)).toBe(200);
  });

  it('signing out of the web app leaves the extension signed in, and the other way round', async () => {
    const user = await createUser('agent');
    const web = await signIn(user.email, 0);
    const ext = await signIn(user.email, 1);
    expect((await call('POST', '/api/auth/logout', { token: web.accessToken })).status).toBe(200);
    expect(await status(web.accessToken)).toBe(401);
    expect(await status(ext.accessToken)).toBe(200);

    const web2 = await signIn(user.email, 0);
    expect((await call('POST', '/api/auth/logout', { token: ext.accessToken })).status).toBe(200);
    expect(await status(ext.accessToken)).toBe(401);
    expect(await status(web2.accessToken)).toBe(200);
    const left = await call('GET', '/api/auth/sessions', { token: web2.accessToken });
    expect(left.body.filter((s: { clientType: number }) => s.clientType === 1)).toEqual([]);
  });

  for (const apart of [false, true]) {
    it(`signs one session out by id; another user's (${apart ? 'on another shard' : 'on the same shard'}), an ended or an unknown session answers 404 and changes nothing`, async () => {
      const user = await createUser('manager');
      const other = await createUser('manager', { shard: apart ? otherShard(user.shard) : user.shard });
      expect(other.shard === user.shard).toBe(!apart);
      const web = await signIn(user.email, 0);
      const ext = await signIn(user.email, 1);
      const otherExt = await signIn(other.email, 1);
      const list = (await call('GET', '/api/auth/sessions', { token: web.accessToken })).body as { _id: string; clientType: number }[];
      const extId = list.find((s) => s.clientType === 1)!._id;
      const otherId = (await call('GET', '/api/auth/sessions', { token: otherExt.accessToken })).body.find((s: { current: boolean }) => s.current)._id;

      const foreign = await call('DELETE', `/api/auth/sessions/${otherId}`, { token: web.accessToken });
      expect(foreign.status).toBe(404);
      expect(foreign.body.message).toBe('Session not found');
      expect(await status(otherExt.accessToken)).toBe(200);
      expect((await other.db.select().from(sessions).where(eq(sessions.id, otherId)))[0]!.revokedAt).toBeNull();

      const unknown = await call('DELETE', '/api/auth/sessions/no-such-session', { token: web.accessToken });
      expect(unknown.status).toBe(404);

      const ended = await call('DELETE', `/api/auth/sessions/${extId}`, { token: web.accessToken });
      expect(ended.status).toBe(200);
      expect(ended.body.message).toBe('Session signed out');
      expect(await status(ext.accessToken)).toBe(401);
      expect(await status(web.accessToken)).toBe(200);
      expect((await call('DELETE', `/api/auth/sessions/${extId}`, { token: web.accessToken })).status).toBe(404);
      expect((await call('GET', '/api/auth/sessions', { token: web.accessToken })).body.some((s: { _id: string }) => s._id === extId)).toBe(false);
    });
  }

  it('30 simultaneous sign-outs of one session: exactly one succeeds (3 rounds)', async () => {
    const user = await createUser('agent');
    const web = await signIn(user.email, 0);
    for (let round = 0; round < 3; round++) {
      const ext = await signIn(user.email, 1);
      const id = (await call('GET', '/api/auth/sessions', { token: ext.accessToken })).body.find((s: { current: boolean }) => s.current)._id;
      const answers = await Promise.all(Array.from({ length: 30 }, () => call('DELETE', `/api/auth/sessions/${id}`, { token: web.accessToken })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 404)).toHaveLength(29);
      expect(await status(ext.accessToken)).toBe(401);
    }
    expect(await status(web.accessToken)).toBe(200);
  });

  it('25 simultaneous sign-ins each get a session of their own that works', async () => {
    const user = await createUser('agent');
    const logins = await Promise.all(Array.from({ length: 25 }, (_, i) => signIn(user.email, i % 2)));
    expect(new Set(logins.map((l) => l.accessToken)).size).toBe(25);
    const rows = await sessionRows(user.id);
    // createUser's session and the 25
    expect(rows).toHaveLength(26);
    expect(rows.filter((r) => r.clientType === 1)).toHaveLength(12);
    const statuses = await Promise.all(logins.map((l) => status(l.accessToken)));
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it("one's own password change ends the other sessions and keeps the one it was made from, under a renewed token", async () => {
    const user = await createUser('agent');
    const web = await signIn(user.email, 0);
    const ext = await signIn(user.email, 1);
    const res = await call('PUT', `/api/user/update/password/${user.id}`, {
      token: web.accessToken,
      body: { newPassword: 'brand-new-pass', currentPassword: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(await status(ext.accessToken)).toBe(401);
    expect(await status(web.accessToken)).toBe(401);
    expect(await status(res.body.accessToken)).toBe(200);
    const list = (await call('GET', '/api/auth/sessions', { token: res.body.accessToken })).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ clientType: 0, current: true });
  });

  it('a password reset, an e-mail change by staff, a demotion and deletion each end every session at once', async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const endsAll = async (change: (user: { id: string; email: string }) => Promise<{ status: number }>) => {
      const user = await createUser('agent', { parentId: manager.id });
      const web = await signIn(user.email, 0);
      const ext = await signIn(user.email, 1);
      expect((await change(user)).status).toBe(200);
      expect([await status(web.accessToken), await status(ext.accessToken)]).toEqual([401, 401]);
      const live = (await sessionRows(user.id)).filter((r) => r.revokedAt === null);
      // the rows stay, issued under an older token version: none of them lets anyone in
      expect(live.length).toBeGreaterThanOrEqual(2);
    };
    await endsAll(async (user) => {
      await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
      const hash = await tokenFromMail(user.email, 'passwordRecovery');
      return call('POST', `/api/auth/passwordHashVerify/${hash}`, { body: { newPassword: 'changed-pass' } });
    });
    await endsAll((user) =>
      call('PUT', `/api/user/update/email/${user.id}`, { token: admin.token, body: { newEmail: `moved-${user.id.toLowerCase()}@test.example` } }),
    );
    await endsAll((user) => call('PUT', `/api/user/update/userType/${user.id}`, { token: admin.token, body: { userNewType: 'director' } }));
    await endsAll((user) => call('DELETE', '/api/user', { token: manager.token, body: { userId: user.id } }));
  });

  for (const apart of [false, true]) {
    it(`refuses a token without a session, an expired session and a session of another user (${apart ? 'on another shard' : 'on the same shard'})`, async () => {
      const user = await createUser('agent');
      const other = await createUser('agent', { shard: apart ? otherShard(user.shard) : user.shard });
      expect(other.shard === user.shard).toBe(!apart);
      const key = new TextEncoder().encode(testEnv.JWT_SECRET!);
      const noSid = await new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setIssuedAt().setExpirationTime('1h').sign(key);
      expect(await status(noSid)).toBe(401);
      const theirs = await signIn(other.email, 1);
      const theirSid = (await sessionRows(other.id)).find((r) => r.clientType === 1)!.id;
      const borrowed = await new SignJWT({ ver: 0, sid: theirSid }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setExpirationTime('1h').sign(key);
      expect(await status(borrowed)).toBe(401);
      expect(await status(theirs.accessToken)).toBe(200);
      await other.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.id, theirSid));
      expect(await status(theirs.accessToken)).toBe(401);
      expect((await call('GET', '/api/auth/sessions', { token: other.token })).body.some((s: { _id: string }) => s._id === theirSid)).toBe(false);
    });
  }

  it('writes the last-active time at most every few minutes, once for many simultaneous requests', async () => {
    const user = await createUser('agent');
    const ext = await signIn(user.email, 1);
    const [row] = (await sessionRows(user.id)).filter((r) => r.clientType === 1);
    for (let i = 0; i < 5; i++) expect(await status(ext.accessToken)).toBe(200);
    const [same] = await user.db.select().from(sessions).where(eq(sessions.id, row!.id));
    expect(same!.lastSeenAt.getTime()).toBe(row!.lastSeenAt.getTime());

    const old = new Date(Date.now() - SESSION_TOUCH_MS - 60_000);
    await user.db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.id, row!.id));
    const before = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => status(ext.accessToken)));
    expect(answers.every((s) => s === 200)).toBe(true);
    // the write is not awaited by the answer: wait for it to land
    let seen = old.getTime();
    for (let i = 0; i < 50 && seen === old.getTime(); i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = (await user.db.select().from(sessions).where(eq(sessions.id, row!.id)))[0]!.lastSeenAt.getTime();
    }
    expect(seen).toBeGreaterThanOrEqual(before - 5);
    // a request right after writes nothing more
    expect(await status(ext.accessToken)).toBe(200);
    expect((await user.db.select().from(sessions).where(eq(sessions.id, row!.id)))[0]!.lastSeenAt.getTime()).toBe(seen);
  });

  it('names browsers and systems from the User-Agent', () => {
    expect(deviceLabel(CHROME_WINDOWS)).toBe('Chrome on Windows');
    expect(deviceLabel(FIREFOX_MAC)).toBe('Firefox on macOS');
    expect(deviceLabel('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 Edg/140.0')).toBe(
      'Edge on Windows',
    );
    expect(deviceLabel(undefined)).toBe('');
  });

  it('reads a stored label back into its browser and system, whichever of them it has', () => {
    expect(deviceParts('Chrome on Windows')).toEqual({ browser: 'Chrome', os: 'Windows' });
    expect(deviceParts('Samsung Internet for Android on Android')).toEqual({ browser: 'Samsung Internet for Android', os: 'Android' });
    expect(deviceParts('ChromeOS')).toEqual({ browser: '', os: 'ChromeOS' });
    expect(deviceParts('Linux')).toEqual({ browser: '', os: 'Linux' });
    expect(deviceParts('Firefox')).toEqual({ browser: 'Firefox', os: '' });
    expect(deviceParts('')).toEqual({ browser: '', os: '' });
  });
});
