import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { linkClickStats, links } from '../db/schema';
import type { Bindings, Db } from '../env';
import { fetchWorker } from '../test/dispatch';
import { call, createUser, type TestUser, testEnv } from '../test/helpers';
import { type ClickBatch, type ClickCounter, D1_WRITE_DELAY_MS } from './click-counter';
import { describeVisit, recordClick } from './clicks';

/*
 * Its own file: the 500 simultaneous redirects run in a fresh isolate, first (the calls go to the
 * Worker's handler directly: worker/test/dispatch.ts says why not through the test pool's SELF).
 */

const browser = { 'sec-fetch-mode': 'navigate', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130' };

/** Each link's owner's shard, where its row and statistics live (docs/decisions/0180-links-on-shards.md). */
const shardOf = new Map<string, Db>();

async function newLink(owner: TestUser, from: string) {
  const res = await call('POST', '/api/link/generate', { token: owner.token, body: { from } });
  expect(res.status).toBe(200);
  shardOf.set(res.body._id, owner.db);
  return res.body as { _id: string; code: string };
}

/** What the link's ClickCounter holds in its own durable storage: every click received, and those not yet in D1. */
async function storedClicks(linkId: string) {
  const counter = testEnv.CLICK_COUNTER.get(testEnv.CLICK_COUNTER.idFromName(linkId));
  return runInDurableObject(counter, (_, state) => {
    const row = state.storage.sql
      .exec<{ received: number | null; waiting: number | null }>(
        'select sum(clicks) as received, sum(case when applied = 0 then clicks else 0 end) as waiting from click_batches',
      )
      .one();
    return { received: row.received ?? 0, waiting: row.waiting ?? 0 };
  });
}

const clicksInD1 = async (id: string) => (await shardOf.get(id)!.select({ clicks: links.clicks }).from(links).where(eq(links.id, id)))[0]!.clicks;

/** Polls D1 until the count stops changing at `want` or the time is up; answers the last count. */
async function settledClicks(id: string, want: number, ms = 20_000) {
  const end = Date.now() + ms;
  let clicks = await clicksInD1(id);
  while (clicks !== want && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    clicks = await clicksInD1(id);
  }
  // stable: nothing more arrives afterwards either (no double counting by a late resend or alarm)
  await new Promise((r) => setTimeout(r, D1_WRITE_DELAY_MS + 300));
  return clicksInD1(id);
}

describe('exact click counts', () => {
  it('counts 500 simultaneous redirects exactly, with people and bots apart', { timeout: 180_000 }, async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/busy');
    const N = 500;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        fetchWorker(`http://localhost/s/${link.code}`, {
          redirect: 'manual',
          headers:
            i % 10 === 0
              ? { 'sec-fetch-mode': 'navigate', 'user-agent': 'Googlebot/2.1' }
              : { ...browser, referer: i % 2 ? 'https://mail.example.com/inbox' : '' },
        }).then(async (res) => {
          await res.arrayBuffer();
          return [res.status, res.headers.get('location')] as const;
        }),
      ),
    );
    expect(answers.filter(([status, location]) => status === 302 && location === 'https://example.com/busy')).toHaveLength(N);
    expect(await settledClicks(link._id, N)).toBe(N);
    const detail = (await call('GET', `/api/link/${link._id}`, { token: manager.token })).body;
    expect(detail.clicks).toBe(N);
    expect(detail.stats.bots).toBe(50);
    const today = detail.stats.daily.at(-1);
    expect(today.people + today.bots).toBe(N);
    expect(detail.stats.referrers.find((r: { value: string }) => r.value === 'mail.example.com').count).toBe(250);
    expect(detail.stats.referrers.find((r: { value: string }) => r.value === 'direct').count).toBe(200);
    expect(detail.stats.devices.find((r: { value: string }) => r.value === 'bot').count).toBe(50);
  });

  it("a served click is in its link's durable storage within milliseconds, without waiting for any timer; D1 follows", { timeout: 120_000 }, async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/durable');
    // far below the one-second buffer clicks used to wait in, and generous for a busy test machine
    const DURABLE_WITHIN_MS = 400;
    let served = 0;
    for (const n of [50, 20, 35, 1]) {
      const statuses = await Promise.all(
        Array.from({ length: n }, () =>
          fetchWorker(`http://localhost/s/${link.code}`, { redirect: 'manual', headers: browser }).then(async (res) => {
            await res.arrayBuffer();
            return res.status;
          }),
        ),
      );
      expect(statuses.filter((s) => s === 302)).toHaveLength(n);
      served += n;
      // from here on, a crash of the isolate that served them must lose nothing
      const answered = Date.now();
      let stored = await storedClicks(link._id);
      while (stored.received < served && Date.now() - answered < DURABLE_WITHIN_MS) {
        await new Promise((r) => setTimeout(r, 5));
        stored = await storedClicks(link._id);
      }
      expect(stored.received).toBe(served);
    }
    expect(await settledClicks(link._id, served)).toBe(served);
    expect((await storedClicks(link._id)).waiting).toBe(0);
  });

  it('clicks of several links in one flush land on each link', async () => {
    const manager = await createUser('manager');
    const a = await newLink(manager, 'https://a.example/');
    const b = await newLink(manager, 'https://b.example/');
    await Promise.all([
      ...Array.from({ length: 12 }, () => fetchWorker(`http://localhost/s/${a.code}`, { redirect: 'manual', headers: browser })),
      ...Array.from({ length: 8 }, () => fetchWorker(`http://localhost/s/${b.code}`, { redirect: 'manual', headers: browser })),
    ]);
    expect(await settledClicks(a._id, 12)).toBe(12);
    expect(await settledClicks(b._id, 8)).toBe(8);
  });

  it('the ClickCounter stores a batch once, however often it is sent, and writes D1 once', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/once');
    const day = new Date().toISOString().slice(0, 10);
    const batch: ClickBatch = { id: `test-${link._id}`, linkId: link._id, clicks: 3, stats: { [`${day}|kind|person`]: 3 } };
    const counter = testEnv.CLICK_COUNTER.get(testEnv.CLICK_COUNTER.idFromName(link._id));
    expect(await counter.add(batch)).toBe(true);
    expect(await counter.add(batch)).toBe(false);
    expect(await counter.add({ ...batch, id: `${batch.id}-2`, clicks: 2, stats: { [`${day}|kind|person`]: 2 } })).toBe(true);
    expect(await storedClicks(link._id)).toEqual({ received: 5, waiting: 5 });
    // the object's alarm writes D1 (run it now rather than wait for it)
    await runDurableObjectAlarm(counter);
    expect(await clicksInD1(link._id)).toBe(5);
    expect(await storedClicks(link._id)).toEqual({ received: 5, waiting: 0 });
    // a resend of an applied batch is still recognised
    expect(await counter.add(batch)).toBe(false);
    const detail = (await call('GET', `/api/link/${link._id}`, { token: manager.token })).body;
    expect(detail.stats.daily.at(-1).people).toBe(5);
  });

  it('an alarm that runs again after D1 committed (its end was lost) adds nothing', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/alarm-twice');
    const day = new Date().toISOString().slice(0, 10);
    const counter = testEnv.CLICK_COUNTER.get(testEnv.CLICK_COUNTER.idFromName(link._id));
    const stats = { [`${day}|kind|person`]: 7, [`${day}|referrer|mail.example|x`]: 7 };
    await counter.add({ id: `a-${link._id}`, linkId: link._id, clicks: 7, stats });
    await runInDurableObject(counter, async (instance, state) => {
      const alarm = () => (instance as ClickCounter).alarm();
      await alarm();
      // as if the object died after D1 committed and before it marked the batch applied
      state.storage.sql.exec('update click_batches set applied = 0, stats = ?', JSON.stringify(stats));
      await alarm();
    });
    expect(await clicksInD1(link._id)).toBe(7);
    const rows = await manager.db.select().from(linkClickStats).where(eq(linkClickStats.linkId, link._id));
    expect(rows.map((r) => [r.dimension, r.value, r.count]).sort()).toEqual([
      ['kind', 'person', 7],
      ['referrer', 'mail.example|x', 7],
    ]);
  });

  it('a flush whose answer is lost is sent again and still counted once', async () => {
    const manager = await createUser('manager');
    const link = await newLink(manager, 'https://example.com/flaky');
    let calls = 0;
    // the first call lands in D1 but its answer is lost; the second fails before landing
    const flaky = {
      ...testEnv,
      CLICK_COUNTER: {
        idFromName: (name: string) => testEnv.CLICK_COUNTER.idFromName(name),
        get: (id: DurableObjectId) => ({
          add: async (batch: ClickBatch) => {
            calls += 1;
            if (calls === 1) {
              await testEnv.CLICK_COUNTER.get(id).add(batch);
              throw new Error('network connection lost');
            }
            if (calls === 2) throw new Error('Durable Object reset');
            return testEnv.CLICK_COUNTER.get(id).add(batch);
          },
        }),
      },
    } as unknown as Bindings;
    const visit = describeVisit(new Request('https://x/', { headers: browser }));
    const flushes = Array.from({ length: 4 }, () => recordClick(flaky, link._id, visit));
    await Promise.all(flushes);
    // the batch whose answer was lost went again (and again after the second failure)
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(await settledClicks(link._id, 4)).toBe(4);
    expect(await storedClicks(link._id)).toEqual({ received: 4, waiting: 0 });
  });
});
