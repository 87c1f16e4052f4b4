import { runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkClickStats, links } from '../db/schema';
import type { Db } from '../env';
import { fetchWorker } from '../test/dispatch';
import { call, createUser, type TestUser, testEnv } from '../test/helpers';
import { D1_WRITE_DELAY_MS } from './click-counter';
import { describeVisit } from './clicks';
import { toCsv } from './csv';
import { LINK_MESSAGES } from './links.schema';
import { CACHE_MS, cachedCode, kvKey } from './links.service';

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const nav = { 'sec-fetch-mode': 'navigate', 'user-agent': CHROME_WIN };

interface Link {
  _id: string;
  from: string;
  to: string;
  code: string;
  clicks: number;
  isDisabled: boolean;
  expiresAt: string | null;
  maxClicks: number | null;
  status: string;
}

/** Each link's owner's shard, where its row and statistics live (docs/decisions/0180-links-on-shards.md). */
const shardOf = new Map<string, Db>();

async function newLink(owner: TestUser, body: Record<string, unknown>): Promise<Link> {
  const res = await call('POST', '/api/link/generate', { token: owner.token, body });
  expect(res.status, res.text).toBe(200);
  shardOf.set(res.body._id, owner.db);
  return res.body;
}

const hop = (code: string, headers: Record<string, string> = nav, method = 'GET') =>
  fetchWorker(`http://localhost/s/${code}`, { method, headers, redirect: 'manual' }).then(async (r) => ({
    status: r.status,
    location: r.headers.get('location'),
    text: await r.text(),
  }));

const row = async (id: string) => (await shardOf.get(id)!.select().from(links).where(eq(links.id, id)))[0];
const clicksInD1 = async (id: string) => (await row(id))?.clicks ?? -1;

/** Polls D1 until the count reaches `want` (or time is up), then waits a flush more to see it stays. */
async function settledClicks(id: string, want: number, ms = 15_000) {
  const end = Date.now() + ms;
  while ((await clicksInD1(id)) !== want && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, D1_WRITE_DELAY_MS + 300));
  return clicksInD1(id);
}

/** Polls the link's stats until `ready` holds on them (the ClickCounter writes D1 about a second after the clicks). */
async function statsWhen(id: string, token: string, ready: (stats: any) => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  let stats: any;
  do {
    stats = (await call('GET', `/api/link/${id}`, { token })).body.stats;
    if (ready(stats)) return stats;
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < end);
  return stats;
}

describe('PUT /api/link/{id}: edit', () => {
  it('changes the target: the redirect follows at once in this isolate, and the cache window is CACHE_MS elsewhere', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, { from: 'https://example.com/old' });
    expect((await hop(link.code)).location).toBe('https://example.com/old');
    // the isolate cache now holds the old target; it expires CACHE_MS after it was loaded
    expect(cachedCode(link.code)?.from).toBe('https://example.com/old');
    expect(cachedCode(link.code, Date.now() + CACHE_MS + 1)).toBeUndefined();

    const res = await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { from: ' https://Example.org/new?x=1 ' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: link._id, from: 'https://example.org/new?x=1', code: link.code, status: 'active' });
    expect((await row(link._id))!.from).toBe('https://example.org/new?x=1');
    expect(await testEnv.LINKS_KV.get(kvKey(link.code), 'json')).toMatchObject({ id: link._id, from: 'https://example.org/new?x=1' });
    const after = await hop(link.code);
    expect(after.status).toBe(302);
    expect(after.location).toBe('https://example.org/new?x=1');
  });

  it.each([
    [{ from: 'javascript:alert(1)' }, 400, LINK_MESSAGES.scheme.text],
    [{ from: 'http://localhost:8787/s/abc' }, 400, LINK_MESSAGES.ownSite.text],
    [{ from: `${testEnv.PUBLIC_URL}/anything` }, 400, LINK_MESSAGES.ownSite.text],
    [{ from: 'https://user:pw@example.com/' }, 400, LINK_MESSAGES.credentials.text],
    [{ alias: 'a b' }, 400, LINK_MESSAGES.alias.text],
    [{ alias: 'x' }, 400, LINK_MESSAGES.alias.text],
    [{ expiresAt: '2001-01-01T00:00:00Z' }, 400, LINK_MESSAGES.expiresAt.text],
    [{ expiresAt: 'tomorrow' }, 400, LINK_MESSAGES.expiresAt.text],
    [{ maxClicks: 0 }, 400, LINK_MESSAGES.maxClicks.text],
    [{ maxClicks: 2.5 }, 400, LINK_MESSAGES.maxClicks.text],
    [{ maxClicks: '10' }, 400, LINK_MESSAGES.maxClicks.text],
  ])('refuses %j with %i "%s" and changes nothing', async (body, status, message) => {
    const manager = await createUser('manager');
    const link = await newLink(manager, { from: 'https://example.com/keep' });
    const before = await row(link._id);
    const kvBefore = await testEnv.LINKS_KV.get(kvKey(link.code));
    const res = await call('PUT', `/api/link/${link._id}`, { token: manager.token, body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    expect(await row(link._id)).toEqual(before);
    expect(await testEnv.LINKS_KV.get(kvKey(link.code))).toBe(kvBefore);
  });

  it('changes the alias: the new code redirects, the old one answers 404 and is free again; a taken alias is 409', async () => {
    const manager = await createUser('manager');
    const other = await createUser('manager');
    const suffix = link6();
    const link = await newLink(manager, { from: 'https://example.com/aliased', alias: `old-${suffix}` });
    await newLink(other, { from: 'https://example.com/theirs', alias: `taken-${suffix}` });
    expect((await hop(`old-${suffix}`)).status).toBe(302);

    const taken = await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { alias: `taken-${suffix}` } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(LINK_MESSAGES.aliasTaken.text);
    expect((await row(link._id))!.code).toBe(`old-${suffix}`);

    const res = await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { alias: `new-${suffix}` } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: `new-${suffix}`, to: `${testEnv.PUBLIC_URL}/s/new-${suffix}` });
    expect(await testEnv.LINKS_KV.get(kvKey(`old-${suffix}`))).toBeNull();
    expect((await hop(`old-${suffix}`)).status).toBe(404);
    const moved = await hop(`new-${suffix}`);
    expect(moved.status).toBe(302);
    expect(moved.location).toBe('https://example.com/aliased');
    // the old alias is anyone's again
    expect((await newLink(other, { from: 'https://example.com/reuse', alias: `old-${suffix}` })).code).toBe(`old-${suffix}`);
  });

  it('20 simultaneous edits of one link, 3 rounds: KV ends holding what D1 holds', { timeout: 60_000 }, async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, { from: 'https://example.com/start' });
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call('PUT', `/api/link/${link._id}`, {
            token: manager.token,
            body: i % 2 ? { from: `https://example.com/r${round}/t${i}` } : { maxClicks: 1000 + i, isDisabled: i % 4 === 0 },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const stored = (await row(link._id))!;
      expect(await testEnv.LINKS_KV.get(kvKey(link.code), 'json')).toEqual({
        id: link._id,
        from: stored.from,
        disabled: stored.isDisabled,
        expiresAt: null,
        maxClicks: stored.maxClicks,
        co: manager.companyId,
      });
    }
  });

  it("another user's link answers 404 to edit and delete, and nothing changes", async () => {
    const owner = await createUser('manager');
    const stranger = await createUser('manager');
    const link = await newLink(owner, { from: 'https://example.com/mine' });
    const before = await row(link._id);
    for (const [method, body] of [
      ['PUT', { from: 'https://evil.example/' }],
      ['PUT', { alias: `steal-${link6()}` }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/api/link/${link._id}`, { token: stranger.token, body });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Link not found');
    }
    expect((await call('GET', `/api/link/${link._id}/clicks.csv`, { token: stranger.token })).status).toBe(404);
    expect(await row(link._id)).toEqual(before);
    expect((await hop(link.code)).location).toBe('https://example.com/mine');
  });
});

describe('DELETE /api/link/{id}', () => {
  it('removes the link and its stats: the code answers 404, the alias is free, late clicks add nothing', { timeout: 30_000 }, async () => {
    const manager = await createUser('manager');
    const alias = `gone-${link6()}`;
    const link = await newLink(manager, { from: 'https://example.com/gone', alias });
    for (let i = 0; i < 3; i++) expect((await hop(alias)).status).toBe(302);
    expect(await settledClicks(link._id, 3)).toBe(3);
    expect((await manager.db.select().from(linkClickStats).where(eq(linkClickStats.linkId, link._id))).length).toBeGreaterThan(0);

    // a click still in flight when the link is deleted
    const late = hop(alias);
    const res = await call('DELETE', `/api/link/${link._id}`, { token: manager.token });
    expect(res.status).toBe(200);
    await late;
    expect(await row(link._id)).toBeUndefined();
    expect(await testEnv.LINKS_KV.get(kvKey(alias))).toBeNull();
    const page = await hop(alias);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Link not found');
    expect((await call('GET', `/api/link/${link._id}`, { token: manager.token })).status).toBe(404);
    expect((await call('DELETE', `/api/link/${link._id}`, { token: manager.token })).status).toBe(404);
    expect((await call('GET', '/api/link', { token: manager.token })).body).toEqual([]);
    await new Promise((r) => setTimeout(r, D1_WRITE_DELAY_MS + 500));
    expect(await manager.db.select().from(linkClickStats).where(eq(linkClickStats.linkId, link._id))).toEqual([]);

    const again = await newLink(manager, { from: 'https://example.com/new-owner', alias });
    expect((await hop(alias)).location).toBe('https://example.com/new-owner');
    expect(again._id).not.toBe(link._id);
  });
});

describe('expiry', () => {
  it('by date: 302 before, 410 "Link expired" after, and nothing counted after', { timeout: 30_000 }, async () => {
    const manager = await createUser('manager');
    const past = await call('POST', '/api/link/generate', {
      token: manager.token,
      body: { from: 'https://example.com/x', expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(LINK_MESSAGES.expiresAt.text);

    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const link = await newLink(manager, { from: 'https://example.com/soon', expiresAt });
    expect(link).toMatchObject({ expiresAt, status: 'active' });
    expect((await hop(link.code)).status).toBe(302);
    await new Promise((r) => setTimeout(r, 1600));
    for (let i = 0; i < 3; i++) {
      const page = await hop(link.code);
      expect(page.status).toBe(410);
      expect(page.text).toContain('Link expired');
    }
    expect(await settledClicks(link._id, 1)).toBe(1);
    expect((await call('GET', `/api/link/${link._id}`, { token: manager.token })).body.status).toBe('expired');

    // removing the expiry brings it back
    const revived = await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { expiresAt: null } });
    expect(revived.body).toMatchObject({ expiresAt: null, status: 'active' });
    expect((await hop(link.code)).status).toBe(302);
  });

  it('by clicks: 3 rounds of 20-50 simultaneous redirects around the limit serve exactly the limit', { timeout: 120_000 }, async () => {
    const manager = await createUser('manager');
    for (const [limit, visits] of [
      [10, 20],
      [25, 50],
      [33, 40],
    ] as const) {
      const link = await newLink(manager, { from: `https://example.com/limit-${limit}`, maxClicks: limit });
      const answers = await Promise.all(Array.from({ length: visits }, () => hop(link.code)));
      expect(answers.filter((a) => a.status === 302).length, `limit ${limit}`).toBe(limit);
      expect(answers.filter((a) => a.status === 410).length).toBe(visits - limit);
      expect(answers.filter((a) => a.status === 410).every((a) => a.text.includes('Link expired'))).toBe(true);
      expect(await settledClicks(link._id, limit)).toBe(limit);
      expect((await call('GET', `/api/link/${link._id}`, { token: manager.token })).body.status).toBe('expired');
    }
  });

  it('a limit set on a link with clicks counts those clicks; raising it opens the link again', { timeout: 60_000 }, async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, { from: 'https://example.com/later-limit' });
    for (let i = 0; i < 5; i++) expect((await hop(link.code)).status).toBe(302);
    expect(await settledClicks(link._id, 5)).toBe(5);
    expect((await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { maxClicks: 8 } })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => hop(link.code)));
    expect(answers.filter((a) => a.status === 302).length).toBe(3);
    expect(await settledClicks(link._id, 8)).toBe(8);
    expect((await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { maxClicks: 10 } })).status).toBe(200);
    const more = await Promise.all(Array.from({ length: 20 }, () => hop(link.code)));
    expect(more.filter((a) => a.status === 302).length).toBe(2);
    expect(await settledClicks(link._id, 10)).toBe(10);
    // no limit: the fast path again
    expect((await call('PUT', `/api/link/${link._id}`, { token: manager.token, body: { maxClicks: null } })).body.maxClicks).toBeNull();
    expect((await hop(link.code)).status).toBe(302);
    expect(await settledClicks(link._id, 11)).toBe(11);
  });
});

describe('analytics', () => {
  it('HEAD requests and link-preview fetchers are bots', () => {
    const req = (ua: string, method = 'GET') => new Request('https://x/s/a', { method, headers: { 'user-agent': ua } });
    expect(describeVisit(req(CHROME_WIN)).isBot).toBe(false);
    expect(describeVisit(req(CHROME_WIN, 'HEAD'))).toMatchObject({ isBot: true, device: 'bot', visitor: '' });
    for (const ua of [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'WhatsApp/2.23.20.0',
      'TelegramBot (like TwitterBot)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'Twitterbot/1.0',
      'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5',
      'python-requests/2.31.0',
      'curl/8.5.0',
      '',
    ])
      expect(describeVisit(req(ua)).isBot, ua).toBe(true);
  });

  it('counts HEAD and preview fetches as bots, people by browser and OS, and unique visitors per day', { timeout: 60_000 }, async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, { from: 'https://example.com/analytics' });
    const visits: [Record<string, string>, string?][] = [
      [{ 'user-agent': CHROME_WIN, 'cf-connecting-ip': '203.0.113.7' }],
      [{ 'user-agent': CHROME_WIN, 'cf-connecting-ip': '203.0.113.7' }],
      [{ 'user-agent': CHROME_WIN, 'cf-connecting-ip': '203.0.113.7' }],
      [{ 'user-agent': CHROME_WIN, 'cf-connecting-ip': '198.51.100.20' }],
      [{ 'user-agent': SAFARI_IPHONE, 'cf-connecting-ip': '203.0.113.7' }],
      [{ 'user-agent': SAFARI_IPHONE, 'cf-connecting-ip': '203.0.113.7' }],
      [{ 'user-agent': FIREFOX_LINUX, 'cf-connecting-ip': '2001:db8::1' }],
      [{ 'user-agent': CHROME_WIN, 'cf-connecting-ip': '192.0.2.1' }, 'HEAD'],
      [{ 'user-agent': 'WhatsApp/2.23.20.0', 'cf-connecting-ip': '192.0.2.2' }],
      [{ 'user-agent': 'facebookexternalhit/1.1', 'cf-connecting-ip': '192.0.2.3' }],
    ];
    // all at once: the visitors of one batch and of several batches alike are counted once each
    const answers = await Promise.all(visits.map(([headers, method]) => hop(link.code, headers, method)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(302));
    const stats = await statsWhen(link._id, manager.token, (s) => s.bots === 3 && s.daily.at(-1).people === 7);
    const today = stats.daily.at(-1);
    expect(today).toMatchObject({ people: 7, bots: 3, visitors: 4 });
    expect(stats.browsers).toEqual([
      { value: 'Chrome', count: 4 },
      { value: 'Safari', count: 2 },
      { value: 'Firefox', count: 1 },
    ]);
    expect(stats.oses).toEqual([
      { value: 'Windows', count: 4 },
      { value: 'iOS', count: 2 },
      { value: 'Linux', count: 1 },
    ]);
    expect(stats.devices).toEqual(expect.arrayContaining([{ value: 'bot', count: 3 }]));

    // the same people again later the same day are not new visitors
    for (const [headers] of visits.slice(0, 7)) expect((await hop(link.code, headers)).status).toBe(302);
    const again = await statsWhen(link._id, manager.token, (s) => s.daily.at(-1).people === 14);
    expect(again.daily.at(-1)).toMatchObject({ people: 14, visitors: 4 });

    // no IP address is stored: neither in D1 nor in the counter's storage (only salted hashes)
    const d1 = JSON.stringify(await manager.db.select().from(linkClickStats).where(eq(linkClickStats.linkId, link._id)));
    const counter = testEnv.CLICK_COUNTER.get(testEnv.CLICK_COUNTER.idFromName(link._id));
    const stored = await runInDurableObject(counter, (_, state) =>
      JSON.stringify([state.storage.sql.exec('select * from visitors').toArray(), state.storage.sql.exec('select * from click_batches').toArray()]),
    );
    for (const ip of ['203.0.113.7', '198.51.100.20', '2001:db8::1']) {
      expect(d1).not.toContain(ip);
      expect(stored).not.toContain(ip);
    }
    expect(JSON.parse(stored)[0]).toHaveLength(4);
  });
});

describe('CSV export', () => {
  it('escapes quotes, commas and line breaks, and defuses spreadsheet formulas', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['say "hi"', 'x,y'],
          ['line\nbreak', 3],
          ['=HYPERLINK("x")', '-1+1'],
          ['@sum', 'plain'],
        ],
      ),
    ).toBe(`\uFEFFa,b\r\n"say ""hi""","x,y"\r\n"line\nbreak",3\r\n"'=HYPERLINK(""x"")",'-1+1\r\n'@sum,plain\r\n`);
  });
  it("exports the caller's links, escaped, as an attachment", async () => {
    const manager = await createUser('manager');
    const first = await newLink(manager, { from: 'https://example.com/a,b?x=1,2' });
    const second = await newLink(manager, { from: 'https://example.com/plain', maxClicks: 5 });
    const res = await fetchWorker('http://localhost/api/link/export.csv', { headers: { authorization: `Bearer ${manager.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="links.csv"');
    const lines = (await res.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Number,Short link,Target,Clicks,Created,Status,Expires,Click limit');
    expect(lines[1]).toBe(`1,${first.to},"${first.from}",0,${new Date((await row(first._id))!.date).toISOString()},active,,`);
    expect(first.from).toContain(',');
    expect(lines[2]).toMatch(new RegExp(`^2,${second.to},https://example.com/plain,0,[^,]+,active,,5$`));
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
  });

  it("exports one link's clicks per day", { timeout: 30_000 }, async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, { from: 'https://example.com/daily' });
    await hop(link.code, { 'user-agent': CHROME_WIN, 'cf-connecting-ip': '203.0.113.9' });
    await hop(link.code, { 'user-agent': 'curl/8' });
    await statsWhen(link._id, manager.token, (s) => s.bots === 1 && s.daily.at(-1).people === 1);
    const res = await fetchWorker(`http://localhost/api/link/${link._id}/clicks.csv`, { headers: { authorization: `Bearer ${manager.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="link-${link.code}-clicks.csv"`);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Day,People,Bots,Unique visitors');
    expect(lines.at(-1)).toBe(`${new Date().toISOString().slice(0, 10)},1,1,1`);
    expect((await fetchWorker(`http://localhost/api/link/${link._id}/clicks.csv`)).status).toBe(401);
  });
});

function link6() {
  return Math.random().toString(36).slice(2, 8);
}
