import { env } from 'cloudflare:workers';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  brokerFilterEvents,
  brokerVetting,
  brokerVettingChanges,
  brokerVettingNames,
  brokerVettingNotices,
  callHistory,
  fmcsaCallDays,
  mailOutbox,
  mails,
} from '../db/schema';
import type { Db } from '../env';
import { d1Of, shardDb } from '../lib/d1';
import { randomId } from '../lib/ids';
import { addFilter, filterSave, teamWithMcs } from '../test/filters';
import { call, control, everyDb, otherShard, testEnv } from '../test/helpers';
import { authorityByDot } from './fmcsa';
import { vettingOfFilters } from './vetting.filters';
import { checkBroker, runVettingDaily, takeBudget } from './vetting.service';

const CONTROL = (testEnv as unknown as { FMCSA_STAND_IN_CONTROL: string }).FMCSA_STAND_IN_CONTROL;
const DAY = 86_400_000;
/** A fast gate for the tests that race many runs (the product's default is 3 a second). */
const fast = { ...testEnv, FMCSA_CALLS_PER_SECOND: '50' };

let seq = 0;
/** A broker of this test's own at the stand-in (so tests never share one), in a given state. */
async function broker(state: Record<string, string> = {}) {
  seq++;
  const dot = String(3_100_000 + Math.floor(Math.random() * 800_000) + seq);
  const mc = String(800_000 + Math.floor(Math.random() * 100_000) + seq);
  await putBroker(dot, { legalName: `TEST BROKER ${dot} LLC`, mcNumber: mc, brokerAuthorityStatus: 'A', bondInsuranceOnFile: '75', ...state });
  return { dot, mc, name: `TEST BROKER ${dot} LLC` };
}
const putBroker = async (dot: string, body: Record<string, string>) =>
  expect((await fetch(`${CONTROL}/carriers/${dot}`, { method: 'PUT', body: JSON.stringify(body) })).status).toBe(200);
const fault = async (dot: string, mode: 'ok' | 'timeout' | '429' | '503') =>
  expect((await fetch(`${CONTROL}/faults/${dot}`, { method: 'PUT', body: JSON.stringify({ mode }) })).status).toBe(200);
const callsFor = async (id: string) => (await (await fetch(`${CONTROL}/calls?dot=${id}`)).json()) as { path: string; at: number }[];
/** Runs the 10-minute job (first checks and retries) as the Cron Trigger would, through the development route. */
const queueJob = async (now = Date.now()) => {
  const res = await call('GET', `/api/dev/scheduled?cron=${encodeURIComponent('*/10 * * * *')}&now=${now}`);
  expect(res.status).toBe(200);
  return res.body.results['*/10 * * * *'] as Record<string, number>;
};

let t: Awaited<ReturnType<typeof teamWithMcs>>;
/** The shard of the team `t`, as the jobs see it (every company there): its brokers' records, mails and audit rows. */
let db: Db;
beforeAll(async () => {
  t = await teamWithMcs();
  db = shardDb(testEnv, t.manager.shard);
});
/** Sets when every broker record of every shard was last asked, but `except`. */
const allAskedAt = async (at: Date, except?: string) => {
  for (const { db } of everyDb()) {
    await db
      .update(brokerVetting)
      .set({ attemptedAt: at })
      .where(except ? sql`${brokerVetting.key} <> ${except}` : undefined);
  }
};

/** A filter of the team for the broker, and what the filter list's call answers for it afterwards. */
async function filterFor(fields: Record<string, unknown>) {
  const id = await addFilter(t.manager, filterSave(t, { name: `Broker ${randomId(6)}`, usersList: [t.agents[0].id, t.agents[1].id], ...fields }));
  const status = async (token = t.manager.token) => {
    const res = await call('POST', '/api/vetting/filters', { token, body: { filterIds: [id] } });
    expect(res.status).toBe(200);
    return res.body.records[id];
  };
  return { id, status };
}

describe('checking brokers at FMCSA (the stand-in)', () => {
  it('a saved filter makes the record without asking FMCSA; the job checks it: authority active, bond on file', async () => {
    const b = await broker();
    const filter = await filterFor({ dotNumber: b.dot });
    // saved: a record not checked yet, and no call in the user's request
    expect(await filter.status()).toMatchObject({ state: null, label: 'Not checked yet', checkedAt: null });
    expect(await callsFor(b.dot)).toHaveLength(0);
    const run = await queueJob();
    expect(run.checked).toBeGreaterThanOrEqual(1);
    const s = await filter.status();
    expect(s).toMatchObject({
      state: 'active',
      label: 'Authority active · bond on file',
      legalName: b.name,
      dotNumber: b.dot,
      brokerAuthority: 'A',
      bondOnFile: '75',
      lastError: null,
    });
    expect(Date.parse(s.checkedAt)).toBeGreaterThan(Date.now() - 60_000);
    // asked by DOT, with the webKey as QCMobile takes it
    expect((await callsFor(b.dot)).map((c) => c.path)).toEqual([`/qc/services/carriers/${b.dot}`]);
    // an agent of the team sees the same record
    expect((await filter.status(t.agents[0].token)).state).toBe('active');
  });

  it('a revoked broker authority reads "Broker authority inactive"; no bond reads "No bond on file"', async () => {
    const revoked = await broker({ brokerAuthorityStatus: 'I', bondInsuranceOnFile: '0' });
    const noBond = await broker({ bondInsuranceOnFile: '0' });
    const a = await filterFor({ dotNumber: revoked.dot });
    const b = await filterFor({ dotNumber: noBond.dot });
    await queueJob();
    expect(await a.status()).toMatchObject({ state: 'inactive', label: 'Broker authority inactive', brokerAuthority: 'I' });
    expect(await b.status()).toMatchObject({ state: 'no_bond', label: 'No bond on file', brokerAuthority: 'A', bondOnFile: '0' });
  });

  it('an MC is resolved to its DOT once, and asked by DOT from then on', async () => {
    const b = await broker();
    const filter = await filterFor({ mcNumber: b.mc });
    await queueJob();
    expect(await filter.status()).toMatchObject({ state: 'active', dotNumber: b.dot, mcNumber: b.mc });
    expect((await callsFor(b.mc)).map((c) => c.path)).toEqual([`/qc/services/carriers/docket-number/${b.mc}`]);
    expect(await checkBroker(fast, db, `mc:${b.mc}`)).toBe('checked');
    expect((await callsFor(b.dot)).map((c) => c.path)).toEqual([`/qc/services/carriers/${b.dot}`]);
  });

  it('a number FMCSA does not know reads "Not found at FMCSA"', async () => {
    const dot = String(3_950_000 + Math.floor(Math.random() * 40_000));
    const filter = await filterFor({ dotNumber: dot });
    await queueJob();
    expect(await filter.status()).toMatchObject({ state: 'not_found', label: 'Not found at FMCSA' });
    expect(await callsFor(dot)).toHaveLength(1);
  });

  for (const mode of ['timeout', '429', '503'] as const) {
    it(`FMCSA answering ${mode === 'timeout' ? 'nothing (a timeout)' : mode}: no error for the user, the last answer kept with its date, a retry later`, async () => {
      const b = await broker();
      const filter = await filterFor({ dotNumber: b.dot });
      await queueJob();
      const before = await filter.status();
      expect(before.state).toBe('active');
      await fault(b.dot, mode);
      // the daily job a day later meets the failure
      expect(await checkBroker(fast, db, `dot:${b.dot}`, new Date(Date.now() + DAY))).toBe('failed');
      const kept = await filter.status();
      expect(kept).toMatchObject({
        state: 'active',
        label: 'Authority active · bond on file',
        checkedAt: before.checkedAt,
        lastError: mode === 'timeout' ? 'timeout' : mode,
      });
      // Check now says FMCSA did not answer, answers 200 with the kept record
      const now = await call('POST', '/api/vetting/check', { token: t.manager.token, body: { filterId: filter.id } });
      expect(now.status).toBe(200);
      expect(now.body).toMatchObject({ message: 'FMCSA did not answer; the last answer is kept', record: { state: 'active', checkedAt: before.checkedAt } });
      // FMCSA is back: the 10-minute job retries the failed check after an hour, not before
      await fault(b.dot, 'ok');
      const calls = (await callsFor(b.dot)).length;
      await queueJob(Date.now() + 10 * 60_000);
      expect((await callsFor(b.dot)).length).toBe(calls);
      await queueJob(Date.now() + 2 * 3_600_000);
      expect((await callsFor(b.dot)).length).toBe(calls + 1);
      const after = await filter.status();
      expect(after.lastError).toBeNull();
      expect(Date.parse(after.checkedAt)).toBeGreaterThan(Date.parse(before.checkedAt));
    });
  }

  it('without a webKey: "not configured", nothing is asked, the filters work as before', async () => {
    const b = await broker();
    const filter = await filterFor({ dotNumber: b.dot });
    const off = { ...testEnv, FMCSA_WEBKEY: '' };
    expect(await runVettingDaily(off)).toEqual({ notConfigured: 1 });
    expect(await checkBroker(off, db, `dot:${b.dot}`)).toBe('not_configured');
    const answer = await vettingOfFilters(
      off,
      t.manager.db,
      { ...t.manager, parentId: null, isEmailVerified: true, subscriptionEndDate: null, isTrialPeriod: false, sessionId: '' },
      [filter.id],
    );
    expect(answer.configured).toBe(false);
    expect(await callsFor(b.dot)).toHaveLength(0);
    // the filter itself is saved and listed as ever
    const list = await call('POST', '/api/broker', { token: t.manager.token, body: { name: '', allMC: true } });
    expect(list.status).toBe(200);
    expect(list.body.map((x: { _id: string }) => x._id)).toContain(filter.id);
  });

  it('Check now is for managers of the team: an agent gets 403, another team 404; the manager gets the fresh record', async () => {
    const b = await broker({ bondInsuranceOnFile: '0' });
    const filter = await filterFor({ dotNumber: b.dot });
    const agent = await call('POST', '/api/vetting/check', { token: t.agents[0].token, body: { filterId: filter.id } });
    expect(agent.status).toBe(403);
    expect(agent.body.message).toBe('Only managers can check a broker at FMCSA');
    // another company, on another shard
    const other = await teamWithMcs(otherShard(t.manager.shard));
    expect((await call('POST', '/api/vetting/check', { token: other.manager.token, body: { filterId: filter.id } })).status).toBe(404);
    expect((await call('POST', '/api/vetting/filters', { token: other.manager.token, body: { filterIds: [filter.id] } })).body.records).toEqual({});
    expect(await callsFor(b.dot)).toHaveLength(0);
    const res = await call('POST', '/api/vetting/check', { token: t.manager.token, body: { filterId: filter.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Checked at FMCSA', record: { state: 'no_bond', label: 'No bond on file' } });
    expect((await call('POST', '/api/vetting/check', { token: t.manager.token, body: {} })).status).toBe(400);
  });

  it('reads the authority records of a DOT (content[].carrierAuthority)', async () => {
    const b = await broker();
    const answer = await authorityByDot(fast, b.dot);
    expect(answer).toEqual({
      kind: 'found',
      value: [{ docketNumber: b.mc, prefix: 'MC', brokerAuthorityStatus: 'A', commonAuthorityStatus: 'N', contractAuthorityStatus: 'N' }],
    });
  });

  it("the extension's list carries the record of a filter's broker, and a status change changes its ETag", async () => {
    const b = await broker({ brokerAuthorityStatus: 'I' });
    const filter = await filterFor({ dotNumber: b.dot, allMC: true });
    const first = await call('GET', '/api/broker/minified', { token: t.agents[0].token });
    expect(first.body.find((x: { _id: string }) => x._id === filter.id).vetting).toEqual({ state: null, checkedAt: null });
    await queueJob();
    const second = await call('GET', '/api/broker/minified', { token: t.agents[0].token, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(second.status).toBe(200);
    expect(second.body.find((x: { _id: string }) => x._id === filter.id).vetting).toMatchObject({ state: 'inactive' });
  });
});

describe('the daily job', () => {
  it('asks the oldest first, spaced at the gate, and stops at the daily budget', async () => {
    const day = Date.UTC(2031, 0, 10, 5);
    // every other record is fresh for this run
    await allAskedAt(new Date(day));
    const brokers = [];
    for (let i = 0; i < 5; i++) brokers.push(await broker());
    for (const [i, b] of brokers.entries()) {
      await db.insert(brokerVetting).values({
        key: `dot:${b.dot}`,
        dotNumber: b.dot,
        createdAt: new Date(),
        attemptedAt: new Date(day - (2 + i) * DAY),
        checkedAt: new Date(day - (2 + i) * DAY),
      });
    }
    const env = { ...testEnv, FMCSA_DAILY_BUDGET: '3', FMCSA_CALLS_PER_SECOND: '4' };
    const result = await runVettingDaily(env, new Date(day));
    expect(result).toMatchObject({ due: 3, checked: 3 });
    // the three asked longest ago: the last three made
    const asked = await Promise.all(brokers.map(async (b) => (await callsFor(b.dot)).map((c) => c.at)));
    expect(asked.map((a) => a.length)).toEqual([0, 0, 1, 1, 1]);
    const times = asked.flat().sort((a, b) => a - b);
    // four a second: the gate gives them moments 250 ms apart. The stand-in sees them arrive with
    // a busy machine's timer and loopback delays, which shift one call's arrival against the next
    // (208 ms apart was seen): no two together, and the three spread over about half a second
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(150);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(2 * 250 - 100);
    const [used] = await control.select().from(fmcsaCallDays).where(eq(fmcsaCallDays.day, '2031-01-10'));
    expect(used?.calls).toBe(3);
    // the budget is spent for the day: a second run asks nothing
    await db
      .update(brokerVetting)
      .set({ attemptedAt: new Date(day - 3 * DAY) })
      .where(eq(brokerVetting.key, `dot:${brokers[0]!.dot}`));
    expect(await runVettingDaily(env, new Date(day + 3_600_000))).toMatchObject({ budget: 1, checked: 0 });
    expect(await callsFor(brokers[0]!.dot)).toHaveLength(0);
    // the next day it goes on
    expect(await runVettingDaily(env, new Date(day + DAY))).toMatchObject({ checked: 3 });
  });

  it('makes the records of filters that have none (saved before vetting, imported) and checks them', async () => {
    const b = await broker({ brokerAuthorityStatus: 'I' });
    const filter = await filterFor({ mcNumber: b.mc });
    await db.delete(brokerVetting).where(eq(brokerVetting.key, `mc:${b.mc}`));
    expect(await filter.status()).toMatchObject({ state: null, label: 'Not checked yet' });
    await allAskedAt(new Date(Date.UTC(2033, 0, 1)));
    const result = await runVettingDaily(fast, new Date(Date.UTC(2033, 0, 1, 5)));
    expect(result).toMatchObject({ due: 1, checked: 1 });
    expect(await filter.status()).toMatchObject({ state: 'inactive', dotNumber: b.dot });
  });

  it('the budget is exact under 40 simultaneous takers', async () => {
    const env = { ...testEnv, FMCSA_DAILY_BUDGET: '10' };
    for (const round of [1, 2, 3]) {
      const now = new Date(Date.UTC(2032, 0, round, 5));
      const taken = await Promise.all(Array.from({ length: 40 }, () => takeBudget(env, control, now)));
      expect(taken.filter(Boolean)).toHaveLength(10);
      const [used] = await control
        .select()
        .from(fmcsaCallDays)
        .where(eq(fmcsaCallDays.day, now.toISOString().slice(0, 10)));
      expect(used?.calls).toBe(10);
    }
  });
});

describe('the watch list', () => {
  it('a status change mails each watching manager once, however many runs race, and enters the filter audit trail', async () => {
    const b = await broker();
    const filter = await filterFor({ dotNumber: b.dot });
    // a second team contacted the broker (by its legal name) 10 days ago; a third long ago; a fourth
    // never: other companies on the shard that keeps this broker's record
    const contacted = await teamWithMcs(t.manager.shard);
    const longAgo = await teamWithMcs(t.manager.shard);
    await teamWithMcs(t.manager.shard);
    const logCall = (team: typeof contacted, at: number) =>
      team.manager.db.insert(callHistory).values({
        id: randomId(),
        userId: team.agents[0].id,
        teamId: team.manager.id,
        mcSettingId: team.mcA,
        mcName: 'MC Alpha',
        kind: 'call',
        brokerName: b.name.toLowerCase(),
        callDate: new Date(at),
        clientId: randomId(),
      });
    await logCall(contacted, Date.now() - 10 * DAY);
    await logCall(longAgo, Date.now() - 45 * DAY);
    const key = `dot:${b.dot}`;
    expect(await checkBroker(fast, db, key)).toBe('checked');
    const vettingMails = async () => (await db.select().from(mails).where(eq(mails.kind, 'vetting'))).filter((m) => m.subject.includes(b.name));

    // revoked: 30 runs at once, 3 rounds
    await putBroker(b.dot, { brokerAuthorityStatus: 'I' });
    for (let round = 0; round < 3; round++) {
      const outcomes = await Promise.all(Array.from({ length: 30 }, () => checkBroker(fast, db, key)));
      expect(outcomes.filter((o) => o === 'changed')).toHaveLength(round === 0 ? 1 : 0);
    }
    let sent = await vettingMails();
    expect(sent.map((m) => m.to).sort()).toEqual([t.manager.email, contacted.manager.email].sort());
    expect(sent[0]!.subject).toContain('Broker authority inactive');
    const [kept] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, sent[0]!.id));
    expect(kept!.text).toContain('it was "Authority active · bond on file" and is now "Broker authority inactive"');
    expect(await db.select().from(brokerVettingChanges).where(eq(brokerVettingChanges.key, key))).toHaveLength(1);
    expect(await db.select().from(brokerVettingNotices).where(eq(brokerVettingNotices.key, key))).toHaveLength(2);
    const history = await call('GET', `/api/broker/${filter.id}/history`, { token: t.manager.token });
    const vettingEvents = history.body.filter((e: { kind: string }) => e.kind === 'vetting');
    expect(vettingEvents).toHaveLength(1);
    expect(vettingEvents[0]).toMatchObject({ actor: { name: 'FMCSA' }, changes: { status: ['Authority active · bond on file', 'Broker authority inactive'] } });

    // reinstated: 20 daily jobs at once through the development route
    await putBroker(b.dot, { brokerAuthorityStatus: 'A' });
    await allAskedAt(new Date(Date.now() + 3 * DAY), key);
    await db
      .update(brokerVetting)
      .set({ attemptedAt: new Date(Date.now() - 2 * DAY) })
      .where(eq(brokerVetting.key, key));
    const later = Date.now() + DAY;
    const runs = await Promise.all(Array.from({ length: 20 }, () => call('GET', `/api/dev/scheduled?cron=${encodeURIComponent('0 5 * * *')}&now=${later}`)));
    expect(runs.every((r) => r.status === 200)).toBe(true);
    sent = await vettingMails();
    expect(sent).toHaveLength(4);
    expect(sent.filter((m) => m.subject.includes('Authority active'))).toHaveLength(2);
    expect(await db.select().from(brokerVettingChanges).where(eq(brokerVettingChanges.key, key))).toHaveLength(2);
    const events = await db.select().from(brokerFilterEvents).where(eq(brokerFilterEvents.filterId, filter.id));
    expect(events.filter((e) => e.kind === 'vetting')).toHaveLength(2);
  }, 120_000);
});

describe('one record per broker, however teams name it', () => {
  /** What the records and names hold for a broker's numbers. */
  const recordsFor = async (b: { dot: string; mc: string }) => {
    const rows = await db
      .select()
      .from(brokerVetting)
      .where(sql`${brokerVetting.dotNumber} = ${b.dot} or ${brokerVetting.key} in (${`dot:${b.dot}`}, ${`mc:${b.mc}`})`);
    const links = await db
      .select()
      .from(brokerVettingNames)
      .where(inArray(brokerVettingNames.name, [`dot:${b.dot}`, `mc:${b.mc}`]));
    return { rows, links: Object.fromEntries(links.map((l) => [l.name, l.key])) };
  };

  it('a team naming it by MC and another by DOT: one record, one FMCSA call a run, one mail per manager per change', async () => {
    const b = await broker();
    const byMc = await filterFor({ mcNumber: b.mc });
    // another company on the same shard (each shard keeps the records of its own teams' brokers)
    const dotTeam = await teamWithMcs(t.manager.shard);
    const dotFilterId = await addFilter(dotTeam.manager, filterSave(dotTeam, { name: `Dot Team ${randomId(6)}`, dotNumber: b.dot }));
    const dotStatus = async () =>
      (await call('POST', '/api/vetting/filters', { token: dotTeam.manager.token, body: { filterIds: [dotFilterId] } })).body.records[dotFilterId];

    // the first run asks once (by MC, which names the DOT) and ties both names to one record
    await queueJob();
    expect([...(await callsFor(b.mc)), ...(await callsFor(b.dot))].map((c) => c.path)).toEqual([`/qc/services/carriers/docket-number/${b.mc}`]);
    const after = await recordsFor(b);
    expect(after.rows).toHaveLength(1);
    expect(after.links).toEqual({ [`dot:${b.dot}`]: after.rows[0]!.key, [`mc:${b.mc}`]: after.rows[0]!.key });
    expect(await byMc.status()).toMatchObject({ state: 'active', dotNumber: b.dot, mcNumber: b.mc });
    expect(await dotStatus()).toMatchObject({ state: 'active', dotNumber: b.dot, checkedAt: (await byMc.status()).checkedAt });

    // the daily runs ask once a run, by DOT
    for (const day of [1, 2]) {
      await allAskedAt(new Date(Date.now() + 5 * DAY), after.rows[0]!.key);
      await db
        .update(brokerVetting)
        .set({ attemptedAt: new Date(Date.now() - 2 * DAY) })
        .where(eq(brokerVetting.key, after.rows[0]!.key));
      if (day === 2) await putBroker(b.dot, { brokerAuthorityStatus: 'I' });
      const run = await call('GET', `/api/dev/scheduled?cron=${encodeURIComponent('0 5 * * *')}&now=${Date.now() + day * 60_000}`);
      expect(run.status).toBe(200);
      expect((await callsFor(b.dot)).map((c) => c.path)).toEqual(Array.from({ length: day }, () => `/qc/services/carriers/${b.dot}`));
    }
    // revoked: each watching manager is mailed once, each filter's history has one status change
    const sent = (await db.select().from(mails).where(eq(mails.kind, 'vetting'))).filter((m) => m.subject.includes(b.name));
    expect(sent.map((m) => m.to).sort()).toEqual([t.manager.email, dotTeam.manager.email].sort());
    for (const [id, token] of [
      [byMc.id, t.manager.token],
      [dotFilterId, dotTeam.manager.token],
    ] as const) {
      const history = (await call('GET', `/api/broker/${id}/history`, { token })).body as { kind: string }[];
      expect(history.filter((e) => e.kind === 'vetting')).toHaveLength(1);
    }
    expect(await dotStatus()).toMatchObject({ state: 'inactive' });
    expect(await byMc.status()).toMatchObject({ state: 'inactive' });
    // a later filter naming it by either number adds no record
    await addFilter(dotTeam.manager, filterSave(dotTeam, { name: `Dot Team MC ${randomId(6)}`, mcNumber: b.mc }));
    expect((await recordsFor(b)).rows).toHaveLength(1);
  }, 120_000);

  it('simultaneous checks of the two names fold them once: one record, every name leading to it', async () => {
    for (let round = 0; round < 3; round++) {
      const b = await broker();
      await filterFor({ mcNumber: b.mc });
      await filterFor({ dotNumber: b.dot, name: `Dot ${randomId(6)}` });
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => checkBroker(fast, db, i % 2 ? `mc:${b.mc}` : `dot:${b.dot}`)));
      expect(outcomes.every((o) => o === 'checked' || o === 'raced')).toBe(true);
      const { rows, links } = await recordsFor(b);
      expect(rows).toHaveLength(1);
      expect(links).toEqual({ [`dot:${b.dot}`]: rows[0]!.key, [`mc:${b.mc}`]: rows[0]!.key });
      expect(rows[0]).toMatchObject({ state: 'active', dotNumber: b.dot, mcNumber: b.mc });
    }
  }, 120_000);

  it('the migration folds the twins made before it: the newest answer stays, every name leads to the one record', async () => {
    const dot = String(3_990_000 + Math.floor(Math.random() * 9_000));
    const [mc1, mc2, lone] = [1, 2, 3].map((i) => String(880_000 + Math.floor(Math.random() * 9_000) * 10 + i));
    const start = Date.now();
    const at = (daysAgo: number) => new Date(start - daysAgo * DAY);
    await db.insert(brokerVetting).values([
      { key: `dot:${dot}`, dotNumber: dot, state: 'active', legalName: 'OLD NAME LLC', checkedAt: at(3), attemptedAt: at(3), createdAt: at(30) },
      {
        key: `mc:${mc1}`,
        dotNumber: dot,
        mcNumber: mc1,
        state: 'inactive',
        legalName: 'NEW NAME LLC',
        brokerAuthority: 'I',
        checkedAt: at(1),
        attemptedAt: at(1),
        createdAt: at(20),
      },
      { key: `mc:${mc2}`, dotNumber: dot, mcNumber: mc2, state: 'active', checkedAt: at(2), attemptedAt: at(2), createdAt: at(10) },
      { key: `mc:${lone}`, mcNumber: lone, createdAt: at(5) },
    ]);
    const filterOnMc = await filterFor({ mcNumber: mc1 });
    const migration = (env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS.find((m) =>
      m.name.includes('_merge_vetting_twins'),
    )!;
    const shard = d1Of(testEnv, t.manager.shard);
    for (let run = 0; run < 2; run++) await shard.batch(migration.queries.map((q) => shard.prepare(q)));
    const rows = await db
      .select()
      .from(brokerVetting)
      .where(inArray(brokerVetting.key, [`dot:${dot}`, `mc:${mc1}`, `mc:${mc2}`, `mc:${lone}`]));
    expect(rows.map((r) => r.key).sort()).toEqual([`dot:${dot}`, `mc:${lone}`].sort());
    expect(rows.find((r) => r.key === `dot:${dot}`)).toMatchObject({ state: 'inactive', legalName: 'NEW NAME LLC', brokerAuthority: 'I', checkedAt: at(1) });
    const links = await db
      .select()
      .from(brokerVettingNames)
      .where(inArray(brokerVettingNames.key, [`dot:${dot}`, `mc:${lone}`]));
    expect(Object.fromEntries(links.map((l) => [l.name, l.key]))).toEqual({
      [`dot:${dot}`]: `dot:${dot}`,
      [`mc:${mc1}`]: `dot:${dot}`,
      [`mc:${mc2}`]: `dot:${dot}`,
      [`mc:${lone}`]: `mc:${lone}`,
    });
    // the MC team's filter reads the one record
    expect(await filterOnMc.status()).toMatchObject({ state: 'inactive', dotNumber: dot });
  });
});

describe('every shard', () => {
  it('a team on SHARD_2 has its brokers vetted and its manager mailed by the daily job; the day budget is one for every shard', async () => {
    const day = Date.UTC(2035, 2, 10, 5);
    await allAskedAt(new Date(day));
    const home = 'SHARD_2';
    const away = otherShard(home);
    const onHome = await teamWithMcs(home);
    const onAway = await teamWithMcs(away);
    expect([onHome.manager.shard, onAway.manager.shard]).toEqual([home, away]);
    const saved = async (team: typeof onHome) => {
      const b = await broker();
      const id = await addFilter(team.manager, filterSave(team, { name: `Shard ${randomId(6)}`, dotNumber: b.dot }));
      return { ...b, id, team };
    };
    const brokers = [await saved(onHome), await saved(onHome), await saved(onAway), await saved(onAway)];
    const calls = async () => (await Promise.all(brokers.map(async (b) => (await callsFor(b.dot)).length))).reduce((a, n) => a + n, 0);
    const status = async (b: (typeof brokers)[number]) =>
      (await call('POST', '/api/vetting/filters', { token: b.team.manager.token, body: { filterIds: [b.id] } })).body.records[b.id];

    // four brokers due on two shards, a budget of three: three calls in all, then the day is spent
    const env = { ...testEnv, FMCSA_DAILY_BUDGET: '3', FMCSA_CALLS_PER_SECOND: '50' };
    expect(await runVettingDaily(env, new Date(day))).toMatchObject({ checked: 3, budget: 1 });
    expect(await calls()).toBe(3);
    const dayRows = async (d: number) =>
      Promise.all(
        everyDb().map(async ({ shard, db }) => [
          shard,
          (
            await db
              .select()
              .from(fmcsaCallDays)
              .where(eq(fmcsaCallDays.day, new Date(d).toISOString().slice(0, 10)))
          )[0]?.calls ?? 0,
        ]),
      );
    // the count is the control plane's alone
    expect(Object.fromEntries(await dayRows(day))).toEqual(Object.fromEntries(everyDb().map(({ shard }) => [shard, shard === 'DB' ? 3 : 0])));
    expect(await runVettingDaily(env, new Date(day + 3_600_000))).toMatchObject({ checked: 0, budget: 1 });
    expect(await calls()).toBe(3);
    // the next UTC day (before the three asked are stale) the fourth is asked, whichever shard holds it
    expect(await runVettingDaily(env, new Date(day + 19 * 3_600_000))).toMatchObject({ due: 1, checked: 1 });
    expect(await calls()).toBe(4);
    for (const b of brokers) expect(await status(b)).toMatchObject({ state: 'active', dotNumber: b.dot });
    // each record is in its team's shard only
    for (const b of brokers) {
      for (const { shard, db } of everyDb()) {
        const rows = await db
          .select()
          .from(brokerVetting)
          .where(eq(brokerVetting.key, `dot:${b.dot}`));
        expect({ shard, n: rows.length }).toEqual({ shard, n: shard === b.team.manager.shard ? 1 : 0 });
      }
    }

    // SHARD_2's broker is revoked: the daily job two days later mails its team's manager, once
    const revoked = brokers[0]!;
    await putBroker(revoked.dot, { brokerAuthorityStatus: 'I' });
    const later = day + 3 * DAY;
    await allAskedAt(new Date(later), `dot:${revoked.dot}`);
    expect(await runVettingDaily(env, new Date(later))).toMatchObject({ due: 1, changed: 1 });
    expect(await status(revoked)).toMatchObject({ state: 'inactive', label: 'Broker authority inactive' });
    const mailed = await Promise.all(
      everyDb().map(async ({ shard, db }) => ({
        shard,
        to: (await db.select().from(mails).where(eq(mails.kind, 'vetting'))).filter((m) => m.subject.includes(revoked.name)).map((m) => m.to),
      })),
    );
    expect(mailed.filter((m) => m.to.length)).toEqual([{ shard: home, to: [onHome.manager.email] }]);
    const history = (await call('GET', `/api/broker/${revoked.id}/history`, { token: onHome.manager.token })).body as { kind: string }[];
    expect(history.filter((e) => e.kind === 'vetting')).toHaveLength(1);
    // the away team's manager hears nothing of another company's broker
    expect(mailed.flatMap((m) => m.to)).not.toContain(onAway.manager.email);
  }, 120_000);
});
