import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, companies, companyHomes, linkClickFlushes, linkClickStats, linkCodes, links, users } from '../db/schema';
import type { Db } from '../env';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { CONTROL, shardDb } from '../lib/d1';
import { newCompanyOn } from '../lib/directory';
import { randomId } from '../lib/ids';
import { forgetCompany } from '../lib/shards';
import { advanceMove, isFinished, loadMove, type MoveRow, moveView, startCompanyMove } from '../shards/move';
import { fetchWorker } from '../test/dispatch';
import { call, control, createUser, everyDb, type TestUser, testEnv } from '../test/helpers';
import { type ClickCounter, D1_WRITE_DELAY_MS } from './click-counter';
import { ORPHAN_CLAIM_MS } from './codes';
import { LINK_MESSAGES } from './links.schema';
import { kvKey } from './links.service';

/*
 * Links on company shards (docs/decisions/0180-links-on-shards.md): one code namespace across
 * every shard, the redirect and its click flush on the link's shard, the admin's view of every
 * shard, and clicks kept through a move of the link's company.
 */

const browser = { 'sec-fetch-mode': 'navigate', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130' };
const hop = (code: string) =>
  fetchWorker(`http://localhost/s/${code}`, { redirect: 'manual', headers: browser }).then(async (r) => {
    await r.arrayBuffer();
    return { status: r.status, location: r.headers.get('location') };
  });

/** Managers until there is one on each of `count` different shards. */
async function managersOnShards(count: number): Promise<TestUser[]> {
  const byShard = new Map<string, TestUser>();
  for (let i = 0; i < 12 && byShard.size < count; i++) {
    const manager = await createUser('manager');
    if (!byShard.has(manager.shard)) byShard.set(manager.shard, manager);
  }
  expect(byShard.size).toBe(count);
  return [...byShard.values()];
}

/**
 * `count` more managers, one after another: created at once they would all see the same emptiest
 * shard and land together, and the shards would stay uneven for the tests after.
 */
async function moreManagers(count: number): Promise<TestUser[]> {
  const made: TestUser[] = [];
  for (let i = 0; i < count; i++) made.push(await createUser('manager'));
  return made;
}

async function newLink(owner: TestUser, body: Record<string, unknown>) {
  const res = await call('POST', '/api/link/generate', { token: owner.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body as { _id: string; code: string; to: string; date: string };
}

const linkIn = async (db: Db, id: string) => (await db.select().from(links).where(eq(links.id, id)))[0];

/** Where rows of the link are, shard by shard. */
async function shardsHolding(id: string) {
  const found: string[] = [];
  for (const { shard, db } of everyDb()) if (await linkIn(db, id)) found.push(shard);
  return found;
}

/** Runs a move to its end in pieces, as its Durable Object would. */
async function runMove(id: string): Promise<MoveRow> {
  for (let i = 0; i < 10_000; i++) {
    const move = await advanceMove(testEnv, id);
    if (isFinished(move)) return move;
  }
  throw new Error('the move did not end');
}

async function clicksWhen(db: Db, id: string, want: number, ms = 15_000) {
  const end = Date.now() + ms;
  let clicks = (await linkIn(db, id))?.clicks;
  while (clicks !== want && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    clicks = (await linkIn(db, id))?.clicks;
  }
  // and it stays: nothing arrives twice
  await new Promise((r) => setTimeout(r, D1_WRITE_DELAY_MS + 300));
  return (await linkIn(db, id))?.clicks;
}

const counterOf = (linkId: string) => testEnv.CLICK_COUNTER.get(testEnv.CLICK_COUNTER.idFromName(linkId));

/** Clicks the link's counter holds that are not in D1 yet. */
const waitingClicks = (linkId: string) =>
  runInDurableObject(
    counterOf(linkId),
    (_, state) => state.storage.sql.exec<{ n: number | null }>('select sum(clicks) as n from click_batches where applied = 0').one().n ?? 0,
  );

/**
 * What a company move does to the link tables (the mover's contract, docs/decisions/0180-links-on-shards.md): the
 * company is closed on its shard, its users, links, statistics and the links' applied flush ids
 * are copied to the new shard, then the control plane names the new shard and the old copy is
 * left `moved`.
 */
async function closeCompany(user: TestUser, to: string) {
  await control.update(companies).set({ state: 'moving', moveTo: to }).where(eq(companies.id, user.companyId));
  await shardDb(testEnv, user.shard).update(companyHomes).set({ state: 'moving' }).where(eq(companyHomes.companyId, user.companyId));
}

async function copyAndFlip(user: TestUser, to: string) {
  const from = shardDb(testEnv, user.shard);
  const dst = shardDb(testEnv, to);
  const now = new Date();
  await dst.insert(companyHomes).values({ companyId: user.companyId, state: 'incoming', changedAt: now });
  const people = await from.select().from(users).where(eq(users.companyId, user.companyId));
  const ids = people.map((p) => p.id);
  const rows = await from.select().from(links).where(inArray(links.userId, ids));
  const linkIds = rows.map((l) => l.id);
  await dst.insert(users).values(people);
  if (rows.length) {
    await dst.insert(links).values(rows);
    const stats = await from.select().from(linkClickStats).where(inArray(linkClickStats.linkId, linkIds));
    if (stats.length) await dst.insert(linkClickStats).values(stats);
    const flushes = await from.select().from(linkClickFlushes).where(inArray(linkClickFlushes.linkId, linkIds));
    if (flushes.length) await dst.insert(linkClickFlushes).values(flushes);
  }
  await dst.update(companyHomes).set({ state: 'active' }).where(eq(companyHomes.companyId, user.companyId));
  await control.update(companies).set({ shard: to, state: 'active', moveTo: null }).where(eq(companies.id, user.companyId));
  await from.update(companyHomes).set({ state: 'moved' }).where(eq(companyHomes.companyId, user.companyId));
  forgetCompany(user.companyId);
  return { ...user, shard: to, db: shardDb(testEnv, to) };
}

describe('short codes across shards', () => {
  it('one alias, 30 managers on three shards asking at once, 3 rounds: one link gets it, the others 409, nothing left behind', {
    timeout: 120_000,
  }, async () => {
    const managers = await managersOnShards(3);
    const more = await moreManagers(27);
    const everyone = [...managers, ...more];
    expect(new Set(everyone.map((m) => m.shard)).size).toBe(3);
    for (let round = 0; round < 3; round++) {
      const alias = `same-${round}-${randomId(6)}`;
      const answers = await Promise.all(
        everyone.map((m) => call('POST', '/api/link/generate', { token: m.token, body: { from: `https://example.com/${m.id}`, alias } })),
      );
      const won = answers.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      for (const lost of answers.filter((a) => a.status !== 200)) {
        expect(lost.status).toBe(409);
        expect(lost.body.message).toBe(LINK_MESSAGES.aliasTaken.text);
      }
      // one row in one shard, one directory entry naming it, and the code leads to it
      expect(await shardsHolding(won[0]!.body._id)).toHaveLength(1);
      let rows = 0;
      for (const { db } of everyDb()) rows += (await db.select().from(links).where(eq(links.code, alias))).length;
      expect(rows).toBe(1);
      expect(await control.select({ linkId: linkCodes.linkId }).from(linkCodes).where(eq(linkCodes.code, alias))).toEqual([{ linkId: won[0]!.body._id }]);
      expect((await hop(alias)).location).toBe(won[0]!.body.from);
    }
  });

  it('30 managers of companies on three shards create links at once, 3 rounds: each in its owner’s shard, one directory entry each, every code leads to it', {
    timeout: 120_000,
  }, async () => {
    const managers = await managersOnShards(3);
    const everyone = [...managers, ...(await moreManagers(27))];
    const made: { link: { _id: string; code: string; from: string }; owner: TestUser }[] = [];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        everyone.map((m, i) =>
          call('POST', '/api/link/generate', {
            token: m.token,
            body:
              i % 3 ? { from: `https://example.com/${round}/${m.id}` } : { from: `https://example.com/${round}/${m.id}`, alias: `a${round}-${randomId(8)}` },
          }),
        ),
      );
      for (const [i, a] of answers.entries()) {
        expect(a.status, a.text).toBe(200);
        made.push({ link: a.body, owner: everyone[i]! });
      }
    }
    expect(new Set(made.map((m) => m.link.code)).size).toBe(90);
    for (const { link, owner } of made) {
      expect(await shardsHolding(link._id)).toEqual([owner.shard]);
      expect(await testEnv.LINKS_KV.get(kvKey(link.code), 'json')).toMatchObject({ id: link._id, co: owner.companyId });
    }
    const entries = await control
      .select()
      .from(linkCodes)
      .where(
        inArray(
          linkCodes.linkId,
          made.map((m) => m.link._id),
        ),
      );
    expect(entries).toHaveLength(90);
    for (const e of entries) expect(made.find((m) => m.link._id === e.linkId)).toMatchObject({ link: { code: e.code }, owner: { id: e.userId } });
    // one link of each shard, clicked at once, counted exactly in its shard
    const sample = managers.map((m) => made.find((x) => x.owner.id === m.id)!);
    const hops = await Promise.all(sample.flatMap(({ link }) => Array.from({ length: 20 }, () => hop(link.code))));
    expect(hops.every((h, i) => h.status === 302 && h.location === sample[Math.floor(i / 20)]!.link.from)).toBe(true);
    for (const { link, owner } of sample) expect(await clicksWhen(owner.db, link._id, 20)).toBe(20);
  });

  it('a code is claimed in the directory with its owner, moves with an alias change, and is given back on delete', async () => {
    const [manager] = await managersOnShards(1);
    const link = await newLink(manager!, { from: 'https://example.com/claimed', alias: `first-${randomId(6)}` });
    const claims = () => control.select().from(linkCodes).where(eq(linkCodes.linkId, link._id));
    expect(await claims()).toMatchObject([{ code: link.code, userId: manager!.id }]);
    const renamed = `second-${randomId(6)}`;
    expect((await call('PUT', `/api/link/${link._id}`, { token: manager!.token, body: { alias: renamed } })).status).toBe(200);
    expect((await claims()).map((c) => c.code)).toEqual([renamed]);
    // the old code is anyone's again, on any shard
    const other = await createUser('manager');
    expect((await newLink(other, { from: 'https://example.com/reused', alias: link.code })).code).toBe(link.code);
    expect((await call('DELETE', `/api/link/${link._id}`, { token: manager!.token })).status).toBe(200);
    expect(await claims()).toEqual([]);
  });

  it('a claim left by a creation cut off before its shard write is taken over after a few minutes, not before', async () => {
    const manager = await createUser('manager');
    const alias = `orphan-${randomId(6)}`;
    await control.insert(linkCodes).values({ code: alias, linkId: randomId(), userId: manager.id, claimedAt: new Date() });
    const fresh = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/o', alias } });
    expect(fresh.status).toBe(409);
    await control
      .update(linkCodes)
      .set({ claimedAt: new Date(Date.now() - ORPHAN_CLAIM_MS - 1000) })
      .where(eq(linkCodes.code, alias));
    const taken = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/o', alias } });
    expect(taken.status).toBe(200);
    expect((await hop(alias)).location).toBe('https://example.com/o');
  });

  it('an old claim whose link is alive and has that code stays its link’s', async () => {
    const [owner] = await managersOnShards(1);
    const link = await newLink(owner!, { from: 'https://example.com/alive', alias: `alive-${randomId(6)}` });
    await control
      .update(linkCodes)
      .set({ claimedAt: new Date(Date.now() - ORPHAN_CLAIM_MS - 1000) })
      .where(eq(linkCodes.code, link.code));
    const thief = await createUser('manager');
    const res = await call('POST', '/api/link/generate', { token: thief.token, body: { from: 'https://example.com/thief', alias: link.code } });
    expect(res.status).toBe(409);
    expect((await hop(link.code)).location).toBe('https://example.com/alive');
  });
});

describe('the redirect and its clicks on the link’s shard', () => {
  it('links on three shards, 3 rounds of 40 simultaneous redirects each: every click in its own shard, exactly', { timeout: 120_000 }, async () => {
    const managers = await managersOnShards(3);
    const made = await Promise.all(managers.map((m, i) => newLink(m, { from: `https://example.com/shard-${i}` })));
    for (const [i, link] of made.entries()) {
      expect(await testEnv.LINKS_KV.get(kvKey(link.code), 'json')).toMatchObject({ id: link._id, co: managers[i]!.companyId });
      expect(await shardsHolding(link._id)).toEqual([managers[i]!.shard]);
    }
    for (let round = 1; round <= 3; round++) {
      const answers = await Promise.all(made.flatMap((link) => Array.from({ length: 40 }, () => hop(link.code))));
      expect(answers.filter((a) => a.status === 302)).toHaveLength(120);
      for (const [i, link] of made.entries()) expect(await clicksWhen(managers[i]!.db, link._id, 40 * round)).toBe(40 * round);
    }
    // and nowhere else
    expect(await shardsHolding(made[0]!._id)).toEqual([managers[0]!.shard]);
  });

  it('a KV miss finds the link on its shard through the directory, and KV is filled again with its company', async () => {
    const [, manager] = await managersOnShards(2);
    const link = await newLink(manager!, { from: 'https://example.com/miss' });
    await testEnv.LINKS_KV.delete(kvKey(link.code));
    expect((await hop(link.code)).location).toBe('https://example.com/miss');
    await expect.poll(() => testEnv.LINKS_KV.get(kvKey(link.code), 'json')).toMatchObject({ id: link._id, co: manager!.companyId });
    expect(await clicksWhen(manager!.db, link._id, 1)).toBe(1);
  });

  it('links made before shards keep working: an old KV entry without a company, and a link of DB without a directory entry', async () => {
    // a company of the first database, as migration 0023 left today's teams
    const home = await newCompanyOn(testEnv, control, CONTROL);
    const owner = { id: randomId(), email: `old-${randomId(6).toLowerCase()}@test.example` };
    await home.db.insert(users).values({
      id: owner.id,
      name: 'Old manager',
      email: owner.email,
      passwordHash: 'x',
      userType: 'manager',
      registrationDate: new Date(),
      subscriptionEndDate: new Date(Date.now() + 86_400_000),
      companyId: home.companyId,
    });
    await control.insert(accounts).values({ userId: owner.id, email: owner.email, companyId: home.companyId, createdAt: new Date() });
    const db = shardDb(testEnv, CONTROL);
    // one backfilled into the directory by the migration, whose KV entry is in the old format
    const backfilled = { id: randomId(), userId: owner.id, code: `old${randomId(6)}`, from: 'https://example.com/old-kv', date: new Date() };
    await db.insert(links).values(backfilled);
    await control.insert(linkCodes).values({ code: backfilled.code, linkId: backfilled.id, userId: owner.id, claimedAt: backfilled.date });
    await testEnv.LINKS_KV.put(kvKey(backfilled.code), JSON.stringify({ id: backfilled.id, from: backfilled.from, disabled: false }));
    // one written by the last version's Worker during the deploy: in DB only
    const unlisted = { id: randomId(), userId: owner.id, code: `unl${randomId(6)}`, from: 'https://example.com/unlisted', date: new Date() };
    await db.insert(links).values(unlisted);
    for (let i = 0; i < 3; i++) {
      expect((await hop(backfilled.code)).location).toBe(backfilled.from);
      expect((await hop(unlisted.code)).location).toBe(unlisted.from);
    }
    expect(await clicksWhen(db, backfilled.id, 3)).toBe(3);
    expect(await clicksWhen(db, unlisted.id, 3)).toBe(3);
    // its code is taken for the directory too
    const manager = await createUser('manager');
    const res = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/x', alias: unlisted.code } });
    expect(res.status).toBe(409);
  });
});

describe("clicks while the link's company moves", () => {
  it('clicks during the move wait in the counter and land once on the new shard after the flip, never on the old one', { timeout: 60_000 }, async () => {
    const [manager, other] = await managersOnShards(2);
    const link = await newLink(manager!, { from: 'https://example.com/moving' });
    for (let i = 0; i < 5; i++) await hop(link.code);
    expect(await clicksWhen(manager!.db, link._id, 5)).toBe(5);

    await closeCompany(manager!, other!.shard);
    const served = await Promise.all(Array.from({ length: 30 }, () => hop(link.code)));
    expect(served.every((a) => a.status === 302)).toBe(true);
    // the fence keeps them out of the old shard: they wait, durably, in the link's counter
    await expect.poll(() => waitingClicks(link._id), { timeout: 10_000 }).toBe(30);
    await new Promise((r) => setTimeout(r, D1_WRITE_DELAY_MS * 3));
    expect((await linkIn(manager!.db, link._id))!.clicks).toBe(5);
    expect(await waitingClicks(link._id)).toBe(30);

    const moved = await copyAndFlip(manager!, other!.shard);
    // the retry finds the company's new shard
    await runDurableObjectAlarm(counterOf(link._id));
    expect(await clicksWhen(moved.db, link._id, 35)).toBe(35);
    expect((await linkIn(manager!.db, link._id))!.clicks).toBe(5);
    expect(await waitingClicks(link._id)).toBe(0);
    // and the next clicks go straight there
    for (let i = 0; i < 4; i++) await hop(link.code);
    expect(await clicksWhen(moved.db, link._id, 39)).toBe(39);
    const kinds = await moved.db
      .select()
      .from(linkClickStats)
      .where(and(eq(linkClickStats.linkId, link._id), eq(linkClickStats.dimension, 'kind')));
    expect(kinds.reduce((n, r) => n + r.count, 0)).toBe(39);
  });

  it('a flush applied before a company move whose end was lost is refused after it by the id the move carried', { timeout: 60_000 }, async () => {
    const manager = await createUser('manager', { shard: 'SHARD_1' });
    const link = await newLink(manager, { from: 'https://example.com/landed' });
    const day = new Date().toISOString().slice(0, 10);
    const stats = { [`${day}|kind|person`]: 7 };
    const counter = counterOf(link._id);
    await counter.add({ id: `b-${link._id}`, linkId: link._id, clicks: 7, stats, co: manager.companyId });
    await runInDurableObject(counter, async (instance, state) => {
      await (instance as ClickCounter).alarm();
      // as if the object died after D1 committed and before it marked the flush applied
      state.storage.sql.exec('update click_batches set applied = 0, stats = ?', JSON.stringify(stats));
    });
    expect((await linkIn(manager.db, link._id))!.clicks).toBe(7);
    // the real mover (npm run company:move), its count check included
    const move = await runMove((await startCompanyMove(testEnv, control, manager.companyId, 'SHARD_2')).id);
    expect([move.step, move.error]).toEqual(['done', null]);
    const moved = shardDb(testEnv, 'SHARD_2');
    await runInDurableObject(counter, (instance) => (instance as ClickCounter).alarm());
    expect((await linkIn(moved, link._id))!.clicks).toBe(7);
    const kinds = await moved.select().from(linkClickStats).where(eq(linkClickStats.linkId, link._id));
    expect(kinds.map((r) => r.count)).toEqual([7]);
    expect(await waitingClicks(link._id)).toBe(0);
    // the move's count check covered it, and the receipt left the old shard with the link
    expect(moveView(move).verified.link_click_flushes?.rows).toBe(1);
    expect(await shardDb(testEnv, 'SHARD_1').select().from(linkClickFlushes).where(eq(linkClickFlushes.linkId, link._id))).toEqual([]);
  });

  it('receipts past the pruning age stay on both shards while the move runs: other links’ counters prune around them', { timeout: 60_000 }, async () => {
    const manager = await createUser('manager', { shard: 'SHARD_1' });
    const link = await newLink(manager, { from: 'https://example.com/old-receipt' });
    const receipt = { id: `old-${randomId()}`, at: new Date(Date.now() - 2 * 3_600_000), linkId: link._id };
    await manager.db.insert(linkClickFlushes).values(receipt);
    const { id } = await startCompanyMove(testEnv, control, manager.companyId, 'SHARD_2');
    let move = await loadMove(control, id);
    while (move.step !== 'verifying') move = await advanceMove(testEnv, id, { budget: 1 });
    // a fresh counter prunes old receipts with its first flush: one on each shard, between the copy and its check
    const day = new Date().toISOString().slice(0, 10);
    for (const shard of ['SHARD_1', 'SHARD_2']) {
      const other = await createUser('manager', { shard });
      const otherLink = await newLink(other, { from: `https://example.com/pruner-${shard}` });
      const stale = { id: `stale-${randomId()}`, at: new Date(Date.now() - 2 * 3_600_000), linkId: otherLink._id };
      await other.db.insert(linkClickFlushes).values(stale);
      await counterOf(otherLink._id).add({ id: randomId(), linkId: otherLink._id, clicks: 1, stats: { [`${day}|kind|person`]: 1 }, co: other.companyId });
      await runDurableObjectAlarm(counterOf(otherLink._id));
      expect(await clicksWhen(other.db, otherLink._id, 1)).toBe(1);
      // the prune ran: the active company's old receipt is gone
      expect(await other.db.select().from(linkClickFlushes).where(eq(linkClickFlushes.id, stale.id))).toEqual([]);
    }
    move = await runMove(id);
    expect([move.step, move.error]).toEqual(['done', null]);
    expect(await shardDb(testEnv, 'SHARD_2').select().from(linkClickFlushes).where(eq(linkClickFlushes.linkId, link._id))).toEqual([receipt]);
  });

  it('a deleted link’s late clicks add nothing anywhere, and its counter lets them go', async () => {
    const [manager] = await managersOnShards(1);
    const link = await newLink(manager!, { from: 'https://example.com/deleted' });
    const counter = counterOf(link._id);
    expect((await call('DELETE', `/api/link/${link._id}`, { token: manager!.token })).status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    await counter.add({ id: `late-${link._id}`, linkId: link._id, clicks: 2, stats: { [`${day}|kind|person`]: 2 }, co: manager!.companyId });
    await runDurableObjectAlarm(counter);
    expect(await waitingClicks(link._id)).toBe(0);
    for (const { db } of everyDb()) expect(await db.select().from(linkClickStats).where(eq(linkClickStats.linkId, link._id))).toEqual([]);
  });
});

describe("the admin's view of every shard", () => {
  it('lists every shard’s links in one order with their owners, as the export does; a moving company’s copy is listed once', { timeout: 60_000 }, async () => {
    const admin = await createUser('admin');
    const managers = await managersOnShards(3);
    const made: { _id: string; owner: TestUser }[] = [];
    // interleaved across shards, so the merged order is not any one shard's
    for (let i = 0; i < 3; i++) for (const m of managers) made.push({ ...(await newLink(m, { from: `https://example.com/${m.shard}/${i}` })), owner: m });
    const own = await newLink(admin, { from: 'https://example.com/admin' });
    const all = (await call('GET', '/api/link?all=1', { token: admin.token })).body as { _id: string; date: string; owner?: { _id: string } }[];
    const ours = all.filter((l) => made.some((m) => m._id === l._id) || l._id === own._id);
    expect(ours.map((l) => l._id)).toEqual([...made.map((m) => m._id), own._id]);
    for (const m of made) expect(all.find((l) => l._id === m._id)?.owner).toEqual({ _id: m.owner.id, name: m.owner.name, email: m.owner.email });
    // the whole list is in creation order
    const dates = all.map((l) => l.date);
    expect(dates).toEqual([...dates].sort());
    const csv = await fetchWorker('http://localhost/api/link/export.csv?all=1', { headers: { authorization: `Bearer ${admin.token}` } });
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(all.length + 1);
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(all.map((l) => (l as unknown as { to: string }).to));

    // a company half-way through a move is in both shards: listed once, from where it is read
    const mover = managers[0]!;
    const target = managers[1]!.shard;
    await closeCompany(mover, target);
    const moved = await copyAndFlip(mover, target);
    const after = (await call('GET', '/api/link?all=1', { token: admin.token })).body as { _id: string }[];
    expect(after.map((l) => l._id)).toEqual(all.map((l) => l._id));
    expect(await linkIn(moved.db, made[0]!._id)).toBeTruthy();
    expect(await linkIn(mover.db, made[0]!._id)).toBeTruthy();
  });

  it('the admin opens, exports and disables a link on another shard, through its company’s fence', async () => {
    const admin = await createUser('admin');
    const [manager] = await managersOnShards(1);
    expect(manager!.shard).not.toBe(admin.shard);
    const link = await newLink(manager!, { from: 'https://example.com/admin-reach' });
    await hop(link.code);
    expect(await clicksWhen(manager!.db, link._id, 1)).toBe(1);
    const detail = await call('GET', `/api/link/${link._id}`, { token: admin.token });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ _id: link._id, clicks: 1 });
    expect(detail.body.stats.daily.at(-1).people).toBe(1);
    expect((await call('GET', `/api/link/${link._id}/clicks.csv`, { token: admin.token })).text).toContain(',1,0,');
    // while the owner's company moves, the change waits: 503 and nothing changes
    await closeCompany(manager!, CONTROL);
    const refused = await call('PUT', `/api/link/${link._id}`, { token: admin.token, body: { isDisabled: true } });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe(COMMON_MESSAGES.companyMoving.text);
    expect((await linkIn(manager!.db, link._id))!.isDisabled).toBe(false);
    await control.update(companies).set({ state: 'active', moveTo: null }).where(eq(companies.id, manager!.companyId));
    await shardDb(testEnv, manager!.shard).update(companyHomes).set({ state: 'active' }).where(eq(companyHomes.companyId, manager!.companyId));
    const done = await call('PUT', `/api/link/${link._id}`, { token: admin.token, body: { isDisabled: true } });
    expect(done.body.isDisabled).toBe(true);
    expect((await linkIn(manager!.db, link._id))!.isDisabled).toBe(true);
    expect((await hop(link.code)).status).toBe(410);
  });
});
