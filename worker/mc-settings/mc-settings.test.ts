import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brokerFilterMcs, brokerFilters, mcSettings } from '../db/schema';
import { call, createTeam, createUser, db, type TestUser } from '../test/helpers';
import { MC_MESSAGES } from './mc-settings.schema';

const addMc = (user: TestUser, body: Record<string, unknown>) => call('POST', '/api/mcSettings/add/', { token: user.token, body });
async function mcId(user: TestUser, body: Record<string, unknown>) {
  const res = await addMc(user, body);
  if (res.status !== 200) throw new Error(`add MC: ${res.status} ${res.text}`);
  return res.body.mcSetting._id as string;
}
const mine = async (user: TestUser) => (await call('GET', '/api/mcSettings', { token: user.token })).body as any[];
const rowsOf = (userId: string) => db.select().from(mcSettings).where(eq(mcSettings.userId, userId));

describe('POST /api/mcSettings/add/', () => {
  it('a manager adds MCs by name with one line each and its templates', async () => {
    const { manager } = await createTeam();
    const res = await addMc(manager, {
      name: '  Acme MC ',
      parentMc: null,
      lines: [3],
      emailSubject: 'Load {origin}',
      emailContent: 'Hello,\nis it still available?',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MC_MESSAGES.added);
    expect(res.body.mcSetting).toEqual({
      _id: expect.any(String),
      name: 'Acme MC',
      parentMc: null,
      lines: [3],
      emailSubject: 'Load {origin}',
      emailContent: 'Hello,\nis it still available?',
      isVisible: true,
      userId: manager.id,
    });
    expect(await rowsOf(manager.id)).toHaveLength(1);
  });

  it('answers the spec messages and writes nothing', async () => {
    const { manager, agents } = await createTeam();
    expect((await addMc(manager, { name: ' ', lines: [1] })).body.message).toBe('Name is empty');
    expect((await addMc(manager, { name: 'X', lines: [] })).body.message).toBe('Select line for new MC');
    expect((await addMc(manager, { name: 'X' })).body.message).toBe('Select line for new MC');
    expect((await addMc(manager, { name: 'X', lines: [1, 2] })).body.message).toBe(MC_MESSAGES.oneLine);
    expect((await addMc(manager, { name: 'X', lines: [7] })).status).toBe(400);
    expect((await addMc(manager, { name: 'X', lines: ['1'] })).status).toBe(400);
    expect((await addMc(agents[0], { name: 'Own name', lines: [1] })).body.message).toBe('Select MC');
    expect((await addMc(agents[0], { parentMc: null, lines: [1] })).body.message).toBe('Select MC');
    expect(await rowsOf(manager.id)).toHaveLength(0);
    expect(await rowsOf(agents[0].id)).toHaveLength(0);
  });

  it('a taken line is refused with the MC that holds it; lines are per user', async () => {
    const { manager, agents } = await createTeam();
    const acme = await mcId(manager, { name: 'Acme', lines: [1] });
    const taken = await addMc(manager, { name: 'Beta', lines: [1] });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Line 1 is already used by Acme');
    expect(await rowsOf(manager.id)).toHaveLength(1);
    await mcId(manager, { name: 'Beta', lines: [2] });
    // the agent's line 1 is its own, whatever the manager uses
    const res = await addMc(agents[0], { parentMc: acme, lines: [1] });
    expect(res.status).toBe(200);
    expect(res.body.mcSetting).toMatchObject({ name: 'Acme', parentMc: { _id: acme, name: 'Acme' }, lines: [1] });
  });

  it("an agent picks one of its manager's MCs, once; never another team's", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const theirs = await mcId(b.manager, { name: 'Theirs', lines: [1] });
    const cross = await addMc(a.agents[0], { parentMc: theirs, lines: [2] });
    expect(cross.status).toBe(404);
    expect(cross.body.message).toBe(MC_MESSAGES.mcNotFound);
    // another agent's setting is not a parent MC either
    const agentSetting = await mcId(a.agents[1], { parentMc: acme, lines: [4] });
    expect((await addMc(a.agents[0], { parentMc: agentSetting, lines: [2] })).status).toBe(404);
    await mcId(a.agents[0], { parentMc: acme, lines: [2], name: 'ignored' });
    const twice = await addMc(a.agents[0], { parentMc: acme, lines: [3] });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(MC_MESSAGES.alreadyAdded);
    expect((await mine(a.agents[0])).map((s) => [s.name, s.lines])).toEqual([['Acme', [2]]]);
  });

  it('two adds racing for the same line: exactly one gets it', async () => {
    const { manager } = await createTeam();
    const results = await Promise.all([addMc(manager, { name: 'One', lines: [5] }), addMc(manager, { name: 'Two', lines: [5] })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await rowsOf(manager.id)).toHaveLength(1);
  });
});

describe('GET /api/mcSettings, /parentMcSettings, /allMcSettings; POST /byParentId/', () => {
  it('answers the caller own list with and without the trailing slash', async () => {
    const { manager, agents } = await createTeam();
    const acme = await mcId(manager, { name: 'Acme', lines: [1] });
    await mcId(manager, { name: 'Beta', lines: [2] });
    await mcId(agents[0], { parentMc: acme, lines: [6] });
    const bare = await call('GET', '/api/mcSettings', { token: manager.token });
    const slash = await call('GET', '/api/mcSettings/', { token: manager.token });
    expect(bare.status).toBe(200);
    expect(slash.body).toEqual(bare.body);
    expect(bare.body.map((s: any) => s.name)).toEqual(['Acme', 'Beta']);
    expect((await mine(agents[0])).map((s) => [s.name, s.parentMc, s.lines])).toEqual([['Acme', { _id: acme, name: 'Acme' }, [6]]]);
    expect(await mine(agents[1])).toEqual([]);
  });

  it("parentMcSettings: an agent gets its manager's MCs, a manager its own", async () => {
    const a = await createTeam();
    const b = await createTeam();
    await mcId(a.manager, { name: 'Acme', lines: [1] });
    await mcId(b.manager, { name: 'Theirs', lines: [1] });
    const forAgent = await call('GET', '/api/mcSettings/parentMcSettings', { token: a.agents[0].token });
    expect(forAgent.body.map((s: any) => s.name)).toEqual(['Acme']);
    expect((await call('GET', '/api/mcSettings/parentMcSettings', { token: a.manager.token })).body.map((s: any) => s.name)).toEqual(['Acme']);
  });

  it('allMcSettings follows the tree; byParentId answers a visible manager or 404', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    await mcId(a.agents[0], { parentMc: acme, lines: [2] });
    await mcId(a.agents[1], { parentMc: acme, lines: [3] });
    const theirs = await mcId(b.manager, { name: 'Theirs', lines: [1] });
    const all = (token: string) => call('GET', '/api/mcSettings/allMcSettings', { token }).then((r) => r.body.map((s: any) => s.userId).sort());
    const teamIds = [a.manager.id, a.agents[0].id, a.agents[1].id].sort();
    expect(await all(a.manager.token)).toEqual(teamIds);
    expect(await all(a.director.token)).toEqual(teamIds);
    expect(await all(a.agents[0].token)).toEqual([a.agents[0].id]);

    const byParent = (token: string, parentId: string) => call('POST', '/api/mcSettings/byParentId/', { token, body: { parentId } });
    expect((await byParent(a.director.token, a.manager.id)).body.map((s: any) => s._id)).toEqual([acme]);
    expect((await byParent(a.agents[0].token, a.manager.id)).body.map((s: any) => s._id)).toEqual([acme]);
    expect((await call('POST', '/api/mcSettings/byParentId', { token: a.manager.token, body: { parentId: a.manager.id } })).body).toHaveLength(1);
    const cross = await byParent(a.director.token, b.manager.id);
    expect(cross.status).toBe(404);
    expect(JSON.stringify(cross.body)).not.toContain(theirs);
    expect((await byParent(a.agents[0].token, b.manager.id)).status).toBe(404);
    expect((await byParent(a.manager.token, '')).status).toBe(400);
  });
});

describe('POST /api/mcSettings/update/details (Save Settings)', () => {
  it('saves names, lines and templates; two MCs may swap lines in one save', async () => {
    const { manager } = await createTeam();
    const acme = await mcId(manager, { name: 'Acme', lines: [1] });
    const beta = await mcId(manager, { name: 'Beta', lines: [2] });
    const res = await call('POST', '/api/mcSettings/update/details', {
      token: manager.token,
      body: {
        mcSettings: [
          { _id: acme, name: 'Acme Trucking', lines: [2], emailSubject: 'Subject A', emailContent: 'Body A', isVisible: false },
          { _id: beta, lines: [1] },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MC_MESSAGES.saved);
    const after = await mine(manager);
    expect(after.map((s) => [s.name, s.lines, s.emailSubject, s.emailContent, s.isVisible])).toEqual([
      ['Acme Trucking', [2], 'Subject A', 'Body A', false],
      ['Beta', [1], '', '', true],
    ]);
  });

  it("refuses a taken line, an empty name, a missing line and another user's setting, saving nothing", async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const beta = await mcId(a.manager, { name: 'Beta', lines: [2] });
    const agentSetting = await mcId(a.agents[0], { parentMc: acme, lines: [1] });
    const save = (mcSettings: unknown[]) => call('POST', '/api/mcSettings/update/details', { token: a.manager.token, body: { mcSettings } });
    const taken = await save([
      { _id: acme, emailSubject: 'changed' },
      { _id: beta, lines: [1] },
    ]);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Line 1 is already used by Acme');
    expect((await save([{ _id: acme, name: '  ' }])).body.message).toBe('Name is empty');
    expect((await save([{ _id: acme, lines: [] }])).body.message).toBe(MC_MESSAGES.lineForEvery);
    expect((await save([{ _id: acme, lines: [3, 4] }])).body.message).toBe(MC_MESSAGES.oneLine);
    const cross = await save([
      { _id: acme, emailSubject: 'changed' },
      { _id: agentSetting, lines: [5] },
    ]);
    expect(cross.status).toBe(404);
    const rows = await mine(a.manager);
    expect(rows.map((s) => [s.name, s.lines, s.emailSubject])).toEqual([
      ['Acme', [1], ''],
      ['Beta', [2], ''],
    ]);
    expect((await mine(a.agents[0]))[0].lines).toEqual([1]);
  });

  it("an agent keeps the manager's MC name; it changes its own lines and templates only", async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const setting = await mcId(a.agents[0], { parentMc: acme, lines: [1] });
    const res = await call('POST', '/api/mcSettings/update/details', {
      token: a.agents[0].token,
      body: { mcSettings: [{ _id: setting, name: 'Renamed', lines: [4], emailSubject: 'Mine' }] },
    });
    expect(res.status).toBe(200);
    expect((await mine(a.agents[0]))[0]).toMatchObject({ name: 'Acme', lines: [4], emailSubject: 'Mine' });
    expect((await mine(a.manager))[0]).toMatchObject({ name: 'Acme', lines: [1] });
  });
});

describe('POST /api/mcSettings/update/toggleVisibility (Show in DAT)', () => {
  it("flips the caller's own setting and answers 404 for anyone else's", async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const toggle = (token: string) => call('POST', '/api/mcSettings/update/toggleVisibility', { token, body: { settingID: acme } });
    expect((await toggle(a.manager.token)).body).toEqual({ message: MC_MESSAGES.hidden, isVisible: false });
    expect((await toggle(a.manager.token)).body).toEqual({ message: MC_MESSAGES.shown, isVisible: true });
    expect((await toggle(a.agents[0].token)).status).toBe(404);
    expect((await toggle((await createUser('manager')).token)).status).toBe(404);
    expect((await mine(a.manager))[0].isVisible).toBe(true);
  });
});

describe('concurrent toggles: POST /api/mcSettings/update/toggleVisibility', () => {
  it('N simultaneous toggles leave the MC flipped N times; each answer reports the state it set', { timeout: 120_000 }, async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const agentSetting = await mcId(a.agents[0], { parentMc: acme, lines: [2] });
    const isVisible = async (id: string) => (await db.select().from(mcSettings).where(eq(mcSettings.id, id)))[0]!.isVisible;
    for (const [user, id] of [
      [a.manager, acme],
      [a.agents[0], agentSetting],
    ] as const) {
      for (const n of [9, 20, 21, 50, 9, 21]) {
        const before = await isVisible(id);
        const answers = await Promise.all(
          Array.from({ length: n }, () => call('POST', '/api/mcSettings/update/toggleVisibility', { token: user.token, body: { settingID: id } })),
        );
        expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
        expect(await isVisible(id)).toBe(n % 2 ? !before : before);
        const setTo = answers.map((r) => r.body.isVisible as boolean);
        expect(setTo.filter((v) => v !== before)).toHaveLength(Math.ceil(n / 2));
        expect(setTo.filter((v) => v === before)).toHaveLength(Math.floor(n / 2));
        for (const r of answers) expect(r.body.message).toBe(r.body.isVisible ? MC_MESSAGES.shown : MC_MESSAGES.hidden);
      }
    }
  });
});

describe('DELETE /api/mcSettings/', () => {
  it("deleting a manager's MC removes the agents' settings and the MC from filters, together", async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const beta = await mcId(a.manager, { name: 'Beta', lines: [2] });
    await mcId(a.agents[0], { parentMc: acme, lines: [1] });
    await mcId(a.agents[0], { parentMc: beta, lines: [2] });
    await mcId(a.agents[1], { parentMc: acme, lines: [3] });
    const types = (await call('GET', '/api/user/filterOverrides', { token: a.manager.token })).body;
    const filter = await call('POST', '/api/broker/add', {
      token: a.manager.token,
      body: { name: 'Both MCs', type: types[0]._id, mcList: [acme, beta], usersList: [a.agents[0].id] },
    });
    expect(filter.status).toBe(200);

    const res = await call('DELETE', '/api/mcSettings/', { token: a.manager.token, body: { settingID: acme } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MC_MESSAGES.deleted);
    expect((await mine(a.manager)).map((s) => s.name)).toEqual(['Beta']);
    expect((await mine(a.agents[0])).map((s) => s.name)).toEqual(['Beta']);
    expect(await mine(a.agents[1])).toEqual([]);
    expect(await db.select().from(mcSettings).where(eq(mcSettings.parentMcId, acme))).toHaveLength(0);
    expect((await db.select().from(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, filter.body._id))).map((r) => r.mcId)).toEqual([beta]);
    expect(await db.select().from(brokerFilters).where(eq(brokerFilters.id, filter.body._id))).toHaveLength(1);
  });

  it("an agent's delete removes only its own setting; another user's setting answers 404", async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const own = await mcId(a.agents[0], { parentMc: acme, lines: [1] });
    const other = await mcId(a.agents[1], { parentMc: acme, lines: [1] });
    expect((await call('DELETE', '/api/mcSettings', { token: a.agents[0].token, body: { settingID: acme } })).status).toBe(404);
    expect((await call('DELETE', '/api/mcSettings', { token: a.agents[0].token, body: { settingID: other } })).status).toBe(404);
    expect((await call('DELETE', '/api/mcSettings', { token: a.manager.token, body: { settingID: own } })).status).toBe(404);
    expect((await call('DELETE', '/api/mcSettings', { token: a.agents[0].token, body: { settingID: own } })).status).toBe(200);
    expect(await mine(a.agents[0])).toEqual([]);
    expect((await mine(a.agents[1])).map((s) => s._id)).toEqual([other]);
    expect((await mine(a.manager)).map((s) => s._id)).toEqual([acme]);
    expect((await call('DELETE', '/api/mcSettings', { token: a.agents[0].token, body: {} })).status).toBe(400);
  });
});

describe('MC settings routes: roles and tokens', () => {
  it('answers 401 without a token; 403 to marketing, and to directors outside the history lists', async () => {
    const a = await createTeam();
    const marketing = await createUser('marketing');
    const lineRoutes: [string, string, unknown?][] = [
      ['GET', '/api/mcSettings'],
      ['GET', '/api/mcSettings/'],
      ['GET', '/api/mcSettings/parentMcSettings'],
      ['POST', '/api/mcSettings/add/', { name: 'X', lines: [1] }],
      ['POST', '/api/mcSettings/update/details', { mcSettings: [] }],
      ['POST', '/api/mcSettings/update/toggleVisibility', { settingID: 'x' }],
      ['DELETE', '/api/mcSettings/', { settingID: 'x' }],
    ];
    for (const [method, path, body] of lineRoutes) {
      expect((await call(method, path, { body })).status).toBe(401);
      expect((await call(method, path, { token: marketing.token, body })).status).toBe(403);
      expect((await call(method, path, { token: a.director.token, body })).status).toBe(403);
    }
    for (const [method, path, body] of [
      ['GET', '/api/mcSettings/allMcSettings'],
      ['POST', '/api/mcSettings/byParentId/', { parentId: a.manager.id }],
    ] as const) {
      expect((await call(method, path, { body })).status).toBe(401);
      expect((await call(method, path, { token: marketing.token, body })).status).toBe(403);
      expect((await call(method, path, { token: a.director.token, body })).status).toBe(200);
    }
    const expired = await createUser('manager', { subscriptionDays: -1 });
    expect((await call('GET', '/api/mcSettings', { token: expired.token })).status).toBe(403);
  });
});
