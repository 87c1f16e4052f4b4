import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailTokens, loginEvents, mailOutbox, users } from '../db/schema';
import { PBKDF2_ITERATIONS } from '../lib/passwords';
import { call, countRows, createUser, everyDb, getUser, homeOfUser, loginToken, outbox, PASSWORD, tokenFromMail } from '../test/helpers';

const good = {
  name: 'Ann Broker',
  email: 'ann@broker.example',
  password: 'secret1',
  country: 'AM',
  phone: '+37491234567',
  repeatPassword: 'secret1',
};
const uniq = () => `u${Math.random().toString(36).slice(2)}@broker.example`;

describe('POST /api/auth/register', () => {
  it('creates an unverified manager and mails a verification link', async () => {
    const email = uniq();
    const res = await call('POST', '/api/auth/register', { body: { ...good, email: email.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/Registration successful/);
    const token = await tokenFromMail(email, 'emailVerify');
    const login = await call('POST', '/api/auth/login', { body: { email, password: good.password, clientType: 0 } });
    expect(login.status).toBe(200);
    // a new manager starts on a 14-day trial
    expect(login.body).toMatchObject({ userType: 'manager', name: 'Ann Broker', email, isSubscriptionActive: true });
    const user = await getUser(login.body.userId);
    expect(user).toMatchObject({ isEmailVerified: false, isTrialPeriod: true, phone: '+37491234567', country: 'AM', parentId: null });
    expect(Math.round((user!.subscriptionEndDate!.getTime() - Date.now()) / 86_400_000)).toBe(14);

    const verify = await call('GET', `/api/user/verify/${token}`);
    expect(verify.status).toBe(200);
    expect(verify.body.message).toBe('Your e-mail has been verified');
    expect((await getUser(login.body.userId))!.isEmailVerified).toBe(true);
    // single use: opened again, it changes nothing and says the e-mail is verified (rule 0140)
    const again = await call('GET', `/api/user/verify/${token}`);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Your e-mail is already verified');
    // a link nobody sent is still invalid
    const unknown = await call('GET', `/api/user/verify/${'a'.repeat(token.length)}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('This link is invalid or has expired');
  });

  it.each([
    [{ name: '  ' }, 'Name is Empty'],
    [{ email: '' }, 'Email is Empty'],
    [{ email: 'not-an-email' }, 'Email is not valid'],
    [{ password: '' }, 'Password is Empty'],
    [{ password: '12345', repeatPassword: '12345' }, 'Password minimum 6 symbols'],
    [{ country: '' }, 'Select your country'],
    [{ country: 'XX' }, 'Select your country'],
    [{ phone: '+3749' }, 'Wrong phone number'],
    [{ phone: '+12025550123' }, 'Wrong phone number'],
    [{ repeatPassword: '' }, 'Repeat password is Empty'],
    [{ repeatPassword: 'secret2' }, "Passwords don't match"],
    // order: the first failure wins
    [{ name: '', email: '', password: '' }, 'Name is Empty'],
    [{ password: '1', country: '' }, 'Password minimum 6 symbols'],
  ])('refuses %j with "%s" and stores nothing', async (patch, message) => {
    const before = await countRows('users');
    const res = await call('POST', '/api/auth/register', { body: { ...good, email: uniq(), ...patch } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await countRows('users')).toBe(before);
  });

  it('answers 409 for a taken e-mail, whatever its case', async () => {
    const email = uniq();
    expect((await call('POST', '/api/auth/register', { body: { ...good, email } })).status).toBe(200);
    const before = await countRows('users');
    const res = await call('POST', '/api/auth/register', { body: { ...good, email: ` ${email.toUpperCase()} ` } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This e-mail is already registered');
    expect(await countRows('users')).toBe(before);
  });

  it.each([
    ['malformed JSON', { rawBody: '{"name":', headers: { 'content-type': 'application/json' } }],
    ['wrong types', { body: { ...good, name: 42, phone: ['x'] } }],
    ['an array body', { body: [good] }],
    ['a 1 MB body', { body: { ...good, name: 'x'.repeat(1_000_000) } }],
  ])('answers 4xx with a message for %s and changes nothing', async (_label, opts) => {
    const before = await countRows('users');
    const res = await call('POST', '/api/auth/register', opts as never);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof res.body.message).toBe('string');
    expect(await countRows('users')).toBe(before);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await call('POST', '/api/auth/register', { body: { ...good, name: 'x'.repeat(1_000_000) } });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request body is too large');
  });
});

describe('POST /api/auth/login', () => {
  it('answers the session fields and records a login event with its clientType', async () => {
    const agent = await createUser('agent', { subscriptionDays: 3 });
    const res = await call('POST', '/api/auth/login', { body: { email: agent.email, password: PASSWORD, clientType: 1 } });
    expect(res.status).toBe(200);
    // the spec's six fields, plus our device token (docs/decisions/0034-device-tokens.md)
    expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'deviceToken', 'email', 'isSubscriptionActive', 'language', 'name', 'userId', 'userType']);
    expect(res.body.deviceToken).not.toBe(res.body.accessToken);
    // a device token is no access token
    expect((await call('GET', '/api/subscription/status', { token: res.body.deviceToken })).status).toBe(401);
    expect(res.body).toMatchObject({ userId: agent.id, userType: 'agent', isSubscriptionActive: true });
    const events = await agent.db.select().from(loginEvents).where(eq(loginEvents.userId, agent.id));
    expect(events.map((e) => e.clientType)).toEqual([1]);
    const me = await call('GET', '/api/subscription/status', { token: res.body.accessToken });
    expect(me.status).not.toBe(401);
  });

  it('reports an expired subscription as inactive and staff as always active', async () => {
    const expired = await createUser('manager', { subscriptionDays: -1 });
    const marketing = await createUser('marketing', { subscriptionDays: null });
    const a = await call('POST', '/api/auth/login', { body: { email: expired.email, password: PASSWORD } });
    const b = await call('POST', '/api/auth/login', { body: { email: marketing.email, password: PASSWORD } });
    expect(a.body.isSubscriptionActive).toBe(false);
    expect(b.body.isSubscriptionActive).toBe(true);
  });

  it('refuses a wrong password or unknown e-mail with 400 and the same message', async () => {
    const user = await createUser('manager');
    const wrong = await call('POST', '/api/auth/login', { body: { email: user.email, password: 'nope-nope', clientType: 0 } });
    const unknown = await call('POST', '/api/auth/login', { body: { email: 'nobody@x.example', password: PASSWORD } });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.body.message).toBe('Wrong email or password');
    expect(unknown.body.message).toBe('Wrong email or password');
  });

  it('the start step seeds the first admin from ADMIN_EMAIL / ADMIN_PASSWORD, once', async () => {
    const first = await call('POST', '/api/dev/admin');
    expect(first.status).toBe(200);
    expect(first.body.email).toBe('admin@example.com');
    const res = await call('POST', '/api/auth/login', { body: { email: 'admin@example.com', password: 'admin12345' } });
    expect(res.status).toBe(200);
    expect(res.body.userType).toBe('admin');
    const again = await call('POST', '/api/dev/admin');
    expect(again.body).toEqual({ created: false, email: 'admin@example.com' });
    const admins = await Promise.all(everyDb().map(({ db }) => db.select().from(users).where(eq(users.email, 'admin@example.com'))));
    expect(admins.flat()).toHaveLength(1);
  });

  it('answers 400 with a message for missing fields', async () => {
    const res = await call('POST', '/api/auth/login', { body: { email: 'a@b.example' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBeTruthy();
  });
});

describe('password recovery', () => {
  it('mails a single-use link that sets the password and ends older sessions', async () => {
    const user = await createUser('agent');
    const oldToken = await loginToken(user.email);
    const res = await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    expect(res.status).toBe(200);
    const unknown = await call('POST', '/api/auth/sendPasswordHash', { body: { email: 'ghost@x.example' } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.message).toBe(res.body.message);

    const hash = await tokenFromMail(user.email, 'passwordRecovery');
    const short = await call('POST', `/api/auth/passwordHashVerify/${hash}`, { body: { newPassword: '123' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Password minimum 6 symbols');

    const ok = await call('POST', `/api/auth/passwordHashVerify/${hash}`, { body: { newPassword: 'brand-new-pass' } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Your password has been changed');
    const reused = await call('POST', `/api/auth/passwordHashVerify/${hash}`, { body: { newPassword: 'another-pass' } });
    expect(reused.status).toBe(400);

    expect((await call('GET', '/api/subscription/status', { token: oldToken })).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(400);
    expect((await call('POST', '/api/auth/login', { body: { email: user.email, password: 'brand-new-pass' } })).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const user = await createUser('agent');
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    const hash = await tokenFromMail(user.email, 'passwordRecovery');
    await user.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, user.id));
    const res = await call('POST', `/api/auth/passwordHashVerify/${hash}`, { body: { newPassword: 'brand-new-pass' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This link is invalid or has expired');
  });

  it('refuses an unknown link', async () => {
    const res = await call('POST', `/api/auth/passwordHashVerify/${'ab'.repeat(32)}`, { body: { newPassword: 'brand-new-pass' } });
    expect(res.status).toBe(400);
  });
});

/** Every reset link mailed to `to`, oldest first. */
async function resetLinks(to: string): Promise<string[]> {
  const mails = (await Promise.all(everyDb().map(({ db }) => db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(sql`rowid`))))).flat();
  return mails.flatMap((m) => /\/passwordRecovery\/([0-9a-f]+)/.exec(m.text)?.[1] ?? []);
}
const useLink = (hash: string, newPassword: string) => call('POST', `/api/auth/passwordHashVerify/${hash}`, { body: { newPassword } });
const unusedResetTokens = async (userId: string) =>
  (
    await (
      await homeOfUser(userId)
    ).db
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, 'reset'), isNull(emailTokens.usedAt)))
  ).length;
const INVALID = [400, 'This link is invalid or has expired'];

describe('outstanding reset links end (OWASP Forgot Password)', () => {
  it('using one link ends the other links of the user', async () => {
    const user = await createUser('agent');
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    const [first, second] = await resetLinks(user.email);
    expect(first && second && first !== second).toBe(true);
    expect((await useLink(second!, 'second-pass')).status).toBe(200);
    const old = await useLink(first!, 'first-pass');
    expect([old.status, old.body.message]).toEqual(INVALID);
    expect(await unusedResetTokens(user.id)).toBe(0);
    expect(await loginToken(user.email, 'second-pass')).toBeTruthy();
    expect((await call('POST', '/api/auth/login', { body: { email: user.email, password: 'first-pass' } })).status).toBe(400);
  });

  it('a password change by the user or by the admin ends links mailed before it', async () => {
    const admin = await createUser('admin');
    const user = await createUser('manager');
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    const [beforeOwnChange] = await resetLinks(user.email);
    const own = await call('PUT', `/api/user/update/password/${user.id}`, {
      token: user.token,
      body: { newPassword: 'own-new-pass', currentPassword: PASSWORD },
    });
    expect(own.status).toBe(200);
    expect(await useLink(beforeOwnChange!, 'attacker-pass').then((r) => [r.status, r.body.message])).toEqual(INVALID);

    await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    const beforeAdminChange = (await resetLinks(user.email)).at(-1)!;
    expect((await call('PUT', `/api/user/update/password/${user.id}`, { token: admin.token, body: { newPassword: 'admin-set-pass' } })).status).toBe(200);
    expect(await useLink(beforeAdminChange, 'attacker-pass').then((r) => [r.status, r.body.message])).toEqual(INVALID);
    expect(await unusedResetTokens(user.id)).toBe(0);
    expect(await loginToken(user.email, 'admin-set-pass')).toBeTruthy();
  });

  it('an e-mail change ends links mailed to the old address, ends other sessions and tells the old address', async () => {
    const user = await createUser('agent');
    const otherDevice = await loginToken(user.email);
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    const [toOldAddress] = await resetLinks(user.email);
    const newEmail = `moved-${Date.now()}@test.example`;
    const res = await call('PUT', `/api/user/update/email/${user.id}`, { token: user.token, body: { newEmail, currentPassword: PASSWORD } });
    expect(res.status).toBe(200);
    expect(await useLink(toOldAddress!, 'attacker-pass').then((r) => [r.status, r.body.message])).toEqual(INVALID);
    // other sessions end; the caller's fresh token keeps it signed in
    expect((await call('GET', '/api/subscription/status', { token: otherDevice })).status).toBe(401);
    expect((await call('GET', '/api/subscription/status', { token: user.token })).status).toBe(401);
    expect((await call('GET', '/api/subscription/status', { token: res.body.accessToken })).status).toBe(200);
    const notice = (await outbox()).find((m) => m.to === user.email && m.subject === 'Your FreightDesk e-mail address was changed');
    expect(notice?.text).toContain(newEmail);
    expect(notice?.text).toMatch(/If you did not ask for this/);
    expect(await loginToken(newEmail)).toBeTruthy();
  });

  it('of two links used at once by many requests exactly one wins, round after round', async () => {
    const ROUNDS = 5;
    const PER_LINK = 12;
    for (let round = 0; round < ROUNDS; round++) {
      const user = await createUser('agent');
      await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
      await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
      const links = await resetLinks(user.email);
      expect(links).toHaveLength(2);
      const tries = links.flatMap((link, l) => Array.from({ length: PER_LINK }, (_, i) => ({ link, password: `race-${round}-${l}-${i}` })));
      const answers = await Promise.all(tries.map((t) => useLink(t.link, t.password)));
      const winners = tries.filter((_, i) => answers[i]!.status === 200);
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 400 && a.body.message === INVALID[1])).toBe(true);
      expect(await unusedResetTokens(user.id)).toBe(0);
      expect(await loginToken(user.email, winners[0]!.password)).toBeTruthy();
    }
  });
});

describe('tokens', () => {
  it('answers 401 without a token, with a bad or tampered one, and after logout', async () => {
    const user = await createUser('manager');
    expect((await call('GET', '/api/subscription/status')).status).toBe(401);
    expect((await call('GET', '/api/subscription/status', { token: 'garbage' })).status).toBe(401);
    const [h, p, s] = user.token.split('.');
    const payload = JSON.parse(atob(p!.replace(/-/g, '+').replace(/_/g, '/')));
    const forged = btoa(JSON.stringify({ ...payload, sub: 'someone-else' }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    expect((await call('GET', '/api/subscription/status', { token: `${h}.${forged}.${s}` })).status).toBe(401);
    const none = `${btoa('{"alg":"none","typ":"JWT"}').replace(/=+$/, '')}.${p}.`;
    expect((await call('GET', '/api/subscription/status', { token: none })).status).toBe(401);

    const token = await loginToken(user.email);
    expect((await call('POST', '/api/auth/logout', { token })).status).toBe(200);
    const after = await call('GET', '/api/subscription/status', { token });
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Unauthorized');
  });

  it('keeps PBKDF2 at the 100,000 iterations the production runtime accepts', () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
  });
});

describe('dev outbox', () => {
  it('lists mails newest first with their fields', async () => {
    const user = await createUser('agent');
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } });
    const res = await call('GET', '/api/dev/outbox');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body[0]).sort()).toEqual(['date', 'html', 'subject', 'text', 'to']);
    expect(res.body[0].to).toBe(user.email);
  });

  it('keeps the order of mails sent in the same millisecond: the later one first', async () => {
    const first = await createUser('agent');
    const second = await createUser('agent');
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: first.email } });
    await call('POST', '/api/auth/sendPasswordHash', { body: { email: second.email } });
    const res = await call('GET', '/api/dev/outbox');
    expect(res.body.slice(0, 2).map((m: { to: string }) => m.to)).toEqual([second.email, first.email]);
  });
});
