import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extensionApi } from '../../extension/src/background/api';
import { handleError } from '../app';
import type { AppEnv } from '../env';
import { fetchWorker } from '../test/dispatch';
import { call, createUser, getUser, sessionToken } from '../test/helpers';
import { appRoutes } from '../test/routes';
import { BOOKMARK_HEADER, isBookmark, newerBookmark } from './bookmark';
import { openCompany, readOnly, withDb } from './db';

/**
 * Reads off the primary (docs/decisions/0015-read-replicas.md): every answer carries the request's
 * D1 bookmark, a read-only call reads from a session that starts at the bookmark the client sent,
 * and a malformed bookmark is ignored. Local D1 has one copy of the database, so these tests show
 * the plumbing (headers in and out, bookmarks that only move forward, the routes' marks) and that
 * a user reads its own writes; they cannot show a lagging replica, which only production has.
 */

const bookmarkOf = (res: { headers: Headers }) => res.headers.get(BOOKMARK_HEADER);

describe('the bookmark header', () => {
  it('a write answers a bookmark, and a read-only call sent with it sees the write and answers a bookmark at least as new', async () => {
    const user = await createUser('manager');
    const renamed = await call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { newName: 'Renamed Once' } });
    expect(renamed.status).toBe(200);
    const written = bookmarkOf(renamed);
    expect(isBookmark(written)).toBe(true);

    const read = await call('GET', `/api/user/${user.id}`, { token: user.token, headers: { [BOOKMARK_HEADER]: written! } });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('Renamed Once');
    const answered = bookmarkOf(read);
    expect(isBookmark(answered)).toBe(true);
    expect(answered! >= written!).toBe(true);
  });

  it('bookmarks only move forward: each write answers a newer one than the last', async () => {
    const user = await createUser('manager');
    let last = '';
    for (const name of ['First Name', 'Second Name', 'Third Name']) {
      const res = await call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { newName: name } });
      expect(res.status).toBe(200);
      const bookmark = bookmarkOf(res)!;
      expect(bookmark > last).toBe(true);
      last = bookmark;
    }
    expect((await getUser(user.id))?.name).toBe('Third Name');
  });

  it('a read-only call without a bookmark answers as before, with a bookmark to send next time', async () => {
    const user = await createUser('manager');
    const res = await call('GET', '/api/user/manager', { token: user.token });
    expect(res.status).toBe(200);
    expect(isBookmark(bookmarkOf(res))).toBe(true);
  });

  it('a malformed bookmark is ignored, never refused: the call answers as without one and hands out a good bookmark', async () => {
    const user = await createUser('manager', { name: 'Malformed Case' });
    const malformed = [
      'garbage',
      '',
      ' ',
      'x'.repeat(4000),
      '00000000-00000010-00000000-0000000000000000000000000000000G',
      '00000000-00000010-00000000-00000000000000000000000000000000; drop table users',
      'FFFFFFFF-FFFFFFFF-FFFFFFFF-FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF',
    ];
    for (const bad of malformed) {
      const read = await call('GET', `/api/user/${user.id}`, { token: user.token, headers: { [BOOKMARK_HEADER]: bad } });
      expect(read.status, JSON.stringify(bad)).toBe(200);
      expect(read.body.name).toBe('Malformed Case');
      expect(isBookmark(bookmarkOf(read))).toBe(true);
      const write = await call('PUT', `/api/user/update/name/${user.id}`, {
        token: user.token,
        body: { newName: 'Malformed Case' },
        headers: { [BOOKMARK_HEADER]: bad },
      });
      expect(write.status, JSON.stringify(bad)).toBe(200);
      expect(isBookmark(bookmarkOf(write))).toBe(true);
    }
  });

  it("errors carry their shard's bookmark too, and a refused token is refused on a read-only call whatever bookmark it sends", async () => {
    const user = await createUser('manager');
    const token = await sessionToken(user.id);
    const out = await call('POST', '/api/auth/logout', { token });
    expect(out.status).toBe(200);
    const before = bookmarkOf(out)!;
    // the token check reads the primary, never a replica that may not have the sign-out yet
    const refused = await call('GET', '/api/user/manager', { token, headers: { [BOOKMARK_HEADER]: before } });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Unauthorized');
    // a refused token opened no company: no database to name a bookmark of
    expect(bookmarkOf(refused)).toBeNull();
    // an error after the caller's shard was read names that shard's bookmark
    const missing = await call('GET', `/api/user/${'f'.repeat(24)}`, { token: user.token });
    expect(missing.status).toBe(404);
    expect(bookmarkOf(missing)).toMatch(new RegExp(`^${user.shard}~`));
    // a refusal before any read of the shard has no newer bookmark to give: the client keeps its own
    const bad = await call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { newName: ' ' } });
    expect(bad.status).toBe(400);
    expect(bookmarkOf(bad)).toBeNull();
  });
});

describe('read-your-writes under concurrency', () => {
  it('20 users rename themselves at once and each reads its own new name with its bookmark, over 3 rounds', async () => {
    const users = await Promise.all(Array.from({ length: 20 }, (_, i) => createUser('manager', { name: `Racer ${i}` })));
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        users.map(async (user, i) => {
          const name = `Racer ${i} round ${round}`;
          const write = await call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { newName: name } });
          const bookmark = bookmarkOf(write);
          // other users' reads and writes run meanwhile; this read starts at its writer's bookmark
          const read = await call('GET', `/api/user/${user.id}`, { token: user.token, headers: bookmark ? { [BOOKMARK_HEADER]: bookmark } : {} });
          return { name, write, bookmark, read };
        }),
      );
      for (const r of results) {
        expect(r.write.status).toBe(200);
        expect(isBookmark(r.bookmark)).toBe(true);
        expect(r.read.status).toBe(200);
        expect(r.read.body.name).toBe(r.name);
        expect(bookmarkOf(r.read)! >= r.bookmark!).toBe(true);
      }
      const stored = await Promise.all(users.map((u) => getUser(u.id)));
      expect(stored.map((u) => u?.name)).toEqual(users.map((_, i) => `Racer ${i} round ${round}`));
    }
  });

  it('a client that keeps the newest of 20 parallel answers holds a bookmark no older than any of them', async () => {
    const user = await createUser('manager');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { newName: `Parallel ${i}` } })
          : call('GET', `/api/user/${user.id}`, { token: user.token }),
      ),
    );
    let kept: string | null = null;
    for (const a of answers) {
      expect(a.status).toBe(200);
      kept = newerBookmark(kept, bookmarkOf(a));
    }
    for (const a of answers) expect(kept! >= bookmarkOf(a)!).toBe(true);
    const read = await call('GET', `/api/user/${user.id}`, { token: user.token, headers: { [BOOKMARK_HEADER]: kept! } });
    expect(read.body.name).toBe((await getUser(user.id))?.name);
  });
});

describe('which calls read where', () => {
  it('only calls that read are marked readOnly, and the calls users load most are among them', () => {
    const readOnlyCalls = appRoutes()
      .filter((r) => r.readOnly)
      .map((r) => `${r.method} ${r.path}`);
    // the screens' main reads go to replicas
    for (const read of [
      'POST /api/callHistory/getHistory',
      'POST /api/callHistory/page',
      'POST /api/callHistory/export',
      'POST /api/broker',
      'GET /api/broker/minified',
      'GET /api/user',
      'GET /api/link',
      'GET /api/mcSettings',
    ])
      expect(readOnlyCalls).toContain(read);
    // money, sign-in, the redirect and calls that write on a read stay on the primary
    for (const primary of [
      'POST /api/auth/login',
      'GET /api/payment/paymentHistory',
      'POST /api/payment/idram/result',
      'GET /api/user/filterOverrides',
      'GET /api/user/verify/:hash',
      'GET /s/:code',
    ])
      expect(readOnlyCalls).not.toContain(primary);
  });

  it('in development a readOnly route that writes fails loudly instead of writing', async () => {
    const user = await createUser('manager', { name: 'Left Alone' });
    // as allow() does once the token names the company: the user's shard, in a session
    const probe = new Hono<AppEnv>()
      .use(withDb)
      .use(async (c, next) => {
        openCompany(c, { companyId: user.companyId, shard: user.shard });
        await next();
      })
      .post('/reads', readOnly(), async (c) => c.json(await c.var.db.all(sql`select 1 as one`), 200))
      .post('/writes', readOnly(), async (c) => c.json(await c.var.db.run(sql`update users set name = 'Written' where id = ${user.id}`), 200));
    probe.onError(handleError);
    const reads = await probe.request('/reads', { method: 'POST' }, env);
    expect(reads.status).toBe(200);
    expect(isBookmark(reads.headers.get(BOOKMARK_HEADER))).toBe(true);
    const writes = await probe.request('/writes', { method: 'POST' }, env);
    expect(writes.status).toBe(500);
    expect((await getUser(user.id))?.name).toBe('Left Alone');
  });
});

describe("the extension's fetch wrapper, against the Worker", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the bookmark of its last write with the next read, and the read sees the write', async () => {
    const user = await createUser('manager', { name: 'Extension Before' });
    const sent: (string | null)[] = [];
    const answered: (string | null)[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      sent.push(headers.get('x-d1-bookmark'));
      // the Worker's own fetch takes neither a browser's credentials mode nor its cache mode
      const res = await fetchWorker(String(input), { method: init?.method, headers, body: init?.body });
      answered.push(res.headers.get('x-d1-bookmark'));
      return res;
    });
    const api = extensionApi('http://localhost/', user.token);

    const rename = await api.user.update.name[':id'].$put({ param: { id: user.id }, json: { newName: 'Extension After' } });
    expect(rename.status).toBe(200);
    const read = await api.user[':id'].$get({ param: { id: user.id } });
    expect(((await read.json()) as { name: string }).name).toBe('Extension After');

    expect(answered[0]).toMatch(new RegExp(`^${user.shard}~[0-9a-f]{8}-`));
    expect(sent[1]).toBe(answered[0]);
    expect(answered[1]! >= answered[0]!).toBe(true);
    expect((await getUser(user.id))?.name).toBe('Extension After');
  });
});
