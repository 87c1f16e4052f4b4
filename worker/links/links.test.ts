import { describe, expect, it } from 'vitest';
import { call, countRows, createTeam, createUser, db, testEnv } from '../test/helpers';
import { links } from '../db/schema';
import { eq } from 'drizzle-orm';

const nav = { 'sec-fetch-mode': 'navigate', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130' };
const codeOf = (to: string) => new URL(to).pathname.split('/').pop()!;

async function clicksSettled(id: string, token: string, want: number) {
  let clicks = -1;
  for (let i = 0; i < 100 && clicks !== want; i++) {
    clicks = (await call('GET', `/api/link/${id}`, { token })).body.clicks;
    if (clicks !== want) await new Promise((r) => setTimeout(r, 50));
  }
  return clicks;
}

describe('POST /api/link/generate and the redirect', () => {
  it('creates a short link and redirects to it with 302 and no caching', async () => {
    const manager = await createUser('manager');
    const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/some/long/path?q=1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: 'https://example.com/some/long/path?q=1', clicks: 0 });
    expect(res.body.to).toMatch(new RegExp(`^${testEnv.PUBLIC_URL}/s/[A-Za-z0-9]{7}$`));
    expect(typeof res.body._id).toBe('string');
    const hop = await call('GET', `/s/${codeOf(res.body.to)}`, { headers: nav });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe('https://example.com/some/long/path?q=1');
    expect(hop.headers.get('cache-control')).toContain('no-store');
    expect(await clicksSettled(res.body._id, manager.token, 1)).toBe(1);
  });

  it('answers an unknown code with a 404 page', async () => {
    const res = await call('GET', '/s/nope123', { headers: nav });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('Link not found');
  });

  it.each([
    ['', 'Enter a link'],
    ['javascript:alert(1)', 'Enter a link starting with http:// or https://'],
    ['data:text/html,<script>alert(1)</script>', 'Enter a link starting with http:// or https://'],
    ['ftp://example.com/file', 'Enter a link starting with http:// or https://'],
    ['example.com', 'Enter a link starting with http:// or https://'],
    ['https://user:secret@example.com/', 'Links with a user name or password are not allowed'],
    [`https://example.com/${'a'.repeat(2100)}`, 'This link is too long (2048 characters at most)'],
    [`${testEnv.PUBLIC_URL}/s/abcdefg`, 'Links to our own short links are not allowed'],
    ['http://localhost/s/abcdefg', 'Links to our own short links are not allowed'],
  ])('refuses bad link #%#', async (from, message) => {
    const manager = await createUser('manager');
    const before = await countRows('links');
    const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await countRows('links')).toBe(before);
  });

  it('takes an optional alias, refusing a taken or malformed one', async () => {
    const manager = await createUser('manager');
    const alias = `team-${Date.now().toString(36)}`;
    const ok = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/a', alias } });
    expect(ok.body.to.endsWith(`/s/${alias}`)).toBe(true);
    const taken = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/b', alias } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This alias is already taken');
    expect((await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/b', alias: 'a b' } })).body.message).toBe('An alias is 3 to 32 letters, digits, - or _');
  });
});

describe('ownership', () => {
  it('lists and shows only the caller\'s links; the admin may see all', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const admin = await createUser('admin');
    const mine = await call('POST', '/api/link/generate', { token: a.manager.token, body: { from: 'https://a.example/' } });
    await call('POST', '/api/link/generate', { token: b.manager.token, body: { from: 'https://b.example/' } });
    const list = await call('GET', '/api/link', { token: a.manager.token });
    expect(list.body.map((l: any) => l.from)).toEqual(['https://a.example/']);
    expect((await call('GET', `/api/link/${mine.body._id}`, { token: b.manager.token })).status).toBe(404);
    expect((await call('PUT', `/api/link/${mine.body._id}`, { token: b.manager.token, body: { isDisabled: true } })).status).toBe(404);
    expect((await call('GET', `/api/link/${mine.body._id}`, { token: admin.token })).status).toBe(200);
    const all = await call('GET', '/api/link?all=1', { token: admin.token });
    expect(all.body.map((l: any) => l._id)).toContain(mine.body._id);
    expect((await call('GET', '/api/link', { token: a.agents[0].token })).status).toBe(403);
  });

  it('a disabled link stops redirecting and can be enabled again', async () => {
    const manager = await createUser('manager');
    const link = (await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/off' } })).body;
    expect((await call('GET', `/s/${link.code}`, { headers: nav })).status).toBe(302);
    expect((await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { isDisabled: true } })).body.isDisabled).toBe(true);
    const off = await call('GET', `/s/${link.code}`, { headers: nav });
    expect(off.status).toBe(410);
    await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { isDisabled: false } });
    expect((await call('GET', `/s/${link.code}`, { headers: nav })).status).toBe(302);
  });
});

describe('exact clicks', () => {
  it('counts 500 simultaneous redirects exactly, with people and bots apart', async () => {
    const manager = await createUser('manager');
    const link = (await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/busy' } })).body;
    const N = 500;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        call('GET', `/s/${link.code}`, {
          headers: i % 10 === 0 ? { 'user-agent': 'Googlebot/2.1' } : { ...nav, referer: i % 2 ? 'https://mail.example.com/inbox' : '' },
        }),
      ),
    );
    expect(answers.every((a) => a.status === 302)).toBe(true);
    expect(await clicksSettled(link._id, manager.token, N)).toBe(N);
    const [row] = await db.select().from(links).where(eq(links.id, link._id));
    expect(row!.clicks).toBe(N);
    const detail = (await call('GET', `/api/link/${link._id}`, { token: manager.token })).body;
    expect(detail.stats.bots).toBe(50);
    const today = detail.stats.daily.at(-1);
    expect(today.people + today.bots).toBe(N);
    expect(detail.stats.referrers.find((r: any) => r.value === 'mail.example.com').count).toBe(250);
    expect(detail.stats.devices.find((r: any) => r.value === 'bot').count).toBe(50);
  });
});
