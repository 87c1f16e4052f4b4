import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { app } from '../app';
import { users } from '../db/schema';
import type { Bindings } from '../env';
import { verifyPassword } from '../lib/passwords';
import { LIMITS } from '../lib/rate-limit';
import { countRows, createUser, outbox, PASSWORD, testEnv } from '../test/helpers';

/**
 * Abuse limits, with the limiter switched on (the rest of the suite runs with it off so it can
 * log in freely). Each test uses its own IP and e-mail so the Durable Object counters are fresh.
 */
const limitedEnv: Bindings = { ...testEnv, DISABLE_RATE_LIMITS: undefined };
let ipSeq = 0;
const freshIp = () => `10.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}.${Math.floor(Math.random() * 250)}`;

async function send(path: string, body: unknown, ip: string, opts: { method?: string; token?: string } = {}) {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': ip };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await app.fetch(new Request(`http://localhost${path}`, { method: opts.method ?? 'POST', headers, body: JSON.stringify(body) }), limitedEnv, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json().catch(() => null)) as { message?: string; deviceToken?: string; accessToken?: string } | null };
}

const login = (email: string, password: string, ip: string, deviceToken?: string) =>
  send('/api/auth/login', { email, password, clientType: 0, ...(deviceToken ? { deviceToken } : {}) }, ip);
/** A good login from `ip`; answers the device token it hands out. */
async function deviceTokenFor(email: string, ip = freshIp()): Promise<string> {
  const res = await login(email, PASSWORD, ip);
  expect(res.status).toBe(200);
  expect(typeof res.body?.deviceToken).toBe('string');
  return res.body!.deviceToken!;
}
const statuses = (answers: { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
};

describe('login limits: untrusted clients (no device token)', () => {
  it('throttles failures per account, then refuses even the right password with 429', { timeout: 60_000 }, async () => {
    const user = await createUser('manager');
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginFailuresPerEmail.limit; i++) {
      expect((await login(user.email, 'wrong-password', ip)).status).toBe(400);
    }
    const blocked = await login(user.email, PASSWORD, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body?.message).toMatch(/try again later/i);
    // another account from the same address is not affected by this account's failures
    const other = await createUser('agent');
    expect((await login(other.email, PASSWORD, ip)).status).toBe(200);
  });

  it('throttles failures per address across accounts; a user with a device token still logs in there', { timeout: 120_000 }, async () => {
    const user = await createUser('manager');
    const device = await deviceTokenFor(user.email);
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginFailuresPerIp.limit; i++) {
      // spread over many unknown e-mails so the per-account limit never trips
      expect((await login(`nobody-${ip}-${i}@limits.example`, 'wrong-password', ip)).status).toBe(400);
    }
    // the 101st failure, and then the right password without a device token: 429 as designed
    expect((await login(`nobody-${ip}-last@limits.example`, 'wrong-password', ip)).status).toBe(429);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(429);
    // a different address still logs in
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
    // the right password with a device token from the flooded address: 200
    const trusted = await login(user.email, PASSWORD, ip, device);
    expect(trusted.status).toBe(200);
    expect(trusted.body?.deviceToken).toBeTruthy();
    // an office: its users have device tokens and log in at once from the flooded address
    const office = await Promise.all(Array.from({ length: 10 }, () => createUser('agent')));
    const devices = await Promise.all(office.map((u) => deviceTokenFor(u.email)));
    const answers = await Promise.all(office.flatMap((u, i) => [0, 1, 2].map(() => login(u.email, PASSWORD, ip, devices[i]))));
    expect(statuses(answers)).toEqual({ 200: 30 });
  });

  it('never throttles good logins from one office address, nor simultaneous logins of one account', { timeout: 120_000 }, async () => {
    const ip = freshIp();
    const office = await Promise.all(Array.from({ length: 30 }, () => createUser('agent')));
    // 150 at once from one address (more than its failure limit of 100): none is refused
    const answers = await Promise.all(office.flatMap((u) => Array.from({ length: 5 }, () => login(u.email, PASSWORD, ip))));
    expect(statuses(answers)).toEqual({ 200: 150 });
    // 30 at once for one account (more than its limit of 10): they take turns, none is refused
    const same = await Promise.all(Array.from({ length: 30 }, () => login(office[0]!.email, PASSWORD, ip)));
    expect(statuses(same)).toEqual({ 200: 30 });
  });

  it('simultaneous guesses cannot pass a limit: exactly the limit is tried, per account and per address', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const user = await createUser('manager');
      const answers = await Promise.all(Array.from({ length: 30 }, () => login(user.email, 'wrong-password', freshIp())));
      expect(statuses(answers), `account, round ${round}`).toEqual({ 400: LIMITS.loginFailuresPerEmail.limit, 429: 30 - LIMITS.loginFailuresPerEmail.limit });
      expect((await login(user.email, PASSWORD, freshIp())).status).toBe(429);
    }
    const ip = freshIp();
    const spray = await Promise.all(Array.from({ length: 130 }, (_, i) => login(`spray-${ip}-${i}@limits.example`, 'Password1', ip)));
    expect(statuses(spray), 'address').toEqual({ 400: LIMITS.loginFailuresPerIp.limit, 429: 130 - LIMITS.loginFailuresPerIp.limit });
  });
});

describe('login limits: device tokens (OWASP device cookies)', () => {
  it('10+ wrong passwords for an account lock out untrusted clients, never the owner with a device token', { timeout: 60_000 }, async () => {
    const owner = await createUser('manager');
    const device = await deviceTokenFor(owner.email);
    for (let i = 0; i < LIMITS.loginFailuresPerEmail.limit + 5; i++) {
      expect((await login(owner.email, `guess-${i}`, freshIp())).status).toBe(i < LIMITS.loginFailuresPerEmail.limit ? 400 : 429);
    }
    expect((await login(owner.email, PASSWORD, freshIp())).status).toBe(429);
    const res = await login(owner.email, PASSWORD, freshIp(), device);
    expect(res.status).toBe(200);
    // the fresh device token it got works as well
    expect((await login(owner.email, PASSWORD, freshIp(), res.body!.deviceToken)).status).toBe(200);
  });

  it('failures with a stolen device token lock that device token only', { timeout: 60_000 }, async () => {
    const owner = await createUser('manager');
    const stolen = await deviceTokenFor(owner.email);
    const ownersOwn = await deviceTokenFor(owner.email);
    const attacker = freshIp();
    for (let i = 0; i < LIMITS.loginFailuresPerDevice.limit; i++) expect((await login(owner.email, `guess-${i}`, attacker, stolen)).status).toBe(400);
    const locked = await login(owner.email, PASSWORD, attacker, stolen);
    expect([locked.status, locked.body?.message]).toEqual([429, 'Too many failed logins, please try again later']);
    // the owner's other device, and even untrusted clients, are untouched
    expect((await login(owner.email, PASSWORD, freshIp(), ownersOwn)).status).toBe(200);
    expect((await login(owner.email, PASSWORD, freshIp())).status).toBe(200);
    // simultaneous guesses with one device token: exactly the limit is tried
    const another = await deviceTokenFor(owner.email);
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(owner.email, `burst-${i}`, freshIp(), another)));
    expect(statuses(burst)).toEqual({ 400: LIMITS.loginFailuresPerDevice.limit, 429: 30 - LIMITS.loginFailuresPerDevice.limit });
  });

  it("a forged token, or another account's, counts as none: its failures fill the account's untrusted bucket", { timeout: 60_000 }, async () => {
    const victim = await createUser('manager');
    const mallory = await createUser('manager');
    const malloryDevice = await deviceTokenFor(mallory.email);
    const [h, p, sig] = malloryDevice.split('.');
    const forgedPayload = btoa(JSON.stringify({ ...JSON.parse(atob(p!.replace(/-/g, '+').replace(/_/g, '/'))), sub: victim.id, email: victim.email }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    const forged = `${h}.${forgedPayload}.${sig}`;
    for (let i = 0; i < LIMITS.loginFailuresPerEmail.limit; i++) {
      expect((await login(victim.email, `guess-${i}`, freshIp(), i % 2 ? forged : malloryDevice)).status).toBe(400);
    }
    expect((await login(victim.email, PASSWORD, freshIp(), forged)).status).toBe(429);
    expect((await login(victim.email, PASSWORD, freshIp(), malloryDevice)).status).toBe(429);
    expect((await login(victim.email, PASSWORD, freshIp())).status).toBe(429);
  });
});

describe('re-authentication limits (profile e-mail and password changes)', () => {
  it('wrong current passwords are throttled per user and count as failed logins of the account', { timeout: 60_000 }, async () => {
    const user = await createUser('manager');
    const device = await deviceTokenFor(user.email);
    const change = (currentPassword: string) =>
      send(`/api/user/update/password/${user.id}`, { newPassword: 'taken-over', currentPassword }, freshIp(), { method: 'PUT', token: user.token });
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => change(`guess-${i}`)));
    expect(statuses(answers)).toEqual({ 400: LIMITS.reauthFailuresPerUser.limit, 429: 25 - LIMITS.reauthFailuresPerUser.limit });
    expect(answers.find((a) => a.status === 400)?.body?.message).toBe('Current password is wrong');
    const blocked = await change(PASSWORD);
    expect([blocked.status, blocked.body?.message]).toEqual([429, 'Too many wrong passwords, please try again later']);
    // the ten wrong passwords filled the account's untrusted-login bucket; the owner's device still logs in
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(429);
    expect((await login(user.email, PASSWORD, freshIp(), device)).status).toBe(200);
    const row = await user.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(await verifyPassword('taken-over', row[0]!.hash, testEnv.PASSWORD_PEPPER!)).toBe(false);
  });
});

describe('mail and registration limits', () => {
  it('sends at most the limit of reset e-mails per address, then 429 without sending', async () => {
    const user = await createUser('manager');
    for (let i = 0; i < LIMITS.mailPerAddress.limit; i++) {
      expect((await send('/api/auth/sendPasswordHash', { email: user.email }, freshIp())).status).toBe(200);
    }
    const sentBefore = (await outbox()).filter((m) => m.to === user.email).length;
    const refused = await send('/api/auth/sendPasswordHash', { email: user.email }, freshIp());
    expect(refused.status).toBe(429);
    expect(refused.body?.message).toBe('Too many e-mails requested, please try again later');
    expect((await outbox()).filter((m) => m.to === user.email).length).toBe(sentBefore);
  });

  it('limits registrations per address and creates nobody past the limit', async () => {
    const ip = freshIp();
    const register = (i: number) =>
      send(
        '/api/auth/register',
        { name: `Reg ${i}`, email: `reg-${ip}-${i}@limits.example`, password: 'secret1', repeatPassword: 'secret1', country: 'AM', phone: '+37491234567' },
        ip,
      );
    for (let i = 0; i < LIMITS.registerPerIp.limit; i++) expect((await register(i)).status).toBe(200);
    const before = await countRows('users');
    const refused = await register(999);
    expect(refused.status).toBe(429);
    expect(refused.body?.message).toMatch(/too many/i);
    expect(await countRows('users')).toBe(before);
  });
});
