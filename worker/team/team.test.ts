import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { callHistory, teamLines, teamSettings } from '../db/schema';
import { d1Of } from '../lib/d1';
import { randomId } from '../lib/ids';
import { problemText } from '../lib/messages';
import { LINES_MESSAGES } from '../mc-settings/mc-settings.messages';
import { call, createTeam, createUser, everyDb, type TestUser, testEnv } from '../test/helpers';
import { dialerTemplateError, dialUrl } from './dialer';

const get = (user: TestUser) => call('GET', '/api/team/settings', { token: user.token });
const put = (user: TestUser, body: unknown) => call('PUT', '/api/team/settings', { token: user.token, body });
/** The team's lines and settings as its shard holds them (the team's id is its manager's). */
const storedLines = async (manager: TestUser) =>
  (await manager.db.select().from(teamLines).where(eq(teamLines.teamId, manager.id)))
    .sort((a, b) => a.line - b.line)
    .map((l) => [l.line, l.callerNumber, l.label]);
const storedSettings = async (manager: TestUser) => (await manager.db.select().from(teamSettings).where(eq(teamSettings.teamId, manager.id)))[0];

const LINES = [
  { line: 1, callerNumber: '+1 (312) 555-0101', label: 'Chicago desk' },
  { line: 2, callerNumber: '+13125550102', label: '' },
];

describe('team phone settings: the lines 1-6 with their caller numbers, and the dialer', () => {
  it('starts with the system dialer and no lines; the manager saves numbers as E.164 and every member of the team reads them', async () => {
    const { manager, agents, director } = await createTeam();
    expect((await get(agents[0])).body).toEqual({ dialer: 'tel', dialerTemplate: '', lines: [], contactMarkers: true, contactWindowHours: 12, canEdit: false });
    const saved = await put(manager, { dialer: 'dialpad', lines: LINES });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(LINES_MESSAGES.teamSaved.text);
    const want = {
      dialer: 'dialpad',
      dialerTemplate: '',
      contactMarkers: true,
      contactWindowHours: 12,
      lines: [
        { line: 1, callerNumber: '+13125550101', label: 'Chicago desk' },
        { line: 2, callerNumber: '+13125550102', label: '' },
      ],
    };
    expect(saved.body.settings).toEqual({ ...want, canEdit: true });
    expect((await get(agents[1])).body).toEqual({ ...want, canEdit: false });
    expect(await storedLines(manager)).toEqual([
      [1, '+13125550101', 'Chicago desk'],
      [2, '+13125550102', ''],
    ]);
    // a director has no Lines: not its teams' phones either
    expect((await get(director)).status).toBe(403);
    // saving again replaces the whole list: a line left out has no number any more
    await put(manager, { dialer: 'tel', lines: [{ line: 4, callerNumber: '+44 20 7946 0958', label: 'London' }] });
    expect(await storedLines(manager)).toEqual([[4, '+442079460958', 'London']]);
  });

  it('answers 400 with a clear message for bad input and changes nothing', async () => {
    const { manager } = await createTeam();
    await put(manager, { dialer: 'dialpad', lines: LINES });
    const before = { settings: await storedSettings(manager), lines: await storedLines(manager) };
    const cases: [unknown, string][] = [
      [{ dialer: 'skype', lines: [] }, LINES_MESSAGES.dialer.text],
      [{ lines: [] }, LINES_MESSAGES.dialer.text],
      [{ dialer: 'tel', lines: [{ line: 7, callerNumber: '+13125550101' }] }, LINES_MESSAGES.line.text],
      [{ dialer: 'tel', lines: [{ line: 0, callerNumber: '+13125550101' }] }, LINES_MESSAGES.line.text],
      [{ dialer: 'tel', lines: [{ line: 1.5, callerNumber: '+13125550101' }] }, LINES_MESSAGES.line.text],
      [{ dialer: 'tel', lines: [{ line: 3, callerNumber: '312 555 0101' }] }, 'Line 3: enter the caller number in international format, like +1 312 555 0100'],
      [{ dialer: 'tel', lines: [{ line: 3, callerNumber: '+1 555' }] }, 'Line 3: enter the caller number in international format, like +1 312 555 0100'],
      [{ dialer: 'tel', lines: [{ line: 3, callerNumber: '' }] }, 'Line 3: enter the caller number in international format, like +1 312 555 0100'],
      [
        { dialer: 'tel', lines: [{ line: 3, callerNumber: '+1 312 555 0101 x12' }] },
        'Line 3: enter the caller number in international format, like +1 312 555 0100',
      ],
      [{ dialer: 'tel', lines: [{ line: 2, callerNumber: '+13125550101', label: 'x'.repeat(41) }] }, 'Line 2: the label is at most 40 characters'],
      [
        {
          dialer: 'tel',
          lines: [
            { line: 2, callerNumber: '+13125550101' },
            { line: 2, callerNumber: '+13125550102' },
          ],
        },
        'Line 2 is listed twice',
      ],
      [{ dialer: 'template', dialerTemplate: '', lines: [] }, LINES_MESSAGES.templateEmpty.text],
      [{ dialer: 'template', dialerTemplate: 'https://pbx.example/call?from={from}', lines: [] }, LINES_MESSAGES.templateTo.text],
      [{ dialer: 'template', dialerTemplate: 'javascript:alert({to})', lines: [] }, LINES_MESSAGES.templateScheme.text],
      [{ dialer: 'template', dialerTemplate: 'http://pbx.example/call?n={to}', lines: [] }, LINES_MESSAGES.templateScheme.text],
      [{ dialer: 'template', dialerTemplate: 'data:text/html,{to}', lines: [] }, LINES_MESSAGES.templateScheme.text],
      [{ dialer: 'template', dialerTemplate: 'pbx.example/call?n={to}', lines: [] }, LINES_MESSAGES.templateScheme.text],
      [
        { dialer: 'template', dialerTemplate: 'https://pbx.example/call?n={to}&agent={user}', lines: [] },
        'Unknown placeholder {user} in the URL template: use {to}, {from} or {line}',
      ],
      [{ dialer: 'tel', lines: 'all' }, 'Invalid input (lines)'],
    ];
    for (const [body, message] of cases) {
      const res = await put(manager, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    expect({ settings: await storedSettings(manager), lines: await storedLines(manager) }).toEqual(before);
  });

  it('only the lead changes them: an agent gets 403, no token 401, another team never sees or touches them', async () => {
    const team = await createTeam();
    const other = await createTeam();
    await put(team.manager, { dialer: 'dialpad', lines: LINES });
    const agentTry = await put(team.agents[0], { dialer: 'tel', lines: [] });
    expect(agentTry.status).toBe(403);
    expect(agentTry.body.message).toBe("Only the team's manager can change the team's settings");
    expect((await call('PUT', '/api/team/settings', { body: { dialer: 'tel', lines: [] } })).status).toBe(401);
    expect((await call('GET', '/api/team/settings')).status).toBe(401);
    // another team's manager writes its own team only
    await put(other.manager, { dialer: 'tel', lines: [{ line: 1, callerNumber: '+14155550199', label: 'SF' }] });
    expect((await get(team.agents[0])).body.lines.map((l: { callerNumber: string }) => l.callerNumber)).toEqual(['+13125550101', '+13125550102']);
    expect((await get(other.agents[0])).body.lines).toEqual([{ line: 1, callerNumber: '+14155550199', label: 'SF' }]);
    // the two teams are on different shards, and each team's lines are in its own shard alone
    expect(team.manager.shard).not.toBe(other.manager.shard);
    for (const lead of [team.manager, other.manager]) {
      const holding = await Promise.all(
        everyDb().map(async ({ shard, db }) => ((await db.select().from(teamLines).where(eq(teamLines.teamId, lead.id))).length ? [shard] : [])),
      );
      expect(holding.flat()).toEqual([lead.shard]);
    }
    // marketing has no Lines; an expired manager cannot save
    expect((await get(await createUser('marketing'))).status).toBe(403);
    const expired = await createUser('manager', { subscriptionDays: -1 });
    expect((await put(expired, { dialer: 'tel', lines: [] })).status).toBe(403);
    expect(await storedSettings(expired)).toBeUndefined();
  });

  it('simultaneous saves: 30 at once, 3 rounds; the stored lines are always exactly one save’s, never a mix', async () => {
    const { manager } = await createTeam();
    for (let round = 0; round < 3; round++) {
      const bodies = Array.from({ length: 30 }, (_, i) => ({
        dialer: (['tel', 'dialpad', 'template'] as const)[i % 3],
        dialerTemplate: i % 3 === 2 ? `https://pbx.example/call?to={to}&from={from}&n=${i}` : '',
        lines: Array.from({ length: 1 + (i % 6) }, (_, k) => ({
          line: k + 1,
          callerNumber: `+1312555${String(1000 + i * 10 + k).slice(-4)}`,
          label: `save ${i}`,
        })),
      }));
      const answers = await Promise.all(bodies.map((b) => put(manager, b)));
      expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
      const lines = await manager.db.select().from(teamLines).where(eq(teamLines.teamId, manager.id));
      const labels = new Set(lines.map((l) => l.label));
      expect(labels.size).toBe(1);
      const i = Number([...labels][0]!.slice(5));
      expect(lines.length).toBe(bodies[i]!.lines.length);
      const settings = await storedSettings(manager);
      expect(settings?.dialer).toBe(bodies[i]!.dialer);
      expect(settings?.dialerTemplate).toBe(bodies[i]!.dialerTemplate);
    }
  });
});

describe('the dialer URL: what "Call on line N" opens', () => {
  const target = { to: '+15135550142', from: '+13125550102', line: 2 };
  it('tel: (RFC 3966) with the extension, Dialpad with fromNumber, a template filled URL-encoded', () => {
    expect(dialUrl('tel', '', target)).toBe('tel:+15135550142');
    expect(dialUrl('tel', '', { ...target, to: '+15135550142;ext=12' })).toBe('tel:+15135550142;ext=12');
    expect(dialUrl('dialpad', '', target)).toBe('dialpad://%2B15135550142?fromNumber=%2B13125550102');
    expect(dialUrl('dialpad', '', { ...target, from: '' })).toBe('dialpad://%2B15135550142');
    expect(dialUrl('template', 'aircall://call?to={to}&from={from}&line={line}', target)).toBe('aircall://call?to=%2B15135550142&from=%2B13125550102&line=2');
    expect(dialUrl('template', 'https://pbx.example/dial/{to}', { ...target, line: null, from: '' })).toBe('https://pbx.example/dial/%2B15135550142');
  });
  it('templates: https or an app scheme, {to} required, known placeholders only', () => {
    expect(dialerTemplateError('callto:{to}')).toBeNull();
    expect(dialerTemplateError('https://app.example.com/call?number={to}&caller={from}')).toBeNull();
    expect(problemText(dialerTemplateError('https://{to}')!)).toBe(LINES_MESSAGES.templateScheme.text);
    expect(problemText(dialerTemplateError('vbscript:{to}')!)).toBe(LINES_MESSAGES.templateScheme.text);
    expect(problemText(dialerTemplateError('https://a.example/{to} x')!)).toBe(LINES_MESSAGES.templateScheme.text);
    expect(problemText(dialerTemplateError(`https://a.example/${'x'.repeat(500)}{to}`)!)).toBe('The URL template is at most 500 characters');
  });
});

describe('a logged call keeps its line and the number it was made from', () => {
  it('the line the board offered, or the MC’s line; the team’s number for it; Contact History answers both', async () => {
    const { manager, agents } = await createTeam();
    const agent = agents[0];
    await put(manager, { dialer: 'dialpad', lines: LINES });
    const teamMc = (await call('POST', '/api/mcSettings/add/', { token: manager.token, body: { name: 'Swift Haul', lines: [1] } })).body.mcSetting._id;
    const mc = (await call('POST', '/api/mcSettings/add/', { token: agent.token, body: { parentMc: teamMc, lines: [2] } })).body.mcSetting._id;
    const log = (extra: Record<string, unknown>) =>
      call('POST', '/api/callHistory/log', {
        token: agent.token,
        body: { clientId: randomId(), mcSettingId: mc, kind: 'call', contact: '(513) 555-0142', brokerName: 'Total Quality Logistics', ...extra },
      });
    const byMc = await log({});
    expect(byMc.status).toBe(201);
    expect(byMc.body).toMatchObject({ line: 2, fromNumber: '+13125550102' });
    const offered = await log({ line: 1 });
    expect(offered.body).toMatchObject({ line: 1, fromNumber: '+13125550101' });
    // a line the team gave no number: the line alone
    expect((await log({ line: 5 })).body).toMatchObject({ line: 5, fromNumber: '' });
    // an e-mail keeps the line, and no caller number
    expect((await log({ kind: 'email', contact: 'loads@tql.example' })).body).toMatchObject({ line: 2, fromNumber: '' });
    const bad = await log({ line: 9 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Lines are 1 to 6');
    const rows = await agent.db
      .select({ line: callHistory.line, fromNumber: callHistory.fromNumber })
      .from(callHistory)
      .where(eq(callHistory.userId, agent.id));
    expect(rows.map((r) => `${r.line}:${r.fromNumber}`).sort()).toEqual(['1:+13125550101', '2:', '2:+13125550102', '5:']);
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const listed = await call('POST', '/api/callHistory/getHistory', { token: manager.token, body: { dateFrom: from, dateTo: to } });
    expect(listed.body.map((r: { line: number; fromNumber: string }) => `${r.line}:${r.fromNumber}`).sort()).toEqual([
      '1:+13125550101',
      '2:',
      '2:+13125550102',
      '5:',
    ]);
    const page = await call('POST', '/api/callHistory/page', { token: manager.token, body: { dateFrom: from, dateTo: to } });
    expect(page.body.rows.map((r: { line: number; fromNumber: string }) => `${r.line}:${r.fromNumber}`).sort()).toEqual([
      '1:+13125550101',
      '2:',
      '2:+13125550102',
      '5:',
    ]);
  });
});

describe("the board's markers: GET /api/team/contacts", () => {
  const HOUR = 3_600_000;
  async function boardTeam() {
    const team = await createTeam();
    const teamMc = (await call('POST', '/api/mcSettings/add/', { token: team.manager.token, body: { name: 'Swift Haul', lines: [1] } })).body.mcSetting._id;
    const mcs = new Map<string, string>();
    for (const [i, agent] of team.agents.entries())
      mcs.set(agent.id, (await call('POST', '/api/mcSettings/add/', { token: agent.token, body: { parentMc: teamMc, lines: [i + 2] } })).body.mcSetting._id);
    const log = (agent: TestUser, extra: Record<string, unknown> = {}) =>
      call('POST', '/api/callHistory/log', {
        token: agent.token,
        body: {
          clientId: randomId(),
          mcSettingId: mcs.get(agent.id),
          kind: 'call',
          contact: '(513) 555-0142',
          brokerName: 'Total Quality Logistics',
          origin: 'Chicago, IL',
          dest: 'Dallas, TX',
          loadDate: '2026-11-26',
          ...extra,
        },
      });
    return { ...team, log };
  }
  const contacts = (user: TestUser, etag?: string) => call('GET', '/api/team/contacts', { token: user.token, headers: etag ? { 'if-none-match': etag } : {} });

  it("answers the team's contacts of the window with who, how, when, the line and the MC; 304 with the ETag until one is logged", async () => {
    const team = await boardTeam();
    const [anna, ben] = team.agents;
    const empty = await contacts(anna);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ contactMarkers: true, contactWindowHours: 12, contacts: [] });
    const etag = empty.headers.get('etag')!;
    expect(etag).toMatch(/^"tc-[0-9a-f]{32}"$/);
    const unchanged = await contacts(anna, etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect((await team.log(ben, { callDate: Date.now() - 60_000 })).status).toBe(201);
    // the same call again (another client id), an e-mail, and one of 13 hours ago (out of the window)
    await team.log(ben, { callDate: Date.now() - 30_000 });
    await team.log(anna, { kind: 'email', contact: 'loads@tql.example', brokerName: 'TQL', board: 'truckstop' });
    await team.log(anna, { callDate: Date.now() - 13 * HOUR, brokerName: 'Old Broker' });
    const now = await contacts(anna, etag);
    expect(now.status).toBe(200);
    expect(now.headers.get('etag')).not.toBe(etag);
    expect(
      now.body.contacts.map((c: { by: string; kind: string; brokerName: string; line: number; mcName: string }) => [
        c.by,
        c.kind,
        c.brokerName,
        c.line,
        c.mcName,
      ]),
    ).toEqual([
      [anna.name, 'email', 'TQL', 2, 'Swift Haul'],
      [ben.name, 'call', 'Total Quality Logistics', 3, 'Swift Haul'],
    ]);
    expect(Object.keys(now.body.contacts[1]).sort()).toEqual(
      ['at', 'board', 'brokerName', 'by', 'contact', 'dest', 'kind', 'line', 'loadDate', 'mcName', 'origin', 'userId'].sort(),
    );
    expect(now.body.contacts[1]).toMatchObject({ contact: '+15135550142', origin: 'Chicago, IL', dest: 'Dallas, TX', loadDate: '2026-11-26', userId: ben.id });
    // the board each contact came from, for the markers' hover
    expect(now.body.contacts.map((c: { board: string }) => c.board)).toEqual(['truckstop', 'dat']);
    // the manager's board reads the same
    expect((await contacts(team.manager)).body.contacts).toHaveLength(2);
    expect((await contacts(anna, now.headers.get('etag')!)).status).toBe(304);
  });

  it('the window and the markers are the manager’s: a wider window shows older contacts; off answers none', async () => {
    const team = await boardTeam();
    const [anna, ben] = team.agents;
    await team.log(ben, { callDate: Date.now() - 20 * HOUR });
    expect((await contacts(anna)).body.contacts).toEqual([]);
    expect((await put(team.manager, { dialer: 'tel', contactWindowHours: 24 })).status).toBe(200);
    const wider = await contacts(anna);
    expect(wider.body.contactWindowHours).toBe(24);
    expect(wider.body.contacts).toHaveLength(1);
    expect((await put(team.manager, { dialer: 'tel', contactMarkers: false, contactWindowHours: 24 })).status).toBe(200);
    const off = await contacts(anna, wider.headers.get('etag')!);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ contactMarkers: false, contactWindowHours: 24, contacts: [] });
    for (const [body, message] of [
      [{ dialer: 'tel', contactWindowHours: 0 }, LINES_MESSAGES.window.text],
      [{ dialer: 'tel', contactWindowHours: 49 }, LINES_MESSAGES.window.text],
      [{ dialer: 'tel', contactWindowHours: 2.5 }, LINES_MESSAGES.window.text],
      [{ dialer: 'tel', contactWindowHours: '12' }, LINES_MESSAGES.window.text],
      [{ dialer: 'tel', contactMarkers: 'yes' }, LINES_MESSAGES.markers.text],
    ] as const) {
      const res = await put(team.manager, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await storedSettings(team.manager)).toMatchObject({ contactMarkers: false, contactWindowHours: 24 });
  });

  it("never another team's contacts; directors, marketing and expired users get 403, no token 401", async () => {
    const team = await boardTeam();
    const other = await boardTeam();
    await team.log(team.agents[0]);
    await other.log(other.agents[0], { brokerName: 'Other Team Broker' });
    const mine = (await contacts(team.agents[1])).body.contacts.map((c: { brokerName: string }) => c.brokerName);
    expect(mine).toEqual(['Total Quality Logistics']);
    expect((await contacts(other.manager)).body.contacts.map((c: { brokerName: string }) => c.brokerName)).toEqual(['Other Team Broker']);
    expect((await contacts(team.director)).status).toBe(403);
    expect((await contacts(await createUser('marketing'))).status).toBe(403);
    expect((await contacts(await createUser('agent', { parentId: team.manager.id, subscriptionDays: -1 }))).status).toBe(403);
    expect((await call('GET', '/api/team/contacts')).status).toBe(401);
  });

  it('30 contacts logged at once by two agents, 3 rounds: every one is answered once, and the ETag moves each round', async () => {
    const team = await boardTeam();
    let etag = (await contacts(team.manager)).headers.get('etag')!;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => team.log(team.agents[i % 2]!, { brokerName: `Broker ${round}-${i}`, callDate: Date.now() - i * 1000 })),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      const now = await contacts(team.manager, etag);
      expect(now.status).toBe(200);
      expect(now.body.contacts).toHaveLength(30 * (round + 1));
      expect(new Set(now.body.contacts.map((c: { brokerName: string }) => c.brokerName)).size).toBe(30 * (round + 1));
      const rows = await team.manager.db.select({ id: callHistory.id }).from(callHistory).where(eq(callHistory.teamId, team.manager.id));
      expect(rows).toHaveLength(30 * (round + 1));
      expect(now.headers.get('etag')).not.toBe(etag);
      etag = now.headers.get('etag')!;
      expect((await contacts(team.agents[0], etag)).status).toBe(304);
    }
  });
});

describe('the markers call stays small however big the history is', () => {
  it('a team with 40,000 contacts in 40 days: the answer holds the window only, 304 reads the hours; timings printed for BENCHMARKS.md', async () => {
    const team = await createTeam();
    const now = Date.now();
    const DAYS = 40;
    const ROWS = 40_000;
    // one statement: 40,000 rows spread evenly over 40 days, 200 brokers, both agents, the triggers keep the hours
    const started = performance.now();
    await d1Of(testEnv, team.manager.shard)
      .prepare(
        `with recursive n(i) as (select 0 union all select i + 1 from n where i < ?1 - 1)
       insert into call_history (id, user_id, team_id, mc_setting_id, mc_name, kind, contact, broker_name, origin, dest, load_date, call_date, client_id, line, from_number)
       select 'bench-' || ?2 || '-' || i, case i % 2 when 0 then ?3 else ?4 end, ?2, 'mc', 'Swift Haul', case i % 5 when 0 then 'email' else 'call' end,
              '+1513555' || substr('0000' || (i % 200), -4), 'Broker ' || (i % 200), 'Chicago, IL', 'Dallas, TX', '2026-11-26',
              ?5 - (i * (?6 / ?1)), 'c-' || i, 1 + i % 6, ''
       from n`,
      )
      .bind(ROWS, team.manager.id, team.agents[0].id, team.agents[1].id, now - 1000, DAYS * 86_400_000)
      .run();
    const seeded = performance.now() - started;
    const timed = async (etag?: string) => {
      const t = performance.now();
      const res = await call('GET', '/api/team/contacts', { token: team.agents[0].token, headers: etag ? { 'if-none-match': etag } : {} });
      return { res, ms: performance.now() - t };
    };
    await timed();
    const full: number[] = [];
    const unchanged: number[] = [];
    let body: { contacts: unknown[] } = { contacts: [] };
    let etag = '';
    for (let i = 0; i < 10; i++) {
      const a = await timed();
      full.push(a.ms);
      body = a.res.body;
      etag = a.res.headers.get('etag')!;
      const b = await timed(etag);
      expect(b.res.status).toBe(304);
      unchanged.push(b.ms);
    }
    // 12 hours of 1,000 a day: about 500 rows, answered once per person, channel, broker and load:
    // the 200 brokers (each one's rows are one agent's and one channel's here)
    const inWindow = await d1Of(testEnv, team.manager.shard)
      .prepare('select count(*) as n from call_history where team_id = ? and call_date >= ?')
      .bind(team.manager.id, Math.floor((Date.now() - 12 * 3_600_000) / 3_600_000) * 3_600_000)
      .first<{ n: number }>();
    expect(inWindow!.n).toBeGreaterThan(450);
    expect(body.contacts.length).toBe(200);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
    const bytes = JSON.stringify(body).length;
    console.log(
      `team contacts, ${ROWS} rows in ${DAYS} days (seeded in ${seeded.toFixed(0)} ms), ${inWindow!.n} in the window: 200 answer ${body.contacts.length} contacts, ${bytes} bytes, median ${median(full)} ms; 304 median ${median(unchanged)} ms`,
    );
  }, 120_000);
});
