import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkClickStats, links } from '../db/schema';
import { LIMITS } from '../lib/rate-limit';
import { fetchWorker } from '../test/dispatch';
import { call, countRows, createTeam, createUser, db, type TestUser, testEnv } from '../test/helpers';
import { describeVisit } from './clicks';
import { checkTarget, LINK_MESSAGES } from './links.schema';
import { kvKey, ownHosts } from './links.service';

const nav = { 'sec-fetch-mode': 'navigate', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130' };

/** Polls the detail until the click count reaches `want` (the flush runs after the redirect answered). */
async function clicksSettled(id: string, token: string, want: number, tries = 100) {
  let clicks = -1;
  for (let i = 0; i < tries && clicks !== want; i++) {
    clicks = (await call('GET', `/api/link/${id}`, { token })).body.clicks;
    if (clicks !== want) await new Promise((r) => setTimeout(r, 50));
  }
  return clicks;
}

async function newLink(owner: TestUser, from = 'https://example.com/some/long/path?q=1', alias?: string) {
  const res = await call('POST', '/api/link/generate', { token: owner.token, body: { from, alias } });
  expect(res.status).toBe(200);
  return res.body as { _id: string; from: string; to: string; code: string; clicks: number; date: string; isDisabled: boolean };
}

describe('POST /api/link/generate', () => {
  it('creates a link with a random 7-character code, kept in D1 and KV', async () => {
    const manager = await createUser('manager');
    const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from: '  https://Example.com/some/long/path?q=1  ' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: 'https://example.com/some/long/path?q=1', clicks: 0, isDisabled: false });
    expect(res.body.to).toMatch(new RegExp(`^${testEnv.PUBLIC_URL}/s/[A-Za-z0-9]{7}$`));
    expect(res.body.to).toBe(`${testEnv.PUBLIC_URL}/s/${res.body.code}`);
    expect(new Date(res.body.date).toISOString()).toBe(res.body.date);
    const [row] = await manager.db.select().from(links).where(eq(links.id, res.body._id));
    expect(row).toMatchObject({ userId: manager.id, code: res.body.code, from: res.body.from, clicks: 0 });
    expect(await testEnv.LINKS_KV.get(kvKey(res.body.code), 'json')).toEqual({
      id: res.body._id,
      from: res.body.from,
      disabled: false,
      expiresAt: null,
      maxClicks: null,
      co: manager.companyId,
    });
  });

  it('draws a different code every time', async () => {
    const manager = await createUser('manager');
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) codes.add((await newLink(manager, `https://example.com/${i}`)).code);
    expect(codes.size).toBe(20);
  });

  it.each([
    ['', 'Enter a link'],
    ['   ', 'Enter a link'],
    ['javascript:alert(1)', 'Enter a link starting with http:// or https://'],
    ['JavaScript://example.com/%0Aalert(1)', 'Enter a link starting with http:// or https://'],
    ['data:text/html,<script>alert(1)</script>', 'Enter a link starting with http:// or https://'],
    ['ftp://example.com/file', 'Enter a link starting with http:// or https://'],
    ['file:///etc/passwd', 'Enter a link starting with http:// or https://'],
    ['mailto:someone@example.com', 'Enter a link starting with http:// or https://'],
    ['example.com', 'Enter a link starting with http:// or https://'],
    ['https://', 'This is not a valid link'],
    ['https://exa mple.com/', 'This is not a valid link'],
    ['https://user:secret@example.com/', 'Links with a user name or password are not allowed'],
    ['https://user@example.com/', 'Links with a user name or password are not allowed'],
    [`https://example.com/${'a'.repeat(2100)}`, 'This link is too long (2048 characters at most)'],
  ])('refuses %#: %s', async (from, message) => {
    const manager = await createUser('manager');
    const before = await countRows('links');
    const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await countRows('links')).toBe(before);
  });

  it('accepts a link of exactly 2048 characters', async () => {
    const manager = await createUser('manager');
    const long = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(long.length).toBe(2048);
    expect((await newLink(manager, long)).from).toBe(long);
  });

  // PUBLIC_URL is http://localhost:8787 and ENVIRONMENT development here: each is our own host
  it.each([
    `${testEnv.PUBLIC_URL}/s/abcdefg`,
    // the loops of the hostile review: each path reaches /s/X again
    'http://localhost:8787/%73/X',
    'http://localhost:8787//s/X',
    'http://localhost:8787/s%2fX',
    'http://localhost:8787/s%2FX',
    'http://localhost:8787/%2fs/X',
    // any path, any port or none, either scheme
    'http://localhost:8787/links',
    'http://localhost:8787/',
    'http://localhost/s/X',
    'https://localhost/s/X',
    'http://localhost:80/s/X',
    'http://localhost:9999/',
    // spellings of the name
    'HTTP://LOCALHOST/s/X',
    'http://LocalHost:8787/s/X',
    'http://localhost./s/X',
    'http://localhost.:8787/s/X',
    'http://%6C%6F%63%61%6C%68%6F%73%74/s/X',
    'http://ｌｏｃａｌｈｏｓｔ/s/X',
    'http://app.localhost/s/X',
    // loopback addresses in every spelling the URL parser accepts
    'http://127.0.0.1:8787/s/X',
    'http://127.0.0.1./s/X',
    'http://127.1/s/X',
    'http://127.0.1/s/X',
    'http://127.255.255.254/s/X',
    'http://2130706433/s/X',
    'http://0x7f000001/s/X',
    'http://0x7f.1/s/X',
    'http://0x7F.0x0.0x0.0x1/s/X',
    'http://0177.0.0.1/s/X',
    'http://0177.1/s/X',
    'http://017700000001/s/X',
    'http://0.0.0.0:8787/s/X',
    'http://0/s/X',
    'http://[::1]:8787/s/X',
    'http://[0:0:0:0:0:0:0:1]/s/X',
    'http://[::ffff:127.0.0.1]/s/X',
    'http://[::ffff:7f00:1]/s/X',
    'http://[::127.0.0.1]/s/X',
    'http://[::]/s/X',
  ])('refuses a link to our own host: %s', async (from) => {
    const manager = await createUser('manager');
    const before = await countRows('links');
    const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from, alias: `own-${Math.random().toString(36).slice(2, 9)}` } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Links to this site are not allowed: a short link must lead somewhere else');
    expect(await countRows('links')).toBe(before);
  });

  it('refuses a link to the host the request came to, in any spelling', async () => {
    const manager = await createUser('manager');
    const before = await countRows('links');
    for (const from of ['https://Mirror.Example./s/X', 'http://mirror.example:8080/%73/X', 'https://MIRROR.example/anything']) {
      const res = await fetchWorker('https://mirror.example/api/link/generate', {
        method: 'POST',
        headers: { authorization: `Bearer ${manager.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from }),
      });
      expect(res.status, from).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(LINK_MESSAGES.ownSite.text);
    }
    expect(await countRows('links')).toBe(before);
  });

  it('still accepts other hosts whose names merely look like ours', async () => {
    const manager = await createUser('manager');
    for (const from of ['https://example.com/s/abcdefg', 'http://localhost.example.com/s/X', 'http://127.0.0.1.example.com/', 'https://mylocalhost.example/']) {
      expect((await newLink(manager, from)).from).toBe(new URL(from).toString());
    }
  });

  it('refuses a body without a string `from`', async () => {
    const manager = await createUser('manager');
    const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid input (from)');
    expect((await call('POST', '/api/link/generate', { token: manager.token, body: {} })).body.message).toBe('Enter a link');
    expect((await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'x'.repeat(5000) } })).body.message).toBe(
      'This link is too long (2048 characters at most)',
    );
    const alias = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/', alias: 'a'.repeat(100) } });
    expect(alias.body.message).toBe('An alias is 3 to 32 letters, digits, - or _');
    const notJson = await call('POST', '/api/link/generate', { token: manager.token, rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });

  it('takes an optional alias, refusing a taken or malformed one', async () => {
    const manager = await createUser('manager');
    const other = await createUser('manager');
    const alias = `team-${Date.now().toString(36)}`;
    const ok = await newLink(manager, 'https://example.com/a', alias);
    expect(ok.to).toBe(`${testEnv.PUBLIC_URL}/s/${alias}`);
    const before = await countRows('links');
    const taken = await call('POST', '/api/link/generate', { token: other.token, body: { from: 'https://example.com/b', alias } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This alias is already taken');
    for (const bad of ['a b', 'ab', 'x'.repeat(33), 'emoji😀', '../x']) {
      const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/b', alias: bad } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('An alias is 3 to 32 letters, digits, - or _');
    }
    expect(await countRows('links')).toBe(before);
    const hop = await call('GET', `/s/${alias}`, { headers: nav });
    expect(hop.headers.get('location')).toBe('https://example.com/a');
  });

  it('limits how many links one user creates', async () => {
    const manager = await createUser('manager');
    const other = await createUser('manager');
    const mutableEnv = env as unknown as { DISABLE_RATE_LIMITS?: string };
    const saved = mutableEnv.DISABLE_RATE_LIMITS;
    mutableEnv.DISABLE_RATE_LIMITS = 'false';
    try {
      const { limit } = LIMITS.linkCreatePerUser;
      for (let i = 0; i < limit; i++) await newLink(manager, `https://example.com/${i}`);
      const before = await countRows('links');
      const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/one-more' } });
      expect(res.status).toBe(429);
      expect(res.body.message).toBe('You are creating links too fast, please try again later');
      expect(await countRows('links')).toBe(before);
      // per user: another user is not affected
      expect((await call('POST', '/api/link/generate', { token: other.token, body: { from: 'https://example.com/x' } })).status).toBe(200);
    } finally {
      mutableEnv.DISABLE_RATE_LIMITS = saved;
    }
  });
});

describe('own hosts in production (checkTarget with the deployed settings)', () => {
  const production = {
    ...testEnv,
    ENVIRONMENT: 'production',
    PUBLIC_URL: 'https://FreightDesk.example',
    OWN_HOSTS: 'freight-broker-suite.acme.workers.dev, www.freightdesk.example',
  };
  const own = ownHosts(production, 'https://freightdesk.example/api/link/generate');
  const refused = (from: string) => checkTarget(from, own);

  it.each([
    'https://freightdesk.example/s/X',
    'HTTPS://FREIGHTDESK.EXAMPLE/%73/X',
    'https://freightdesk.example./s/X',
    'https://freightdesk.example:443/s/X',
    'http://freightdesk.example/s/X',
    'http://freightdesk.example:80/',
    'https://freightdesk.example:8443/links',
    'https://%66reightdesk.example/s/X',
    'https://ｆｒｅｉｇｈｔｄｅｓｋ.example/s/X',
    'https://freight-broker-suite.acme.workers.dev/s/X',
    'https://Freight-Broker-Suite.ACME.workers.dev./',
    'https://www.freightdesk.example/s%2fX',
  ])('refuses %s', (from) => {
    expect(refused(from)).toEqual({ error: LINK_MESSAGES.ownSite });
  });

  it('compares international names in their punycode form, both ways', () => {
    const idn = ownHosts({ ...production, PUBLIC_URL: 'https://bücher.example', OWN_HOSTS: 'xn--frchte-4ya.example' });
    for (const from of [
      'https://BÜCHER.example/s/X',
      'https://xn--bcher-kva.example/s/X',
      'https://bücher.example./',
      'https://früchte.example/',
      'https://FRÜCHTE.example/s/X',
    ]) {
      expect(checkTarget(from, idn), from).toEqual({ error: LINK_MESSAGES.ownSite });
    }
    expect(checkTarget('https://buecher.example/', idn)).toEqual({ url: 'https://buecher.example/' });
  });

  it("in production, loopback names are nobody's in particular: not refused as ours", () => {
    for (const from of ['http://localhost:3000/', 'http://127.0.0.1/', 'https://sub.freightdesk.example/', 'https://freightdesk.example.com/']) {
      expect(refused(from), from).toEqual({ url: new URL(from).toString() });
    }
    // unless the product itself is served from one (PUBLIC_URL on localhost)
    const local = ownHosts({ ...production, PUBLIC_URL: 'http://localhost:8787', OWN_HOSTS: '' });
    for (const from of ['http://127.1/s/X', 'http://[::1]/s/X', 'http://2130706433/s/X'])
      expect(checkTarget(from, local), from).toEqual({ error: LINK_MESSAGES.ownSite });
  });
});

describe('GET /s/{code}', () => {
  it('answers 302 to the target with no cache headers, as a browser navigation', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager);
    const hop = await call('GET', `/s/${link.code}`, { headers: nav });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe('https://example.com/some/long/path?q=1');
    // nothing that would let a browser or proxy store the redirect and skip the count
    for (const name of ['cache-control', 'expires', 'pragma', 'etag', 'last-modified']) expect(hop.headers.get(name), name).toBeNull();
    expect(hop.text).toBe('');
    expect(await clicksSettled(link._id, manager.token, 1)).toBe(1);
  });

  it('answers unknown, malformed and missing codes with a small 404 page', async () => {
    for (const path of ['/s/nope123', `/s/${'a'.repeat(40)}`, '/s/%3Cscript%3E', '/s/', '/s/abc/def']) {
      const res = await call('GET', path, { headers: nav });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.text).toContain('Link not found');
      expect(res.text).not.toContain('<script');
    }
  });

  it('falls back to D1 when KV has not got the code, and fills KV again', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/kv-miss');
    await testEnv.LINKS_KV.delete(kvKey(link.code));
    const hop = await call('GET', `/s/${link.code}`, { headers: nav });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe('https://example.com/kv-miss');
    await expect
      .poll(() => testEnv.LINKS_KV.get(kvKey(link.code), 'json'))
      .toEqual({ id: link._id, from: link.from, disabled: false, expiresAt: null, maxClicks: null, co: manager.companyId });
    expect(await clicksSettled(link._id, manager.token, 1)).toBe(1);
  });

  it('a disabled link answers 410 and counts nothing; enabled again it redirects', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/off');
    expect((await call('GET', `/s/${link.code}`, { headers: nav })).status).toBe(302);
    const off = await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { isDisabled: true } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ _id: link._id, isDisabled: true });
    expect((await manager.db.select().from(links).where(eq(links.id, link._id)))[0]!.isDisabled).toBe(true);
    const page = await call('GET', `/s/${link.code}`, { headers: nav });
    expect(page.status).toBe(410);
    expect(page.text).toContain('Link disabled');
    expect(page.headers.get('location')).toBeNull();
    expect(await clicksSettled(link._id, manager.token, 1)).toBe(1);
    await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { isDisabled: false } });
    expect((await call('GET', `/s/${link.code}`, { headers: nav })).status).toBe(302);
    expect(await clicksSettled(link._id, manager.token, 2)).toBe(2);
  });

  it('a link saved before its target was refused (one of our own hosts) answers 410 and counts nothing', async () => {
    const manager = await createUser('manager');
    const code = `loop${Math.random().toString(36).slice(2, 8)}`;
    const id = `legacy-${code}`;
    // as the hostile review left it: /s/X -> /%73/X -> /s/X ...
    await db.insert(links).values({ id, userId: manager.id, code, from: `http://localhost:8787/%73/${code}`, date: new Date() });
    const page = await call('GET', `/s/${code}`, { headers: nav });
    expect(page.status).toBe(410);
    expect(page.text).toContain('Link stopped');
    expect(page.headers.get('location')).toBeNull();
    expect(await call('GET', `/%73/${code}`, { headers: nav }).then((r) => r.status)).not.toBe(302);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await db.select().from(links).where(eq(links.id, id)))[0]!.clicks).toBe(0);
  });

  it('a link whose target is the very host the visit came to (not configured as ours) does not redirect to itself', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://mirror-two.example/s/abcdefg');
    const loop = await fetchWorker(`https://mirror-two.example/s/${link.code}`, { redirect: 'manual', headers: nav });
    expect(loop.status).toBe(410);
    expect(await loop.text()).toContain('Link stopped');
    // through our own host it still redirects
    expect((await call('GET', `/s/${link.code}`, { headers: nav })).headers.get('location')).toBe('https://mirror-two.example/s/abcdefg');
  });

  it('PUT refuses a body without a boolean isDisabled', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager);
    const res = await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { isDisabled: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('isDisabled must be true or false');
  });
});

describe('who may call /api/link', () => {
  it("lists and shows only the caller's links, oldest first, numbered by the screen", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const first = await newLink(a.manager, 'https://a.example/1');
    const second = await newLink(a.manager, 'https://a.example/2');
    const theirs = await newLink(b.manager, 'https://b.example/');
    const list = await call('GET', '/api/link', { token: a.manager.token });
    expect(list.status).toBe(200);
    expect(list.body.map((l: { _id: string }) => l._id)).toEqual([first._id, second._id]);
    expect(list.body[0]).toMatchObject({ _id: first._id, from: first.from, to: first.to, clicks: 0, date: first.date });
    // another user's link answers 404 and changes nothing
    expect((await call('GET', `/api/link/${theirs._id}`, { token: a.manager.token })).status).toBe(404);
    const put = await call('PUT', `/api/link/${theirs._id}`, { token: a.manager.token, body: { isDisabled: true } });
    expect(put.status).toBe(404);
    expect(put.body.message).toBe('Link not found');
    expect((await b.manager.db.select().from(links).where(eq(links.id, theirs._id)))[0]!.isDisabled).toBe(false);
    expect((await call('GET', '/api/link/nope', { token: a.manager.token })).status).toBe(404);
    // ?all=1 means nothing for a manager
    expect((await call('GET', '/api/link?all=1', { token: a.manager.token })).body).toHaveLength(2);
  });

  it("the admin has its own list, every user's links with ?all=1, and reaches any link", async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const theirs = await newLink(manager, 'https://m.example/');
    const own = await newLink(admin, 'https://admin.example/');
    expect((await call('GET', '/api/link', { token: admin.token })).body.map((l: { _id: string }) => l._id)).toEqual([own._id]);
    const all = (await call('GET', '/api/link?all=1', { token: admin.token })).body as { _id: string; owner: unknown }[];
    expect(all.find((l) => l._id === theirs._id)?.owner).toEqual({ _id: manager.id, name: manager.name, email: manager.email });
    expect(all.map((l) => l._id)).toContain(own._id);
    const detail = await call('GET', `/api/link/${theirs._id}`, { token: admin.token });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ _id: theirs._id, from: 'https://m.example/', to: theirs.to, clicks: 0, date: theirs.date });
    expect(detail.body.stats.daily).toHaveLength(30);
    expect((await call('PUT', `/api/link/${theirs._id}`, { token: admin.token, body: { isDisabled: true } })).body.isDisabled).toBe(true);
  });

  it('agents, directors and marketing get 403; no token 401; an expired manager 403', async () => {
    const team = await createTeam();
    const marketing = await createUser('marketing');
    const expired = await createUser('manager', { subscriptionDays: -1 });
    const link = await newLink(team.manager);
    const calls = [
      ['GET', '/api/link'],
      ['POST', '/api/link/generate'],
      ['GET', `/api/link/${link._id}`],
      ['PUT', `/api/link/${link._id}`],
    ] as const;
    const before = await countRows('links');
    for (const [method, path] of calls) {
      const body = method === 'POST' ? { from: 'https://example.com/' } : method === 'PUT' ? { isDisabled: true } : undefined;
      for (const who of [team.agents[0], team.director, marketing]) {
        const res = await call(method, path, { token: who.token, body });
        expect(res.status, `${who.userType} ${method} ${path}`).toBe(403);
        expect(res.body.message).toBe('You are not allowed to do this');
      }
      const late = await call(method, path, { token: expired.token, body });
      expect(late.status).toBe(403);
      expect(late.body.message).toBe('Your subscription is not active');
      expect((await call(method, path, { body })).status).toBe(401);
    }
    expect(await countRows('links')).toBe(before);
    expect((await team.manager.db.select().from(links).where(eq(links.id, link._id)))[0]!.isDisabled).toBe(false);
  });
});

describe('click analytics', () => {
  it('splits people from bots and breaks people down by referrer, country and device', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/stats');
    const visits: Record<string, string>[] = [
      { ...nav, referer: 'https://mail.example.com/inbox?id=1' },
      { ...nav, referer: 'https://mail.example.com/other' },
      { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' },
      { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      {},
    ];
    for (const headers of visits) expect((await call('GET', `/s/${link.code}`, { headers })).status).toBe(302);
    expect(await clicksSettled(link._id, manager.token, 5)).toBe(5);
    const { stats } = (await call('GET', `/api/link/${link._id}`, { token: manager.token })).body;
    expect(stats.bots).toBe(2);
    expect(stats.daily.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), people: 3, bots: 2 });
    expect(stats.referrers).toEqual([
      { value: 'mail.example.com', count: 2 },
      { value: 'direct', count: 1 },
    ]);
    expect(stats.countries.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(3);
    expect(stats.devices).toEqual(
      expect.arrayContaining([
        { value: 'desktop', count: 2 },
        { value: 'mobile', count: 1 },
        { value: 'bot', count: 2 },
      ]),
    );
    const rows = await manager.db.select().from(linkClickStats).where(eq(linkClickStats.linkId, link._id));
    expect(rows.filter((r) => r.dimension === 'kind').reduce((n, r) => n + r.count, 0)).toBe(5);
  });

  it('describes a visit from its headers and cf data', () => {
    const req = (headers: Record<string, string>, cf?: object) => new Request('https://x/s/a', { headers, cf } as RequestInit);
    expect(describeVisit(req({ 'user-agent': 'Mozilla/5.0 (iPad; CPU OS 17_0) Tablet' }, { country: 'AM' }))).toMatchObject({
      referrer: 'direct',
      country: 'AM',
      device: 'tablet',
      os: 'iOS',
      isBot: false,
    });
    expect(describeVisit(req({ 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile', referer: 'not a url' }))).toMatchObject({
      referrer: 'unknown',
      country: 'unknown',
      device: 'mobile',
      os: 'Android',
      isBot: false,
    });
    expect(describeVisit(req({ 'user-agent': 'curl/8.5.0' })).isBot).toBe(true);
    expect(describeVisit(req({ 'user-agent': 'Mozilla/5.0 Chrome/130' }, { botManagement: { verifiedBot: true } })).isBot).toBe(true);
    expect(describeVisit(req({})).device).toBe('bot');
  });

  it("takes the country from Cloudflare's CF-IPCountry header first, and from the cf object without it", () => {
    const req = (headers: Record<string, string>, cf?: object) => new Request('https://x/s/a', { headers, cf } as RequestInit);
    const browser = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36';
    expect(describeVisit(req({ 'user-agent': browser, 'cf-ipcountry': 'FR' }, { country: 'AM' })).country).toBe('FR');
    expect(describeVisit(req({ 'user-agent': browser }, { country: 'AM' })).country).toBe('AM');
    // a bot's country is not kept (bots are counted, not broken down)
    expect(describeVisit(req({ 'user-agent': 'curl/8.5.0', 'cf-ipcountry': 'FR' })).country).toBe('unknown');
  });
});
