import { beforeAll, describe, expect, it } from 'vitest';
import { historyDatabases } from '../jobs';
import { COMMON_MESSAGES, GENERAL_MESSAGES } from '../lib/common-messages';
import { allShards, d1Of } from '../lib/d1';
import { randomId } from '../lib/ids';
import { messageOf } from '../lib/messages';
import { fetchWorker } from '../test/dispatch';
import { call, createTeam, createUser, errorBody, homeOfUser, otherShard, type TestUser, testEnv } from '../test/helpers';
import { USER_MESSAGES } from '../users/users.schema';
import { type ArchiveStep, archiveBoundary, archiveSettings, archiveTeamMonth, deleteTeamArchive, monthOf, monthRange, runHistoryArchive } from './archive-job';
import { type ArchivedRow, archiveKey, readArchive, writeArchive } from './archive-store';
import { HISTORY_MESSAGES } from './history.messages';
import { DAY_MS } from './history.schema';

type Team = Awaited<ReturnType<typeof createTeam>>;

/** The shard that holds a team's rows: its manager's company's (docs/decisions/0174-company-shards.md). */
const d1 = async (teamId: string) => d1Of(testEnv, (await homeOfUser(teamId)).shard);
const bucket = testEnv.HISTORY_ARCHIVE;
const NOW = Date.now();
const HOT_DAYS = 400;
/** Months past the hot window (now minus 400 days falls after them) and one inside it. */
const OLD = monthOf(NOW - 470 * DAY_MS);
const OLDER = monthOf(NOW - 540 * DAY_MS);
const HOT = monthOf(NOW - 100 * DAY_MS);
/** One run over every database, one after the other, as the Cron Trigger runs it (jobs.ts): the results summed. */
async function run(opts: { now?: number; onStep?: Parameters<typeof runHistoryArchive>[2]['onStep']; deleteBatch?: number } = {}) {
  const total = { teams: 0, months: 0, rows: 0, written: 0, skipped: 0, failed: 0, more: 0 };
  for (const { name, db } of historyDatabases(testEnv)) {
    const result = await runHistoryArchive(db, bucket, { now: NOW, hotDays: HOT_DAYS, database: name, ...opts });
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += result[key];
  }
  return total;
}

/**
 * `n` contacts of the team in the month, spread over it (distinct times, so every order is one
 * order), by the manager and its agents, calls and e-mails, some with a line: inserted as the
 * logging call stores them (the hourly counts follow through the triggers).
 */
async function addRows(team: Team, month: string, n: number): Promise<void> {
  const [from, to] = monthRange(month);
  const people = [team.manager, ...team.agents];
  const rows = Array.from({ length: n }, (_, i) => {
    const email = i % 3 === 0;
    return {
      id: randomId(),
      user_id: people[i % people.length]!.id,
      team_id: team.manager.id,
      mc_setting_id: `mc-${team.manager.id}`,
      mc_name: i % 2 ? 'Swift Haul MC 104233' : 'Bravo "Best", Inc',
      kind: email ? 'email' : 'call',
      contact: email ? `ops${i}@broker.example` : `+1312555${String(1000 + i)}`,
      broker_name: `Broker ${i % 7}`,
      address: `${100 + i} Main St, Springfield, IL`,
      origin: 'Chicago, IL',
      dest: 'Dallas, TX',
      load_date: '2024-05-10',
      call_date: from + Math.floor(((i + 0.5) * (to - from)) / n),
      client_id: randomId(),
      line: i % 2 ? 2 : null,
      from_number: i % 2 && !email ? '+13125550100' : '',
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    const columns = Object.keys(rows[0]!);
    await (await d1(team.manager.id))
      .prepare(`insert into call_history (${columns.join(', ')}) select ${columns.map((c) => `value ->> '$.${c}'`).join(', ')} from json_each(?1)`)
      .bind(JSON.stringify(rows.slice(i, i + 500)))
      .run();
  }
}

/** The team's D1 rows of the month, every column, by id. */
async function d1Rows(teamId: string, month: string): Promise<ArchivedRow[]> {
  const [from, to] = monthRange(month);
  return (
    await (
      await d1(teamId)
    )
      .prepare('select * from call_history where team_id = ?1 and call_date >= ?2 and call_date < ?3 order by id')
      .bind(teamId, from, to)
      .all<ArchivedRow>()
  ).results;
}
const byId = (rows: ArchivedRow[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
async function objectRows(teamId: string, month: string): Promise<ArchivedRow[] | null> {
  const object = await readArchive(bucket, archiveKey(teamId, month));
  return object ? byId(object.rows) : null;
}
async function hours(teamId: string) {
  return (
    await (
      await d1(teamId)
    )
      .prepare('select hour, calls, emails from call_history_hours where team_id = ?1 and (calls > 0 or emails > 0) order by hour')
      .bind(teamId)
      .all()
  ).results;
}
async function ledger(teamId: string) {
  return (await (await d1(teamId)).prepare('select * from call_history_archive where team_id = ?1 order by month').bind(teamId).all()).results;
}
async function ledgerUsers(teamId: string) {
  return (
    await (
      await d1(teamId)
    )
      .prepare('select user_id, month, rows from call_history_archive_users where team_id = ?1 order by month, user_id')
      .bind(teamId)
      .all()
  ).results;
}

/** The month's range as Contact History asks it (at most 40 days). */
const monthQuery = (month: string) => {
  const [from, to] = monthRange(month);
  return { dateFrom: new Date(from).toISOString(), dateTo: new Date(to).toISOString() };
};
const page = (user: TestUser, body: Record<string, unknown>) => call('POST', '/api/callHistory/page', { token: user.token, body });
const list = (user: TestUser, managerId?: string) =>
  call('GET', `/api/callHistory/archive${managerId ? `?managerId=${managerId}` : ''}`, { token: user.token });
const exportMonth = (user: TestUser, body: Record<string, unknown>) => call('POST', '/api/callHistory/archive/export', { token: user.token, body });
const restore = (user: TestUser, body: Record<string, unknown>) => call('POST', '/api/callHistory/archive/restore', { token: user.token, body });

describe('the archive job (docs/decisions/0171-history-retention-r2.md)', () => {
  it('the hot window is a setting of whole days, at least 41; the edge is the start of its month', () => {
    expect(archiveSettings({})).toEqual({ hotDays: 400, restoreDays: 30 });
    expect(archiveSettings({ HISTORY_HOT_DAYS: '500', HISTORY_RESTORE_DAYS: '7' })).toEqual({ hotDays: 500, restoreDays: 7 });
    expect(() => archiveSettings({ HISTORY_HOT_DAYS: '10' })).toThrow('HISTORY_HOT_DAYS');
    expect(() => archiveSettings({ HISTORY_RESTORE_DAYS: 'soon' })).toThrow('HISTORY_RESTORE_DAYS');
    expect(archiveBoundary(Date.UTC(2025, 3, 15), 400)).toBe(Date.UTC(2024, 2, 1));
  });

  it('moves whole old months to one object each, keeps the hot month, and the screen says the month is archived', async () => {
    const team = await createTeam();
    await addRows(team, OLDER, 40);
    await addRows(team, OLD, 37);
    await addRows(team, HOT, 12);
    const before = { older: await d1Rows(team.manager.id, OLDER), old: await d1Rows(team.manager.id, OLD), hot: await d1Rows(team.manager.id, HOT) };
    const hoursBefore = await hours(team.manager.id);
    const hotHours = hoursBefore.filter((h: any) => h.hour >= monthRange(HOT)[0] / 3_600_000);

    const result = await run();
    expect(result.failed).toBe(0);
    expect(await d1Rows(team.manager.id, OLDER)).toEqual([]);
    expect(await d1Rows(team.manager.id, OLD)).toEqual([]);
    expect(await d1Rows(team.manager.id, HOT)).toEqual(before.hot);
    // the rows exactly as stored, client id included, one object per team-month, named by team and month alone
    expect(await objectRows(team.manager.id, OLD)).toEqual(before.old);
    expect(await objectRows(team.manager.id, OLDER)).toEqual(before.older);
    const head = await bucket.head(`history/${team.manager.id}/${OLD}.ndjson.gz`);
    expect(head?.customMetadata?.rows).toBe('37');
    // the hourly counts: the old months' hours are gone (no zero rows left behind), the hot month's unchanged
    expect(await hours(team.manager.id)).toEqual(hotHours);
    const leftHours = await (await d1(team.manager.id))
      .prepare('select count(*) as n from call_history_hours where team_id = ?1 and hour < ?2')
      .bind(team.manager.id, monthRange(HOT)[0] / 3_600_000)
      .first<{ n: number }>();
    expect(leftHours?.n).toBe(0);
    expect(await ledger(team.manager.id)).toEqual([
      { team_id: team.manager.id, month: OLDER, rows: 40, calls: 26, emails: 14, state: 'archived', archived_at: NOW, restored_until: null },
      { team_id: team.manager.id, month: OLD, rows: 37, calls: 24, emails: 13, state: 'archived', archived_at: NOW, restored_until: null },
    ]);

    // Contact History: the range's archived month is said, with the month's count, not shown as an empty list
    const res = await page(team.manager, { ...monthQuery(OLD) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 0, rows: [], archived: [{ month: OLD, contacts: 37, state: 'archived', restoredUntil: null }] });
    const agent = await page(team.agents[0], { ...monthQuery(OLD) });
    // an agent's own contacts of the month (the manager and the two agents logged in turn)
    expect(agent.body.archived).toEqual([{ month: OLD, contacts: 12, state: 'archived', restoredUntil: null }]);
    // the spec's calls answer the rows alone: a header names the archived months
    const rows = await call('POST', '/api/callHistory/getHistory', { token: team.manager.token, body: monthQuery(OLD) });
    expect(rows.body).toEqual([]);
    expect(rows.headers.get('x-archived-months')).toBe(OLD);
    const hot = await page(team.manager, { ...monthQuery(HOT) });
    expect(hot.body).toMatchObject({ total: 12, archived: [] });
  });

  it('an object is only written over the version its writer read: a write from a stale read is refused and changes nothing', async () => {
    const key = `history/cas-${randomId()}/${OLD}.ndjson.gz`;
    const row = (id: string) => ({ id, user_id: 'u', team_id: 't', call_date: 1, kind: 'call' }) as ArchivedRow;
    expect(await writeArchive(bucket, key, [row('a')], null)).toBe(true);
    // a second "create" finds it there
    expect(await writeArchive(bucket, key, [row('b')], null)).toBe(false);
    const first = (await readArchive(bucket, key))!;
    expect(await writeArchive(bucket, key, [row('a'), row('c')], first)).toBe(true);
    // the first read is stale now: its writer must read again and merge
    expect(await writeArchive(bucket, key, [row('a'), row('d')], first)).toBe(false);
    expect((await readArchive(bucket, key))!.rows.map((r) => r.id)).toEqual(['c', 'a']);
    await bucket.delete(key);
  });

  it('a month moved twice changes nothing: no write, the same object, ledger and rows', async () => {
    const team = await createTeam();
    await addRows(team, OLD, 25);
    await run();
    const key = archiveKey(team.manager.id, OLD);
    const first = await bucket.head(key);
    const state = { ledger: await ledger(team.manager.id), users: await ledgerUsers(team.manager.id), rows: await objectRows(team.manager.id, OLD) };
    await run({ now: NOW + 3_600_000 });
    expect(await archiveTeamMonth(await d1(team.manager.id), bucket, team.manager.id, OLD, { now: NOW + 7_200_000 })).toEqual({
      archived: 0,
      deleted: 0,
      wrote: false,
      skipped: false,
    });
    const second = await bucket.head(key);
    expect(second?.etag).toBe(first?.etag);
    expect(second?.uploaded.getTime()).toBe(first?.uploaded.getTime());
    expect({ ledger: await ledger(team.manager.id), users: await ledgerUsers(team.manager.id), rows: await objectRows(team.manager.id, OLD) }).toEqual(state);
  });

  it('restore puts the month back exactly (rows and hourly counts), and after its days it moves out again unchanged', async () => {
    const team = await createTeam();
    await addRows(team, OLD, 60);
    const rows = await d1Rows(team.manager.id, OLD);
    const hoursBefore = await hours(team.manager.id);
    await run();
    const key = archiveKey(team.manager.id, OLD);
    const etag = (await bucket.head(key))?.etag;

    const res = await restore(team.manager, { month: OLD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...messageOf(HISTORY_MESSAGES.archiveRestored),
      month: { month: OLD, contacts: 60, state: 'restored', restoredUntil: expect.any(String) },
    });
    let until = new Date(res.body.month.restoredUntil).getTime();
    expect(until - Date.now()).toBeGreaterThan(29 * DAY_MS);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * DAY_MS);
    expect(await d1Rows(team.manager.id, OLD)).toEqual(rows);
    expect(await hours(team.manager.id)).toEqual(hoursBefore);
    // twice: nothing doubles (insert or ignore on the id and the (user, client id) key); its days start again
    const twice = await restore(team.manager, { month: OLD });
    expect(twice.status).toBe(200);
    until = new Date(twice.body.month.restoredUntil).getTime();
    expect(await d1Rows(team.manager.id, OLD)).toEqual(rows);
    expect(await hours(team.manager.id)).toEqual(hoursBefore);
    // the screen shows the rows again, and says they are restored until when
    const shown = await page(team.manager, { ...monthQuery(OLD), pageSize: 50 });
    expect(shown.body).toMatchObject({ total: 60, archived: [{ month: OLD, contacts: 60, state: 'restored' }] });

    // within its days the job leaves it
    await run();
    expect(await d1Rows(team.manager.id, OLD)).toEqual(rows);
    // after them it moves out again: the same object (nothing to add), the rows gone, the counts back to none
    await run({ now: until - 1 });
    expect(await d1Rows(team.manager.id, OLD)).toEqual(rows);
    const again = await run({ now: until + 1 });
    expect(again).toMatchObject({ failed: 0 });
    expect(await d1Rows(team.manager.id, OLD)).toEqual([]);
    expect((await bucket.head(key))?.etag).toBe(etag);
    expect(await objectRows(team.manager.id, OLD)).toEqual(rows);
    expect(await ledger(team.manager.id)).toMatchObject([{ month: OLD, rows: 60, state: 'archived', restored_until: null }]);
    expect(await hours(team.manager.id)).toEqual([]);
  });

  // a run killed after each step, then run again: never a row in neither place, none twice, the object right
  const crashes: { step: ArchiveStep; batch?: number }[] = [
    { step: 'written' },
    { step: 'verified' },
    { step: 'ledger' },
    { step: 'deleted', batch: 0 },
    { step: 'deleted', batch: 2 },
  ];
  for (const crash of crashes) {
    it(`a run killed after "${crash.step}"${crash.batch === undefined ? '' : ` (delete batch ${crash.batch + 1} of 4)`}, then run again, ends right`, async () => {
      const team = await createTeam();
      await addRows(team, OLD, 170);
      await addRows(team, OLDER, 30);
      const original = await d1Rows(team.manager.id, OLD);
      const olderRows = await d1Rows(team.manager.id, OLDER);
      const killed = new Error('killed');
      const onStep = (step: ArchiveStep, info: { teamId: string; month: string; batch?: number }) => {
        if (info.teamId === team.manager.id && info.month === OLD && step === crash.step && (crash.batch === undefined || info.batch === crash.batch))
          throw killed;
      };
      await expect(run({ onStep, deleteBatch: 50 })).rejects.toBe(killed);

      // at the crash: every row in D1 or in the object (or both), the same row in each
      const inD1 = await d1Rows(team.manager.id, OLD);
      const inR2 = (await objectRows(team.manager.id, OLD)) ?? [];
      const union = new Map([...inR2, ...inD1].map((r) => [r.id, r]));
      expect(byId([...union.values()])).toEqual(original);
      for (const r of inD1) if (inR2.some((o) => o.id === r.id)) expect(inR2.find((o) => o.id === r.id)).toEqual(r);
      // what the screen counts is what D1 holds
      const partial = await page(team.manager, { ...monthQuery(OLD) });
      expect(partial.body.total).toBe(inD1.length);

      await run({ deleteBatch: 50 });
      expect(await d1Rows(team.manager.id, OLD)).toEqual([]);
      expect(await objectRows(team.manager.id, OLD)).toEqual(original);
      expect(await objectRows(team.manager.id, OLDER)).toEqual(olderRows);
      expect(await ledger(team.manager.id)).toMatchObject([
        { month: OLDER, rows: 30, state: 'archived' },
        { month: OLD, rows: 170, state: 'archived' },
      ]);
      expect(await hours(team.manager.id)).toEqual([]);
      // and a restore then brings back every row once
      expect((await restore(team.manager, { month: OLD })).status).toBe(200);
      expect(await d1Rows(team.manager.id, OLD)).toEqual(original);
    });
  }

  it('a restore that lands while a run deletes the month stops the deletes: the month stays whole in D1', async () => {
    const team = await createTeam();
    await addRows(team, OLD, 200);
    const original = await d1Rows(team.manager.id, OLD);
    await run({
      deleteBatch: 50,
      onStep: async (step, info) => {
        if (info.teamId === team.manager.id && step === 'deleted' && info.batch === 0) expect((await restore(team.manager, { month: OLD })).status).toBe(200);
      },
    });
    expect(await d1Rows(team.manager.id, OLD)).toEqual(original);
    expect(await ledger(team.manager.id)).toMatchObject([{ month: OLD, state: 'restored' }]);
  });

  it('an object that is not what was written is never overwritten, and its rows stay in D1', async () => {
    const team = await createTeam();
    await addRows(team, OLD, 10);
    const key = archiveKey(team.manager.id, OLD);
    await bucket.put(key, new Uint8Array([1, 2, 3]), { customMetadata: { rows: '10', sha256: 'x' } });
    const result = await run();
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(await d1Rows(team.manager.id, OLD)).toHaveLength(10);
    expect(new Uint8Array(await (await bucket.get(key))!.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    await bucket.delete(key);
  });

  it('24 runs at once, 3 rounds: the same end state as one run (each row once, in its object only)', { timeout: 240_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const teams = await Promise.all([createTeam(), createTeam()]);
      const originals = new Map<string, ArchivedRow[]>();
      for (const [i, team] of teams.entries()) {
        await addRows(team, OLD, 50 + i * 30);
        await addRows(team, OLDER, 45);
        originals.set(`${team.manager.id} ${OLD}`, await d1Rows(team.manager.id, OLD));
        originals.set(`${team.manager.id} ${OLDER}`, await d1Rows(team.manager.id, OLDER));
      }
      const results = await Promise.all(Array.from({ length: 24 }, (_, i) => run({ deleteBatch: 10 + i })));
      expect(results.reduce((n, r) => n + r.failed, 0)).toBe(0);
      // every row deleted once across the runs
      expect(results.reduce((n, r) => n + r.rows, 0)).toBeGreaterThanOrEqual([...originals.values()].reduce((n, rows) => n + rows.length, 0));
      for (const team of teams) {
        for (const month of [OLDER, OLD]) {
          expect(await d1Rows(team.manager.id, month)).toEqual([]);
          expect(await objectRows(team.manager.id, month), `round ${round}`).toEqual(originals.get(`${team.manager.id} ${month}`));
        }
        const months = await ledger(team.manager.id);
        expect(months.map((m: any) => [m.month, m.rows, m.state])).toEqual([
          [OLDER, 45, 'archived'],
          [OLD, originals.get(`${team.manager.id} ${OLD}`)!.length, 'archived'],
        ]);
        const users = await ledgerUsers(team.manager.id);
        expect(users.reduce((n: number, u: any) => n + u.rows, 0)).toBe(45 + originals.get(`${team.manager.id} ${OLD}`)!.length);
        expect(await hours(team.manager.id)).toEqual([]);
      }
    }
  });

  it('20 restores and runs at once: the month is back whole, once', { timeout: 120_000 }, async () => {
    const team = await createTeam();
    await addRows(team, OLD, 120);
    const original = await d1Rows(team.manager.id, OLD);
    await run();
    for (let round = 0; round < 3; round++) {
      const calls = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 4 === 3 ? run({ deleteBatch: 10 }).then(() => 200) : restore(team.manager, { month: OLD }).then((r) => r.status),
        ),
      );
      expect(calls.every((s) => s === 200)).toBe(true);
      expect(await d1Rows(team.manager.id, OLD)).toEqual(original);
      expect(await objectRows(team.manager.id, OLD)).toEqual(original);
    }
  });

  it('runs through its Cron Trigger (the development call), over each database it is given', async () => {
    const team = await createTeam();
    await addRows(team, OLD, 8);
    const res = await call('GET', `/api/dev/scheduled?cron=${encodeURIComponent('30 3 * * *')}&now=${NOW}`);
    expect(res.status).toBe(200);
    expect(res.body.results['30 3 * * *']).toMatchObject({ databases: allShards(testEnv).length, failed: 0 });
    expect(res.body.results['30 3 * * *'].rows).toBeGreaterThanOrEqual(8);
    expect(await d1Rows(team.manager.id, OLD)).toEqual([]);
  });
});

describe('archived months for the people who read them', () => {
  let team: Team;
  let other: Team;
  let original: ArchivedRow[];
  let regularCsv: string;
  beforeAll(async () => {
    team = await createTeam();
    other = await createTeam();
    await addRows(team, OLD, 45);
    await addRows(other, OLDER, 5);
    original = await d1Rows(team.manager.id, OLD);
    // Contact History's own export of the month while it is in D1, for the comparison below
    const csv = await call('POST', '/api/callHistory/export', { token: team.manager.token, body: monthQuery(OLD) });
    expect(csv.status).toBe(200);
    regularCsv = csv.text;
    await run();
  });

  it("a lead's list: the team's months, newest first", async () => {
    const res = await list(team.manager);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ months: [{ month: OLD, contacts: 45, state: 'archived', restoredUntil: null }] });
    expect((await list(team.director, team.manager.id)).body.months).toHaveLength(1);
  });

  it("the CSV is Contact History's export of the month, byte for byte, streamed from the object", async () => {
    const res = await exportMonth(team.manager, { month: OLD });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="contact-history-${OLD}.csv"`);
    // a BOM first, so spreadsheets read UTF-8 (Response.text() drops it)
    const bytes = new Uint8Array(
      await (
        await fetchWorker('http://localhost/api/callHistory/archive/export', {
          method: 'POST',
          headers: { authorization: `Bearer ${team.manager.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ month: OLD }),
        })
      ).arrayBuffer(),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.text.split('\r\n')[0]).toBe('Agent,MC,Company,Address,Origin,Destination,Load Date,Contact Date,Type,Contact,Board');
    expect(res.text.split('\r\n')).toHaveLength(45 + 2);
    expect(res.text).toBe(regularCsv);
    // a deleted agent keeps its name in the archive's CSV
    const deleted = await (await d1(team.manager.id)).prepare('update users set deleted_at = ?1 where id = ?2').bind(Date.now(), team.agents[1].id).run();
    expect(deleted.meta.changes).toBe(1);
    expect((await exportMonth(team.director, { managerId: team.manager.id, month: OLD })).text).toBe(regularCsv);
  });

  it('who may list, export and restore: the leads Contact History lets read the team; agents, marketing, no token and an expired lead are refused; another team answers 404', async () => {
    const admin = await createUser('admin');
    const marketing = await createUser('marketing');
    const expired = await createUser('manager', { subscriptionDays: -1 });
    const strangerDirector = await createUser('director');
    const month = { month: OLD };
    // the team's leads
    expect((await list(admin, team.manager.id)).status).toBe(200);
    expect((await exportMonth(admin, { ...month, managerId: team.manager.id })).status).toBe(200);
    expect((await exportMonth(team.director, { ...month, managerId: team.manager.id })).status).toBe(200);
    // the admin (the staff company's database) reads the team on its shard: the months its lead sees
    expect(admin.shard).not.toBe(team.manager.shard);
    expect((await list(admin, team.manager.id)).body).toEqual((await list(team.manager)).body);
    // everyone else
    for (const user of [team.agents[0], marketing, expired]) {
      for (const res of [await list(user, team.manager.id), await exportMonth(user, { ...month, managerId: team.manager.id }), await restore(user, month)]) {
        expect(res.status, user.userType).toBe(403);
      }
    }
    expect((await call('GET', '/api/callHistory/archive')).status).toBe(401);
    expect((await call('POST', '/api/callHistory/archive/restore', { body: month })).status).toBe(401);
    // another team's month (on another shard): 404, as if it did not exist
    expect(other.manager.shard).not.toBe(team.manager.shard);
    for (const res of [
      await exportMonth(other.manager, month),
      await restore(other.manager, month),
      await exportMonth(team.manager, { month: OLDER }),
      await restore(team.manager, { month: OLDER }),
      await exportMonth(team.manager, { month: OLD, managerId: other.manager.id }),
      await list(strangerDirector, team.manager.id),
      await exportMonth(strangerDirector, { ...month, managerId: team.manager.id }),
      await restore(strangerDirector, { ...month, managerId: team.manager.id }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await exportMonth(other.manager, month)).body).toEqual(errorBody(HISTORY_MESSAGES.archiveNotFound));
    expect((await list(team.director)).body).toEqual(errorBody(HISTORY_MESSAGES.selectManager));
    for (const bad of ['2024-13', '2024-1', 'May', '', null]) {
      const res = await exportMonth(team.manager, { month: bad });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(HISTORY_MESSAGES.archiveMonth));
    }
    // nothing of the refused calls restored anything
    expect(await d1Rows(team.manager.id, OLD)).toEqual([]);
    // the director restores its manager's month
    expect((await restore(team.director, { ...month, managerId: team.manager.id })).status).toBe(200);
    expect(await d1Rows(team.manager.id, OLD)).toEqual(original);
  });

  it("deleting a team's archive removes its objects and its months, and no other team's", async () => {
    await run();
    expect(await objectRows(other.manager.id, OLDER)).toHaveLength(5);
    expect(await deleteTeamArchive(await d1(other.manager.id), bucket, other.manager.id)).toBe(1);
    expect(await bucket.list({ prefix: `history/${other.manager.id}/` })).toMatchObject({ objects: [] });
    expect(await ledger(other.manager.id)).toEqual([]);
    expect(await ledgerUsers(other.manager.id)).toEqual([]);
    expect(await objectRows(team.manager.id, OLD)).toEqual(original);
    expect(await ledger(team.manager.id)).toHaveLength(1);
  });

  describe("the admin deleting a team erases its history and archive, no other team's (decision 0185)", () => {
    /** Everything of a team's history: D1 rows, hourly counts, ledger, ledger users, objects. */
    async function historyOf(teamId: string) {
      const db = await d1(teamId);
      const count = async (table: string) => (await db.prepare(`select count(*) as n from ${table} where team_id = ?1`).bind(teamId).first<{ n: number }>())?.n;
      const listed = await bucket.list({ prefix: `history/${teamId}/` });
      return {
        rows: await count('call_history'),
        hours: await count('call_history_hours'),
        ledger: await ledger(teamId),
        ledgerUsers: await ledgerUsers(teamId),
        objects: listed.objects.map((o) => o.key).sort(),
      };
    }
    const erase = (by: TestUser, userId: string) => call('DELETE', '/api/user', { token: by.token, body: { userId, eraseHistory: true } });
    /** A team with two archived months and a hot one; its agents deleted, so its manager can be. */
    async function archivedTeam(shard?: string) {
      const t = await createTeam(shard);
      await addRows(t, OLDER, 4);
      await addRows(t, OLD, 6);
      await addRows(t, HOT, 5);
      return t;
    }
    const emptyHistory = { rows: 0, hours: 0, ledger: [], ledgerUsers: [], objects: [] };

    it('its objects, months, rows and hours are gone; a team on the same shard and one on another keep theirs; a rerun is a no-op', async () => {
      const admin = await createUser('admin');
      const lone = await archivedTeam();
      const neighbour = await archivedTeam(lone.manager.shard);
      const far = await archivedTeam(otherShard(lone.manager.shard));
      await run();
      const before = { neighbour: await historyOf(neighbour.manager.id), far: await historyOf(far.manager.id) };
      expect((await historyOf(lone.manager.id)).objects).toHaveLength(2);
      expect(before.neighbour.objects).toHaveLength(2);
      const neighbourObject = await objectRows(neighbour.manager.id, OLD);

      for (const agent of lone.agents) expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: agent.id } })).status).toBe(200);
      const res = await erase(admin, lone.manager.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: `${lone.manager.name} has been deleted` });
      expect(await historyOf(lone.manager.id)).toEqual(emptyHistory);
      // deleted as the plain delete does: no sign-in, gone from the lists
      expect((await call('GET', `/api/user/${lone.manager.id}`, { token: admin.token })).status).toBe(404);
      expect(await historyOf(neighbour.manager.id)).toEqual(before.neighbour);
      expect(await historyOf(far.manager.id)).toEqual(before.far);
      expect(await objectRows(neighbour.manager.id, OLD)).toEqual(neighbourObject);

      // again, for a team already deleted and erased: the same answer, nothing else touched
      const again = await erase(admin, lone.manager.id);
      expect(again.status).toBe(200);
      expect(await historyOf(lone.manager.id)).toEqual(emptyHistory);
      expect(await historyOf(neighbour.manager.id)).toEqual(before.neighbour);
    });

    it('a team deleted before, or an erase cut off after the rows, is finished by the call', async () => {
      const admin = await createUser('admin');
      const team = await archivedTeam();
      await run();
      for (const user of [...team.agents, team.manager])
        expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: user.id } })).status).toBe(200);
      // the plain delete keeps the history (decision 0075); an erase that stopped after the D1 rows leaves the archive
      await (await d1(team.manager.id)).prepare('delete from call_history where team_id = ?1').bind(team.manager.id).run();
      expect((await historyOf(team.manager.id)).objects).toHaveLength(2);
      expect((await erase(admin, team.manager.id)).status).toBe(200);
      expect(await historyOf(team.manager.id)).toEqual(emptyHistory);
    });

    it('25 erases of one team at once all answer 200 and leave nothing of it, and all of another team', async () => {
      const admin = await createUser('admin');
      const team = await archivedTeam();
      const other = await archivedTeam(team.manager.shard);
      await run();
      const kept = await historyOf(other.manager.id);
      for (const agent of team.agents) expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: agent.id } })).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 25 }, () => erase(admin, team.manager.id)));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect(await historyOf(team.manager.id)).toEqual(emptyHistory);
      expect(await historyOf(other.manager.id)).toEqual(kept);
    });

    it('only the admin erases, only a team (a manager), and only once its agents are gone: a refusal erases nothing', async () => {
      const admin = await createUser('admin');
      const team = await archivedTeam();
      await run();
      const kept = await historyOf(team.manager.id);
      const refusals = [
        [await erase(team.manager, team.agents[0].id), COMMON_MESSAGES.notAllowedDelete],
        [await erase(team.director, team.manager.id), GENERAL_MESSAGES.notAllowed],
        [await erase(admin, team.agents[0].id), USER_MESSAGES.chooseManager],
        [await erase(admin, team.director.id), USER_MESSAGES.chooseManager],
        [await erase(admin, team.manager.id), COMMON_MESSAGES.managerHasAgents],
        [await erase(admin, 'no-such-user'), COMMON_MESSAGES.userNotFound],
      ] as const;
      for (const [res, refusal] of refusals) {
        expect(res.status).toBe(refusal.status);
        expect(res.body).toMatchObject({ message: refusal.text, code: refusal.code });
      }
      expect(await historyOf(team.manager.id)).toEqual(kept);
      expect((await call('GET', `/api/user/${team.manager.id}`, { token: admin.token })).status).toBe(200);
      expect((await call('GET', `/api/user/${team.agents[0].id}`, { token: admin.token })).status).toBe(200);
    });
  });

  it("soft-deleting a team's manager keeps its archive, as it keeps its rows (decision 0075)", async () => {
    const lone = await createTeam();
    const admin = await createUser('admin');
    await addRows(lone, OLD, 6);
    await run();
    for (const user of [...lone.agents, lone.manager])
      expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: user.id } })).status).toBe(200);
    expect(await objectRows(lone.manager.id, OLD)).toHaveLength(6);
    expect(await ledger(lone.manager.id)).toHaveLength(1);
  });
});
