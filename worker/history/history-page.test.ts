import { beforeAll, describe, expect, it } from 'vitest';
import { mcSettings } from '../db/schema';
import { d1Of } from '../lib/d1';
import { randomId } from '../lib/ids';
import { fetchWorker } from '../test/dispatch';
import { call, createTeam, createUser, homeOfUser, type TestUser, testEnv } from '../test/helpers';
import { HISTORY_MESSAGES } from './history.messages';
import { EXPORT_PAGE_ROWS } from './history.page';
import { DAY_MS, type HistoryRowDto } from './history.schema';

type Team = Awaited<ReturnType<typeof createTeam>>;

/** A team with plain names (the helper's random ones could hold what a search looks for). */
async function namedTeam(tag: string): Promise<Team> {
  const director = await createUser('director', { name: `Dana ${tag}` });
  const manager = await createUser('manager', { parentId: director.id, name: `Mona ${tag}` });
  const agent1 = await createUser('agent', { parentId: manager.id, name: `Alex ${tag}` });
  const agent2 = await createUser('agent', { parentId: manager.id, name: `Bea ${tag}` });
  return { director, manager, agents: [agent1, agent2] as const };
}

async function addMc(user: TestUser, name: string, parentMcId: string | null = null) {
  const id = randomId();
  await user.db.insert(mcSettings).values({ id, userId: user.id, name, parentMcId, createdAt: new Date() });
  return id;
}

const NOW = Date.now();
const range = (fromDaysAgo = 10, toDaysAhead = 1) => ({
  dateFrom: new Date(NOW - fromDaysAgo * DAY_MS).toISOString(),
  dateTo: new Date(NOW + toDaysAhead * DAY_MS).toISOString(),
});
const body = (extra: Record<string, unknown>) => ({ usersList: [], mcList: [], phoneLogs: true, emailLogs: true, ...range(), ...extra });
const page = (user: TestUser, extra: Record<string, unknown>) => call('POST', '/api/callHistory/page', { token: user.token, body: body(extra) });
const getHistory = (user: TestUser, extra: Record<string, unknown>) => call('POST', '/api/callHistory/getHistory', { token: user.token, body: body(extra) });

interface Row {
  userId: string;
  teamId: string;
  mcSettingId: string;
  mcName?: string;
  kind?: 'call' | 'email';
  contact?: string;
  brokerName: string;
  address?: string;
  origin?: string;
  dest?: string;
  loadDate?: string;
  callDate: number;
  board?: 'dat' | 'truckstop';
}

/** Rows straight into their team's shard, many per statement (one JSON parameter), as the extension would have logged them. */
async function insertRows(all: Row[]) {
  const teams = [...new Set(all.map((r) => r.teamId))];
  for (const team of teams)
    await insertTeamRows(
      (await homeOfUser(team)).shard,
      all.filter((r) => r.teamId === team),
    );
}

async function insertTeamRows(shard: string, rows: Row[]) {
  for (let i = 0; i < rows.length; i += 2000) {
    const chunk = rows
      .slice(i, i + 2000)
      .map((r) => [
        randomId(),
        r.userId,
        r.teamId,
        r.mcSettingId,
        r.mcName ?? 'Page MC',
        r.kind ?? 'call',
        r.contact ?? '+13125550142',
        r.brokerName,
        r.address ?? '',
        r.origin ?? '',
        r.dest ?? '',
        r.loadDate ?? '',
        r.callDate,
        randomId(),
        r.board ?? 'dat',
      ]);
    await d1Of(testEnv, shard)
      .prepare(
        `insert into call_history (id, user_id, team_id, mc_setting_id, mc_name, kind, contact, broker_name, address, origin, dest, load_date, call_date, client_id, board)
       select value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9, value->>10, value->>11, value->>12, value->>13, value->>14 from json_each(?)`,
      )
      .bind(JSON.stringify(chunk))
      .run();
  }
}

describe('POST /api/callHistory/page', () => {
  let A: Team;
  let B: Team;
  let mcA: string;
  let a0Mc: string;
  let a1Mc: string;
  let mcB: string;
  /** Team A's rows in the last 10 days: 30, newest first by index (row i is i hours old). */
  const rowsA: Row[] = [];
  beforeAll(async () => {
    A = await namedTeam('Ames');
    B = await namedTeam('Berg');
    mcA = await addMc(A.manager, 'Alpha MC');
    a0Mc = await addMc(A.agents[0], 'Alpha MC', mcA);
    a1Mc = await addMc(A.agents[1], 'Bravo MC');
    mcB = await addMc(B.manager, 'Beta MC');
    const companies = ['Coyote Logistics', 'Echo Global', 'TQL'];
    for (let i = 0; i < 30; i++) {
      const agent = i % 2 ? A.agents[1] : A.agents[0];
      rowsA.push({
        userId: agent.id,
        teamId: A.manager.id,
        mcSettingId: i % 2 ? a1Mc : a0Mc,
        mcName: i % 2 ? 'Bravo MC' : 'Alpha MC',
        kind: i % 3 === 0 ? 'email' : 'call',
        contact: i % 3 === 0 ? `ops${i}@broker.example` : `+1312555${String(1000 + i)}`,
        brokerName: companies[i % 3]!,
        address: `${100 + i} Main St, Springfield, IL`,
        origin: `Origin ${String.fromCharCode(65 + (i % 26))}`,
        dest: `Dest ${String(i).padStart(2, '0')}`,
        loadDate: `2026-07-${String((i % 28) + 1).padStart(2, '0')}`,
        callDate: NOW - i * 3_600_000,
      });
    }
    // one quoted company and one with LIKE's own characters, and a row outside the range
    rowsA.push({ userId: A.manager.id, teamId: A.manager.id, mcSettingId: mcA, brokerName: 'Hauler "Best", Inc', callDate: NOW - 40 * 3_600_000 });
    rowsA.push({ userId: A.manager.id, teamId: A.manager.id, mcSettingId: mcA, brokerName: '100%_Freight', callDate: NOW - 41 * 3_600_000 });
    await insertRows([
      ...rowsA,
      { userId: A.manager.id, teamId: A.manager.id, mcSettingId: mcA, brokerName: 'Old', callDate: NOW - 30 * DAY_MS },
      { userId: B.agents[0].id, teamId: B.manager.id, mcSettingId: mcB, brokerName: 'Team B only', callDate: NOW - 3_600_000 },
    ]);
  });

  it('summary: false answers the page alone, the same rows, with the count only when the view narrows the load', async () => {
    for (const view of [
      { page: 2, pageSize: 10 },
      { page: 1, pageSize: 10, company: 'TQL', sort: { column: 'address', dir: 'asc' } },
      { search: 'ames' },
      { page: 9 },
    ]) {
      const full = await page(A.manager, view);
      const alone = await page(A.manager, { ...view, summary: false });
      expect(alone.status).toBe(200);
      expect(alone.body.rows).toEqual(full.body.rows);
      expect(alone.body).toMatchObject({ total: null, companies: null, perDay: null, page: full.body.page, pageSize: full.body.pageSize });
      const narrowed = 'company' in view || 'search' in view;
      expect(alone.body.filteredTotal).toBe(narrowed ? full.body.filteredTotal : null);
    }
    expect((await page(A.manager, { summary: 'no' })).body.message).toBe('summary is true or false');
  });

  it("answers the same rows as getHistory, a page at a time, with the load's totals and Companies", async () => {
    const all = (await getHistory(A.manager, {})).body as HistoryRowDto[];
    expect(all).toHaveLength(32);
    const seen: HistoryRowDto[] = [];
    for (let p = 1; p <= 4; p++) {
      const res = await page(A.manager, { page: p, pageSize: 10 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 32, filteredTotal: 32, page: p, pageSize: 10 });
      expect(res.body.rows).toHaveLength(p < 4 ? 10 : 2);
      seen.push(...res.body.rows);
    }
    // newest first, the rows getHistory answers, field for field
    expect(seen).toEqual(all);
    const first = await page(A.manager, {});
    expect(first.body.companies).toEqual(['100%_Freight', 'Coyote Logistics', 'Echo Global', 'Hauler "Best", Inc', 'TQL']);
  });

  it('20 pages loaded at once, over 3 rounds, answer the rows of getHistory exactly once each', async () => {
    const all = ((await getHistory(A.manager, {})).body as HistoryRowDto[]).map((r) => r._id);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => page(A.manager, { page: (i % 4) + 1, pageSize: 10 })));
      for (const res of answers) expect(res.body).toMatchObject({ total: 32, filteredTotal: 32 });
      const firstOfEach = answers.slice(0, 4).flatMap((res) => res.body.rows.map((r: HistoryRowDto) => r._id));
      expect(firstOfEach).toEqual(all);
      for (const [i, res] of answers.entries()) expect(res.body.rows).toEqual(answers[i % 4]!.body.rows);
    }
  });

  it('a page past the end answers no rows and the totals', async () => {
    const res = await page(A.manager, { page: 9, pageSize: 10 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rows: [], total: 32, filteredTotal: 32 });
  });

  it('the Company filter is exact and narrows filteredTotal, not total', async () => {
    const res = await page(A.manager, { company: 'TQL', pageSize: 50 });
    expect(res.body).toMatchObject({ total: 32, filteredTotal: 10 });
    expect(res.body.rows.map((r: HistoryRowDto) => r.brokerName)).toEqual(Array(10).fill('TQL'));
    expect((await page(A.manager, { company: 'tql' })).body.filteredTotal).toBe(0);
    expect((await page(A.manager, { company: 'Hauler "Best", Inc' })).body.filteredTotal).toBe(1);
  });

  it('search finds words case-insensitively in every column, LIKE characters as themselves', async () => {
    const count = async (search: string) => (await page(A.manager, { search, pageSize: 50 })).body.filteredTotal as number;
    expect(await count('coyote')).toBe(10);
    expect(await count('ALPHA mc')).toBe(15);
    expect(await count(A.agents[1].name.toUpperCase())).toBe(15);
    expect(await count('Dest 07')).toBe(1);
    expect(await count('origin b')).toBe(2);
    expect(await count('2026-07-01')).toBe(2);
    expect(await count('ops3@')).toBe(1);
    // a number written as people write it finds the stored digits
    expect(await count('(312) 555-1004')).toBe(1);
    expect(await count('100%')).toBe(1);
    expect(await count('%')).toBe(1);
    expect(await count('_')).toBe(1);
    expect(await count('no such words')).toBe(0);
    const both = await page(A.manager, { search: 'springfield', company: 'Echo Global', pageSize: 50 });
    expect(both.body).toMatchObject({ total: 32, filteredTotal: 10 });
  });

  const SORTS: [string, (r: HistoryRowDto) => string][] = [
    ['agent', (r) => r.parent.name],
    ['mcName', (r) => r.mcName],
    ['brokerName', (r) => r.brokerName],
    ['address', (r) => r.address],
    ['origin', (r) => r.origin],
    ['dest', (r) => r.dest],
    ['loadDate', (r) => r.loadDate],
  ];
  it.each(SORTS.flatMap(([column, get]) => (['asc', 'desc'] as const).map((dir) => [column, dir, get] as const)))(
    'sorts by %s %s case-insensitively, then newest first, across pages',
    async (column, dir, get) => {
      const all = (await getHistory(A.manager, {})).body as HistoryRowDto[];
      const key = (r: HistoryRowDto) => get(r).toLowerCase();
      const expected = [...all].sort((x, y) => {
        const byKey = key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0;
        return (dir === 'asc' ? byKey : -byKey) || y.callDate.localeCompare(x.callDate);
      });
      const got: HistoryRowDto[] = [];
      for (let p = 1; p <= 3; p++) got.push(...(await page(A.manager, { sort: { column, dir }, page: p, pageSize: 20 })).body.rows);
      expect(got.map((r) => r._id)).toEqual(expected.map((r) => r._id));
    },
  );

  it.each(['asc', 'desc'] as const)('sorts by Contact Date %s', async (dir) => {
    const res = await page(A.manager, { sort: { column: 'callDate', dir }, pageSize: 50 });
    const dates = res.body.rows.map((r: HistoryRowDto) => r.callDate);
    expect(dates).toEqual([...dates].sort((x, y) => (dir === 'asc' ? x.localeCompare(y) : y.localeCompare(x))));
    expect(dates).toHaveLength(32);
  });

  it("the chart's days are the time zone's calendar days, every day of the range, adding up to the total", async () => {
    // Yerevan is UTC+4 all year: the range is its local midnights
    const to = Date.UTC(2030, 0, 11) - 4 * 3_600_000;
    const from = to - 10 * DAY_MS;
    const T = await createTeam();
    const mc = await addMc(T.manager, 'Zone MC');
    await insertRows([
      { userId: T.manager.id, teamId: T.manager.id, mcSettingId: mc, brokerName: 'First minute', callDate: from },
      // 23:30 on Jan 1 in Yerevan is 19:30 UTC
      { userId: T.manager.id, teamId: T.manager.id, mcSettingId: mc, brokerName: 'Late Jan 1', kind: 'email', callDate: Date.UTC(2030, 0, 1, 19, 30) },
      { userId: T.manager.id, teamId: T.manager.id, mcSettingId: mc, brokerName: 'Early Jan 2', callDate: Date.UTC(2030, 0, 1, 20, 30) },
      { userId: T.manager.id, teamId: T.manager.id, mcSettingId: mc, brokerName: 'Last minute', callDate: to - 60_000 },
      { userId: T.manager.id, teamId: T.manager.id, mcSettingId: mc, brokerName: 'After', callDate: to },
    ]);
    const res = await call('POST', '/api/callHistory/page', {
      token: T.manager.token,
      body: { dateFrom: from, dateTo: to, timeZone: 'Asia/Yerevan' },
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.perDay).toHaveLength(10);
    expect(res.body.perDay[0]).toEqual({ date: '2030-01-01', calls: 1, emails: 1 });
    expect(res.body.perDay[1]).toEqual({ date: '2030-01-02', calls: 1, emails: 0 });
    expect(res.body.perDay[9]).toEqual({ date: '2030-01-10', calls: 1, emails: 0 });
    expect(res.body.perDay.slice(2, 9).every((d: { calls: number; emails: number }) => d.calls + d.emails === 0)).toBe(true);
    const bad = await call('POST', '/api/callHistory/page', { token: T.manager.token, body: { dateFrom: from, dateTo: to, timeZone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(HISTORY_MESSAGES.timeZone.text);
  });

  it('scope as getHistory: an agent its own rows; a director its own managers; 400 and 404 with the same messages', async () => {
    const mine = await page(A.agents[0], { pageSize: 50 });
    expect(mine.body.total).toBe(15);
    expect(mine.body.rows.every((r: HistoryRowDto) => r.parent.name === A.agents[0].name)).toBe(true);
    expect((await page(A.agents[0], { usersList: [A.agents[1].id] })).status).toBe(404);
    const none = await page(A.director, {});
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(HISTORY_MESSAGES.selectManager.text);
    expect((await page(A.director, { managerId: A.manager.id })).body.total).toBe(32);
    for (const managerId of [B.manager.id, A.agents[0].id, 'unknown']) {
      const res = await page(A.director, { managerId });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(HISTORY_MESSAGES.managerNotFound.text);
    }
    const foreign = await page(A.manager, { usersList: [B.agents[0].id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(HISTORY_MESSAGES.userNotFound.text);
    // another team's rows never show, whatever the search
    expect((await page(A.manager, { search: 'Team B' })).body.filteredTotal).toBe(0);
    expect((await page(await createUser('marketing'), { managerId: A.manager.id })).status).toBe(403);
    expect((await call('POST', '/api/callHistory/page', { body: range() })).status).toBe(401);
  });

  it("teams on different shards: the admin reads each team's page from the team's shard, as its lead does", async () => {
    expect(A.manager.shard).not.toBe(B.manager.shard);
    const admin = await createUser('admin');
    for (const lead of [A.manager, B.manager]) {
      expect(admin.shard).not.toBe(lead.shard);
      const own = await page(lead, { pageSize: 50 });
      const asAdmin = await page(admin, { managerId: lead.id, pageSize: 50 });
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body.total).toBeGreaterThan(0);
      expect(asAdmin.body).toEqual(own.body);
    }
    const unknown = await page(admin, { managerId: 'unknown' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(HISTORY_MESSAGES.managerNotFound.text);
  });

  it("the load's choices narrow as getHistory's: users, MCs (a team MC with its agents' settings), kinds", async () => {
    expect((await page(A.manager, { usersList: [A.agents[1].id] })).body.total).toBe(15);
    expect((await page(A.manager, { mcList: [mcA] })).body.total).toBe(17);
    expect((await page(A.manager, { phoneLogs: false })).body.total).toBe(10);
    const none = await page(A.manager, { phoneLogs: false, emailLogs: false });
    expect(none.body).toMatchObject({ rows: [], total: 0, filteredTotal: 0, companies: [] });
  });

  it("the board narrows the load: its total, chart days, Companies and pages are that board's alone", async () => {
    const T = await namedTeam('Boards');
    const mc = await addMc(T.manager, 'Board MC');
    const rows: Row[] = Array.from({ length: 12 }, (_, i) => ({
      userId: T.agents[0].id,
      teamId: T.manager.id,
      mcSettingId: mc,
      brokerName: i % 3 === 0 ? 'Truckstop Broker' : 'DAT Broker',
      board: i % 3 === 0 ? ('truckstop' as const) : ('dat' as const),
      callDate: NOW - i * 3_600_000 - 60_000,
    }));
    await insertRows(rows);
    const ts = await page(T.manager, { board: 'truckstop', pageSize: 50 });
    expect(ts.status).toBe(200);
    expect(ts.body.total).toBe(4);
    expect(ts.body.perDay.reduce((n: number, d: { calls: number }) => n + d.calls, 0)).toBe(4);
    expect(ts.body.companies).toEqual(['Truckstop Broker']);
    expect(ts.body.rows.map((r: HistoryRowDto) => r.board)).toEqual(['truckstop', 'truckstop', 'truckstop', 'truckstop']);
    // page 2 of the DAT rows in Contact Date order: the board is not skipped over by the hours' counts
    const dat = await page(T.manager, { board: 'dat', pageSize: 10, page: 1 });
    expect(dat.body.total).toBe(8);
    expect(dat.body.rows).toHaveLength(8);
    const all = await page(T.manager, { pageSize: 10, page: 2 });
    expect(all.body.total).toBe(12);
    expect(all.body.rows).toHaveLength(2);
  });

  it.each([
    [{ pageSize: 5 }, HISTORY_MESSAGES.pageSize.text],
    [{ pageSize: 51 }, HISTORY_MESSAGES.pageSize.text],
    [{ pageSize: 12.5 }, HISTORY_MESSAGES.pageSize.text],
    [{ page: 0 }, HISTORY_MESSAGES.page.text],
    [{ page: '2' }, HISTORY_MESSAGES.page.text],
    [{ sort: { column: 'password', dir: 'asc' } }, HISTORY_MESSAGES.sort.text],
    [{ sort: { column: 'agent', dir: 'up' } }, HISTORY_MESSAGES.sort.text],
    [{ search: 'x'.repeat(201) }, HISTORY_MESSAGES.search.text],
    [{ dateFrom: 'soon' }, HISTORY_MESSAGES.range.text],
    [{ ...range(41, 0) }, HISTORY_MESSAGES.range.text],
  ])('bad input %j answers 400 %s', async (extra, message) => {
    const res = await page(A.manager, extra);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe('a 40,000-row team', () => {
  it('answers a deep page, a sort, a search and a Company correctly', async () => {
    const T = await namedTeam('Large');
    const mc = await addMc(T.manager, 'Big MC');
    const members = [T.manager, ...T.agents];
    const N = 40_000;
    const rows: Row[] = [];
    for (let i = 0; i < N; i++) {
      rows.push({
        userId: members[i % 3]!.id,
        teamId: T.manager.id,
        mcSettingId: mc,
        kind: i % 4 === 0 ? 'email' : 'call',
        brokerName: `Broker ${i % 200}`,
        address: `${i} Main St`,
        callDate: NOW - Math.floor((i * 39 * DAY_MS) / N) - 1,
      });
    }
    await insertRows(rows);
    const big = (extra: Record<string, unknown>) => page(T.manager, { ...range(39, 1), ...extra });
    const first = await big({ pageSize: 50 });
    expect(first.body).toMatchObject({ total: N, filteredTotal: N });
    expect(first.body.companies).toHaveLength(200);
    expect(first.body.perDay.reduce((n: number, d: { calls: number; emails: number }) => n + d.calls + d.emails, 0)).toBe(N);
    expect(first.body.perDay.reduce((n: number, d: { emails: number }) => n + d.emails, 0)).toBe(N / 4);
    // the last page: the oldest rows
    const last = await big({ page: 800, pageSize: 50 });
    expect(last.body.rows.map((r: HistoryRowDto) => r.address)).toEqual(Array.from({ length: 50 }, (_, k) => `${N - 50 + k} Main St`));
    const company = await big({ company: 'Broker 7', pageSize: 50, page: 4 });
    expect(company.body.filteredTotal).toBe(200);
    expect(company.body.rows.map((r: HistoryRowDto) => r.address)).toEqual(Array.from({ length: 50 }, (_, k) => `${7 + (150 + k) * 200} Main St`));
    const search = await big({ search: '3999', pageSize: 10 });
    // 3999, 13999, 23999, 33999 and 39990..39999 Main St
    expect(search.body.filteredTotal).toBe(14);
    const sorted = await big({ sort: { column: 'address', dir: 'desc' }, page: 2, pageSize: 10 });
    // text order, Z to A: 9999 to 9990 Main St fill page 1; page 2 starts at 999 Main St
    expect(sorted.body.rows.map((r: HistoryRowDto) => r.address).slice(0, 3)).toEqual(['999 Main St', '9989 Main St', '9988 Main St']);
  });
});

describe('POST /api/callHistory/export', () => {
  const exportCsv = (user: TestUser, extra: Record<string, unknown>) =>
    fetchWorker('http://localhost/api/callHistory/export', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body(extra)),
    });
  /** A CSV's records, quotes undone (the export's own quoting: fields in quotes, "" for a quote). */
  const parseCsv = (text: string) => {
    const records: string[][] = [];
    let field = '';
    let record: string[] = [];
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (quoted) {
        if (ch === '"' && text[i + 1] === '"') {
          field += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else field += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        record.push(field);
        field = '';
      } else if (ch === '\r' && text[i + 1] === '\n') {
        record.push(field);
        records.push(record);
        record = [];
        field = '';
        i++;
      } else field += ch;
    }
    return records;
  };

  it('streams every row of the view in several keyset pages, in the view order, quoted, with a filename', async () => {
    const T = await namedTeam('Export');
    const mc = await addMc(T.manager, 'Export MC');
    const n = EXPORT_PAGE_ROWS + 17;
    const rows: Row[] = [];
    for (let i = 0; i < n; i++) {
      rows.push({
        userId: T.agents[0].id,
        teamId: T.manager.id,
        mcSettingId: mc,
        mcName: 'Export MC',
        brokerName: i === 5 ? 'Quote "Q", Comma\nLine' : i === 6 ? '=HYPERLINK("x")' : `Broker ${i % 7}`,
        address: `${i} Export Rd`,
        // many rows share a contact date: the keyset must not skip or repeat them
        callDate: NOW - Math.floor(i / 3) * 60_000,
      });
    }
    await insertRows(rows);
    const res = await exportCsv(T.manager, {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="contact-history-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith('\uFEFFAgent,MC,Company,Address,Origin,Destination,Load Date,Contact Date,Type,Contact,Board\r\n')).toBe(true);
    const records = parseCsv(text.slice(1));
    expect(records).toHaveLength(n + 1);
    const addresses = records.slice(1).map((r) => r[3]);
    expect(new Set(addresses).size).toBe(n);
    expect(addresses).toEqual((await page2(T.manager, n)).map((r) => r.address));
    const quoted = records.find((r) => r[3] === '5 Export Rd')!;
    expect(quoted[2]).toBe('Quote "Q", Comma\nLine');
    expect(records.find((r) => r[3] === '6 Export Rd')![2]).toBe(`'=HYPERLINK("x")`);
    expect(quoted[0]).toBe(T.agents[0].name);
    expect(quoted[8]).toBe('Phone call');
    expect(quoted[10]).toBe('DAT');

    // sorted by Company, narrowed by a search: the same rows as the screen's pages, in order
    const sorted = await exportCsv(T.manager, { sort: { column: 'brokerName', dir: 'asc' }, search: 'broker' });
    const sortedRecords = parseCsv(await sorted.text()).slice(1);
    const expectedSorted: string[] = [];
    for (let p = 1; expectedSorted.length < n; p++) {
      const res = await page(T.manager, { sort: { column: 'brokerName', dir: 'asc' }, search: 'broker', page: p, pageSize: 50 });
      if (!res.body.rows.length) break;
      expectedSorted.push(...res.body.rows.map((r: HistoryRowDto) => r.address));
    }
    expect(sortedRecords.map((r) => r[3])).toEqual(expectedSorted);
    expect(sortedRecords).toHaveLength(n - 2);
  });

  /** The view's rows through the paged call, newest first. */
  async function page2(user: TestUser, n: number) {
    const out: HistoryRowDto[] = [];
    for (let p = 1; out.length < n; p++) out.push(...(await page(user, { page: p, pageSize: 50 })).body.rows);
    return out;
  }

  it('refuses as getHistory before any CSV: 400, 404, 403, 401', async () => {
    const T = await createTeam();
    const other = await createTeam();
    const none = await exportCsv(T.director, {});
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toBe(HISTORY_MESSAGES.selectManager.text);
    const foreign = await exportCsv(T.director, { managerId: other.manager.id });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { message: string }).message).toBe(HISTORY_MESSAGES.managerNotFound.text);
    expect((await exportCsv(T.manager, { dateTo: 'never' })).status).toBe(400);
    expect((await exportCsv(await createUser('marketing'), { managerId: T.manager.id })).status).toBe(403);
    const anonymous = await fetchWorker('http://localhost/api/callHistory/export', {
      method: 'POST',
      body: JSON.stringify(body({})),
      headers: { 'content-type': 'application/json' },
    });
    expect(anonymous.status).toBe(401);
    // an empty view is the header alone
    const empty = await exportCsv(T.manager, { phoneLogs: false, emailLogs: false });
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await empty.arrayBuffer())).toBe(
      '\uFEFFAgent,MC,Company,Address,Origin,Destination,Load Date,Contact Date,Type,Contact,Board\r\n',
    );
  });
});

describe("a Load's chart and Companies from their own reads (call_history_hours, the Company index)", () => {
  /** Each day's calls and e-mails in `timeZone`, counted here from the rows themselves. */
  function expectedDays(rows: Row[], from: number, to: number, timeZone: string) {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    const days = new Map<string, { calls: number; emails: number }>();
    for (const r of rows) {
      if (r.callDate < from || r.callDate >= to) continue;
      const d = days.get(date.format(r.callDate)) ?? { calls: 0, emails: 0 };
      if (r.kind === 'email') d.emails++;
      else d.calls++;
      days.set(date.format(r.callDate), d);
    }
    return days;
  }

  it('counts each day exactly in zones on half- and quarter-hour offsets, from a range that starts and ends mid-hour, as the rows do', async () => {
    const T = await namedTeam('Zones');
    const mc = await addMc(T.manager, 'Zone MC');
    const members = [T.manager, ...T.agents];
    const start = Date.UTC(2031, 2, 1);
    // a contact every 7 minutes 13 seconds for 6 days: every hour and its edges have some
    const rows: Row[] = [];
    for (let t = start, i = 0; t < start + 6 * DAY_MS; t += 433_000, i++) {
      rows.push({
        userId: members[i % 3]!.id,
        teamId: T.manager.id,
        mcSettingId: mc,
        kind: i % 5 === 0 ? 'email' : 'call',
        brokerName: 'Zone Co',
        callDate: t,
      });
    }
    await insertRows(rows);
    const from = start + 17 * 60_000 + 29_000;
    const to = start + 5 * DAY_MS + 11 * 3_600_000 + 3 * 60_000;
    for (const timeZone of ['Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'America/New_York', 'UTC']) {
      const load = (extra: Record<string, unknown>) =>
        call('POST', '/api/callHistory/page', {
          token: T.manager.token,
          body: { dateFrom: new Date(from).toISOString(), dateTo: new Date(to).toISOString(), timeZone, ...extra },
        });
      const whole = await load({});
      expect(whole.status).toBe(200);
      const want = expectedDays(rows, from, to, timeZone);
      const got = new Map(
        (whole.body.perDay as { date: string; calls: number; emails: number }[])
          .filter((d) => d.calls + d.emails)
          .map((d) => [d.date, { calls: d.calls, emails: d.emails }]),
      );
      expect(got).toEqual(want);
      expect(whole.body.total).toBe([...want.values()].reduce((n, d) => n + d.calls + d.emails, 0));
      // the same load named user by user is counted on the rows: the same days
      const named = await load({ usersList: members.map((m) => m.id) });
      expect(named.body.perDay).toEqual(whole.body.perDay);
      // one kind: the hours' own column
      const emails = await load({ phoneLogs: false });
      expect(emails.body.total).toBe([...want.values()].reduce((n, d) => n + d.emails, 0));
    }
  });

  it('pages in Contact Date order, either way, skipping whole hours: the same rows as getHistory, from a range cut mid-hour', async () => {
    const T = await namedTeam('Hours');
    const mc = await addMc(T.manager, 'Hours MC');
    const members = [T.manager, ...T.agents];
    const rows: Row[] = [];
    // 3 to 17 contacts an hour for 60 hours, each at its own millisecond
    for (let hour = 0, i = 0; hour < 60; hour++) {
      for (let k = 0; k < 3 + ((hour * 7) % 15); k++, i++) {
        rows.push({
          userId: members[i % 3]!.id,
          teamId: T.manager.id,
          mcSettingId: mc,
          kind: i % 4 === 0 ? 'email' : 'call',
          brokerName: `Co ${i}`,
          callDate: NOW - 2 * DAY_MS - hour * 3_600_000 - k * 97_001 - 1,
        });
      }
    }
    await insertRows(rows);
    const span = { dateFrom: new Date(NOW - 4 * DAY_MS - 1_234_567).toISOString(), dateTo: new Date(NOW - 2 * DAY_MS - 2_345_678).toISOString() };
    for (const kinds of [{}, { emailLogs: false }]) {
      const all = await getHistory(T.manager, { ...span, ...kinds });
      const newest = (all.body as HistoryRowDto[]).map((r) => r._id);
      expect(newest.length).toBeGreaterThan(300);
      for (const [dir, ids] of [
        ['desc', newest],
        ['asc', [...newest].reverse()],
      ] as const) {
        for (const p of [1, 2, 3, 7, 11, Math.ceil(ids.length / 25), Math.ceil(ids.length / 25) + 1]) {
          const res = await page(T.manager, { ...span, ...kinds, page: p, pageSize: 25, summary: false, sort: { column: 'callDate', dir } });
          expect(res.status).toBe(200);
          expect(res.body.rows.map((r: HistoryRowDto) => r._id)).toEqual(ids.slice((p - 1) * 25, p * 25));
        }
      }
    }
  });

  it('30 contacts logged at once, 3 rounds: the hours hold exactly the rows, and a retried contact counts once', { timeout: 120_000 }, async () => {
    const T = await createTeam();
    const teamMc = await addMc(T.manager, 'Race MC');
    const agentMc = await addMc(T.agents[0], 'Race MC', teamMc);
    const at = Date.now();
    const logged = (clientId: string, i: number) =>
      call('POST', '/api/callHistory/log', {
        token: T.agents[0].token,
        body: {
          clientId,
          mcSettingId: agentMc,
          ...(i % 3 ? { kind: 'call', contact: '+1 (312) 555-0142' } : { kind: 'email', contact: 'ops@race.example' }),
          brokerName: 'Race Co',
          callDate: at - (i % 4) * 1_800_000,
        },
      });
    for (let round = 0; round < 3; round++) {
      const ids = Array.from({ length: 30 }, () => randomId());
      // every contact sent twice at once, as a retry racing its first try
      const answers = await Promise.all([...ids.map(logged), ...ids.map(logged)]);
      expect(answers.filter((a) => a.status !== 201 && a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
      const rows = await d1Of(testEnv, T.manager.shard)
        .prepare(
          `select call_date / 3600000 as hour, sum(kind = 'call') as calls, sum(kind = 'email') as emails from call_history where team_id = ? group by 1 order by 1`,
        )
        .bind(T.manager.id)
        .all();
      const hours = await d1Of(testEnv, T.manager.shard)
        .prepare('select hour, calls, emails from call_history_hours where team_id = ? and calls + emails > 0 order by hour')
        .bind(T.manager.id)
        .all();
      expect(hours.results).toEqual(rows.results);
      expect(rows.results.reduce((n, r) => n + Number(r.calls) + Number(r.emails), 0)).toBe(30 * (round + 1));
    }
  });

  it('lists Companies exactly as logged, case variants apart, only those of the load', async () => {
    const T = await namedTeam('Names');
    const mc = await addMc(T.manager, 'Names MC');
    const row = (brokerName: string, hoursAgo: number, extra: Partial<Row> = {}): Row => ({
      userId: T.agents[0].id,
      teamId: T.manager.id,
      mcSettingId: mc,
      brokerName,
      callDate: NOW - hoursAgo * 3_600_000,
      ...extra,
    });
    await insertRows([
      row('coyote', 1),
      row('Coyote', 2),
      row('COYOTE', 3),
      row('Coyote', 4),
      row('Echo', 5, { kind: 'email' }),
      row('Ålborg Freight', 6),
      row('', 7),
      row('Old Co', 24 * 30),
      row('Bea only', 8, { userId: T.agents[1].id }),
    ]);
    const load = (extra: Record<string, unknown>) => page(T.manager, { pageSize: 50, ...extra });
    const all = await load({});
    expect([...all.body.companies].sort()).toEqual(['', 'Bea only', 'COYOTE', 'Coyote', 'Echo', 'coyote', 'Ålborg Freight'].sort());
    expect((await load({ usersList: [T.agents[0].id] })).body.companies).not.toContain('Bea only');
    expect((await load({ emailLogs: false })).body.companies).not.toContain('Echo');
    // each variant filters exactly its own rows; sorted by Company, the variants sit together
    expect((await load({ company: 'Coyote', summary: false })).body.filteredTotal).toBe(2);
    expect((await load({ company: 'COYOTE', summary: false })).body.filteredTotal).toBe(1);
    const sorted = (await load({ sort: { column: 'brokerName', dir: 'asc' }, summary: false })).body.rows.map((r: HistoryRowDto) => r.brokerName);
    expect(sorted).toEqual(['', 'Bea only', 'coyote', 'Coyote', 'COYOTE', 'Coyote', 'Echo', 'Ålborg Freight']);
  });
});
