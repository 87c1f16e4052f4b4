import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, links } from '../db/schema';
import { randomId, sha256Hex } from '../lib/ids';
import { call, control, createUser } from '../test/helpers';
import { MAX_KEYS_PER_USER } from './keys.service';
import { LINK_MESSAGES } from './links.schema';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function newKey(token: string, name = 'Script', expiresAt: string | null = inDays(30)) {
  const res = await call('POST', '/api/link/keys', { token, body: { name, expiresAt } });
  expect(res.status, res.text).toBe(201);
  return res.body as { _id: string; key: string; prefix: string; name: string };
}

/** The key with its last character changed: a different key, whatever that character was. */
const mangled = (key: string) => `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;

describe('API keys', () => {
  it('creates a key shown once and stored only as its SHA-256; the list has no secret', async () => {
    const manager = await createUser('manager');
    const created = await newKey(manager.token, 'Zapier');
    expect(created.key).toMatch(/^fd_live_[A-Za-z0-9]{32}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    const [stored] = await control.select().from(apiKeys).where(eq(apiKeys.id, created._id));
    expect(stored).toMatchObject({ userId: manager.id, name: 'Zapier', hash: await sha256Hex(created.key), lastUsedAt: null });
    expect(JSON.stringify(stored)).not.toContain(created.key);
    const list = await call('GET', '/api/link/keys', { token: manager.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { _id: created._id, name: 'Zapier', prefix: created.prefix, createdAt: expect.any(String), expiresAt: expect.any(String), lastUsedAt: null },
    ]);
    expect(list.text).not.toContain(created.key);
  });

  it.each([
    [{ name: '' }, LINK_MESSAGES.keyName.text],
    [{ name: '   ' }, LINK_MESSAGES.keyName.text],
    [{ name: 'x'.repeat(61) }, LINK_MESSAGES.keyName.text],
    [{}, LINK_MESSAGES.keyName.text],
    [{ name: 'ok', expiresAt: '2001-01-01T00:00:00Z' }, LINK_MESSAGES.keyExpiresAt.text],
    [{ name: 'ok', expiresAt: inDays(800) }, LINK_MESSAGES.keyExpiresAt.text],
    [{ name: 'ok', expiresAt: 'soon' }, LINK_MESSAGES.keyExpiresAt.text],
  ])('refuses %j with 400 "%s" and stores nothing', async (body, message) => {
    const manager = await createUser('manager');
    const res = await call('POST', '/api/link/keys', { token: manager.token, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await control.select().from(apiKeys).where(eq(apiKeys.userId, manager.id))).toEqual([]);
  });

  it('a key authenticates the link calls as its owner: list, create, edit, export, delete', async () => {
    const manager = await createUser('manager');
    const { key } = await newKey(manager.token);
    const made = await call('POST', '/api/link/generate', { token: key, body: { from: 'https://example.com/from-a-script' } });
    expect(made.status).toBe(200);
    expect((await manager.db.select().from(links).where(eq(links.id, made.body._id)))[0]!.userId).toBe(manager.id);
    expect((await call('GET', '/api/link', { token: key })).body.map((l: { _id: string }) => l._id)).toEqual([made.body._id]);
    expect((await call('GET', `/api/link/${made.body._id}`, { token: key })).status).toBe(200);
    expect((await call('PUT', `/api/link/${made.body._id}`, { token: key, body: { maxClicks: 5 } })).body.maxClicks).toBe(5);
    expect((await call('GET', '/api/link/export.csv', { token: key })).status).toBe(200);
    expect((await call('DELETE', `/api/link/${made.body._id}`, { token: key })).status).toBe(200);
  });

  it('a key opens nothing else: other API calls and the keys themselves answer 401', async () => {
    const manager = await createUser('manager');
    const { key, _id } = await newKey(manager.token);
    for (const [method, path, body] of [
      ['GET', '/api/user'],
      ['GET', '/api/user/manager'],
      ['GET', '/api/payment/paymentHistory'],
      ['GET', '/api/link/keys'],
      ['POST', '/api/link/keys', { name: 'more' }],
      ['DELETE', `/api/link/keys/${_id}`],
    ] as const) {
      const res = await call(method, path, { token: key, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.message).toBe('Unauthorized');
    }
    expect(await control.select().from(apiKeys).where(eq(apiKeys.userId, manager.id))).toHaveLength(1);
  });

  it('revoked, expired, unknown and mangled keys answer 401', async () => {
    const manager = await createUser('manager');
    const revoked = await newKey(manager.token, 'old');
    const expired = await newKey(manager.token, 'expired');
    const kept = await newKey(manager.token, 'kept', null);
    expect((await call('GET', '/api/link', { token: revoked.key })).status).toBe(200);
    const res = await call('DELETE', `/api/link/keys/${revoked._id}`, { token: manager.token });
    expect(res.status).toBe(200);
    expect((await call('DELETE', `/api/link/keys/${revoked._id}`, { token: manager.token })).status).toBe(404);
    await control
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired._id));
    // a live key whose last character is the one a careless mangling writes (1 key in 62 at random):
    // its one-character change must be a different key all the same
    const endsInX = `fd_live_${randomId(31)}x`;
    await control.insert(apiKeys).values({
      id: randomId(),
      userId: manager.id,
      companyId: manager.companyId,
      name: 'ends in x',
      prefix: endsInX.slice(0, 12),
      hash: await sha256Hex(endsInX),
      createdAt: new Date(),
      expiresAt: null,
      lastUsedAt: null,
    });
    for (const token of [revoked.key, expired.key, mangled(kept.key), mangled(endsInX), 'fd_live_', `${kept.key} `.repeat(2)]) {
      const r = await call('GET', '/api/link', { token });
      expect(r.status, token).toBe(401);
    }
    expect((await call('GET', '/api/link', { token: kept.key })).status).toBe(200);
    expect((await call('GET', '/api/link', { token: endsInX })).status).toBe(200);
    expect((await call('GET', '/api/link/keys', { token: manager.token })).body.map((k: { name: string }) => k.name).sort()).toEqual([
      'ends in x',
      'expired',
      'kept',
    ]);
  });

  it('a key follows its owner: a role without links or an ended subscription is refused', async () => {
    const manager = await createUser('manager');
    const { key } = await newKey(manager.token);
    const { users } = await import('../db/schema');
    await manager.db
      .update(users)
      .set({ subscriptionEndDate: new Date(Date.now() - 86_400_000), isTrialPeriod: false })
      .where(eq(users.id, manager.id));
    const ended = await call('GET', '/api/link', { token: key });
    expect(ended.status).toBe(403);
    expect(ended.body.message).toBe('Your subscription is not active');
    const agent = await createUser('agent');
    const refused = await call('POST', '/api/link/keys', { token: agent.token, body: { name: 'x' } });
    expect(refused.status).toBe(403);
  });

  it("another user's key answers 404 to revoke and keeps working", async () => {
    const owner = await createUser('manager');
    const stranger = await createUser('manager');
    const { key, _id } = await newKey(owner.token);
    const res = await call('DELETE', `/api/link/keys/${_id}`, { token: stranger.token });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Key not found');
    expect((await call('GET', '/api/link/keys', { token: stranger.token })).body).toEqual([]);
    expect((await call('GET', '/api/link', { token: key })).status).toBe(200);
  });

  it('keeps the last-used time, moved at most once a minute (30 simultaneous calls, then a second and a minute later)', async () => {
    const manager = await createUser('manager');
    const { key, _id } = await newKey(manager.token);
    const lastUsed = async () => (await control.select().from(apiKeys).where(eq(apiKeys.id, _id)))[0]!.lastUsedAt;
    const before = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => call('GET', '/api/link', { token: key })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await expect.poll(lastUsed).not.toBeNull();
    const first = (await lastUsed())!.getTime();
    expect(first).toBeGreaterThanOrEqual(before - 5);
    // a minute ago: the next call moves it; a second ago: it stays
    await control
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, _id));
    const recent = (await lastUsed())!.getTime();
    await call('GET', '/api/link', { token: key });
    await new Promise((r) => setTimeout(r, 200));
    expect((await lastUsed())!.getTime()).toBe(recent);
    await control
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 61_000) })
      .where(eq(apiKeys.id, _id));
    await call('GET', '/api/link', { token: key });
    await expect.poll(async () => (await lastUsed())!.getTime()).toBeGreaterThan(Date.now() - 5000);
  });

  it(`at most ${MAX_KEYS_PER_USER} keys per user, also when 30 are created at once (3 rounds)`, { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const manager = await createUser('manager');
      for (let i = 0; i < 5 + round * 5; i++) await newKey(manager.token, `k${i}`);
      const already = 5 + round * 5;
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => call('POST', '/api/link/keys', { token: manager.token, body: { name: `c${i}` } })),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_KEYS_PER_USER - already);
      const refused = answers.filter((a) => a.status === 409);
      expect(refused).toHaveLength(30 - (MAX_KEYS_PER_USER - already));
      expect(refused.every((a) => a.body.message === LINK_MESSAGES.tooManyKeys.text)).toBe(true);
      expect(await control.select().from(apiKeys).where(eq(apiKeys.userId, manager.id))).toHaveLength(MAX_KEYS_PER_USER);
    }
  });
});
