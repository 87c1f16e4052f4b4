import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../app';
import type { Bindings } from '../env';
import { LIMITS } from '../lib/rate-limit';
import { countRows, createUser, outbox, PASSWORD, testEnv } from '../test/helpers';

/**
 * Abuse limits, with the limiter switched on (the rest of the suite runs with it off so it can
 * log in freely). Each test uses its own IP and e-mail so the Durable Object counters are fresh.
 */
const limitedEnv: Bindings = { ...testEnv, DISABLE_RATE_LIMITS: undefined };
let ipSeq = 0;
const freshIp = () => `10.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}.${Math.floor(Math.random() * 250)}`;

async function send(path: string, body: unknown, ip: string) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
      body: JSON.stringify(body),
    }),
    limitedEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json().catch(() => null)) as { message?: string } | null };
}

const login = (email: string, password: string, ip: string) => send('/api/auth/login', { email, password, clientType: 0 }, ip);

describe('login limits', () => {
  it('throttles failures per account, then refuses even the right password with 429', async () => {
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

  it('throttles failures per address across accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginFailuresPerIp.limit; i++) {
      // spread over many unknown e-mails so the per-account limit never trips
      expect((await login(`nobody-${i}@limits.example`, 'wrong-password', ip)).status).toBe(400);
    }
    const user = await createUser('manager');
    expect((await login(user.email, PASSWORD, ip)).status).toBe(429);
    // a different address still logs in
    expect((await login(user.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('never throttles good logins from one office address', async () => {
    const ip = freshIp();
    const user = await createUser('agent');
    const answers = await Promise.all(Array.from({ length: 150 }, () => login(user.email, PASSWORD, ip)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
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
