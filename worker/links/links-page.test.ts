import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../db/schema';
import { placementShards } from '../lib/d1';
import { binaryCompare } from '../lib/fan-out';
import { randomId } from '../lib/ids';
import { call, createUser, type TestUser, testEnv } from '../test/helpers';
import { allPages } from '../test/paging';
import type { LinkDto } from './links.schema';

/** GET /api/link/page (docs/decisions/0187-paged-fan-out.md): the links list a page at a time. */
describe('the links list a page at a time', () => {
  it("pages the admin's every link over every shard, oldest first, each once, searched in each shard", async () => {
    const tag = `lk${randomId().toLowerCase().slice(0, 8)}`;
    const admin = await createUser('admin');
    const owners: TestUser[] = [];
    for (const shard of placementShards(testEnv).slice(0, 3)) owners.push(await createUser('manager', { shard }));
    expect(new Set(owners.map((o) => o.shard)).size).toBe(3);
    const made: { id: string; owner: TestUser }[] = [];
    for (let n = 0; n < 12; n++) {
      const owner = owners[n % 3]!;
      const res = await call('POST', '/api/link/generate', { token: owner.token, body: { from: `https://example.com/${tag}/${n}` } });
      expect(res.status, res.text).toBe(200);
      made.push({ id: res.body._id, owner });
    }
    // dates interleave across the shards, and every fourth link shares one millisecond
    const base = Date.UTC(2026, 0, 1);
    for (const [n, l] of made.entries())
      await l.owner.db
        .update(links)
        .set({ date: new Date(base + (n % 4 === 0 ? 0 : ((n * 7) % 12) * 1000)) })
        .where(eq(links.id, l.id));
    const whole = ((await call('GET', '/api/link?all=1', { token: admin.token })).body as LinkDto[]).filter((l) => l.from.includes(tag));
    expect(whole).toHaveLength(12);
    for (const limit of [1, 5, 12, 50]) {
      const { items, pages } = await allPages<LinkDto>(admin.token, `/api/link/page?all=1&q=${tag}`, limit);
      expect(items).toEqual(whole);
      for (const page of pages) expect(page.total).toBe(12);
    }
    // each sortable column either way, the id breaking ties (targets tie in pairs here)
    const byColumn = {
      date: (l: LinkDto) => Date.parse(l.date),
      from: (l: LinkDto) => l.from,
      code: (l: LinkDto) => l.code,
    };
    // two links of each pair get the same target, so from-order ties and falls to the id
    for (const [n, l] of made.entries())
      await l.owner.db
        .update(links)
        .set({ from: `https://example.com/${tag}/${Math.floor(n / 2)}` })
        .where(eq(links.id, l.id));
    const tied = ((await call('GET', '/api/link?all=1', { token: admin.token })).body as LinkDto[]).filter((l) => l.from.includes(tag));
    for (const [sort, key] of Object.entries(byColumn))
      for (const dir of ['asc', 'desc'] as const) {
        const { items } = await allPages<LinkDto>(admin.token, `/api/link/page?all=1&q=${tag}&sort=${sort}&dir=${dir}`, 5);
        const compare = (a: LinkDto, b: LinkDto) => {
          const [ka, kb] = [key(a), key(b)];
          const d = (typeof ka === 'number' ? ka - (kb as number) : binaryCompare(ka, kb as string)) || binaryCompare(a._id, b._id);
          return dir === 'desc' ? -d : d;
        };
        expect(
          items.map((l) => l._id),
          `${sort} ${dir}`,
        ).toEqual([...tied].sort(compare).map((l) => l._id));
      }
    // the owner's e-mail is searched too; a manager's own list is its own links only
    const byOwner = await allPages<LinkDto>(admin.token, `/api/link/page?all=1&q=${encodeURIComponent(owners[1]!.email)}`, 3);
    expect(byOwner.items.map((l) => l._id).sort()).toEqual(
      made
        .filter((l) => l.owner === owners[1])
        .map((l) => l.id)
        .sort(),
    );
    const own = await allPages<LinkDto>(owners[2]!.token, '/api/link/page?all=1', 2);
    expect(own.items.map((l) => l._id).sort()).toEqual(
      made
        .filter((l) => l.owner === owners[2])
        .map((l) => l.id)
        .sort(),
    );
    expect(own.items.every((l) => l.owner === undefined)).toBe(true);
    for (const type of ['agent', 'director', 'marketing'] as const) {
      const user = await createUser(type);
      expect((await call('GET', '/api/link/page', { token: user.token })).status).toBe(403);
    }
  });
});
