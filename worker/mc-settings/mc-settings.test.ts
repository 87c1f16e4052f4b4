import { type D1Migration, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brokerFilterMcs, brokerFilters, mcLines, mcSettings } from '../db/schema';
import { call, createTeam, createUser, everyDb, homeOfUser, otherShard, type TestUser, testEnv } from '../test/helpers';
import { LINES_MESSAGES } from './mc-settings.messages';

const addMc = (user: TestUser, body: Record<string, unknown>) => call('POST', '/api/mcSettings/add/', { token: user.token, body });
async function mcId(user: TestUser, body: Record<string, unknown>) {
  const res = await addMc(user, body);
  if (res.status !== 200) throw new Error(`add MC: ${res.status} ${res.text}`);
  return res.body.mcSetting._id as string;
}
const mine = async (user: TestUser) => (await call('GET', '/api/mcSettings', { token: user.token })).body as any[];
const rowsOf = async (userId: string) => (await homeOfUser(userId)).db.select().from(mcSettings).where(eq(mcSettings.userId, userId));

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
    expect(res.body.message).toBe(LINES_MESSAGES.added.text);
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
    expect((await addMc(manager, { name: 'X', lines: [1, 2] })).body.message).toBe(LINES_MESSAGES.oneLine.text);
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

  for (const apart of [false, true]) {
    it(`an agent picks one of its manager's MCs, once; never another team's (${apart ? 'on another shard' : 'on the same shard'})`, async () => {
      const a = await createTeam();
      const b = await createTeam(apart ? otherShard(a.manager.shard) : a.manager.shard);
      expect(b.manager.shard === a.manager.shard).toBe(!apart);
      const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
      const theirs = await mcId(b.manager, { name: 'Theirs', lines: [1] });
      const cross = await addMc(a.agents[0], { parentMc: theirs, lines: [2] });
      expect(cross.status).toBe(404);
      expect(cross.body.message).toBe(LINES_MESSAGES.mcNotFound.text);
      // another agent's setting is not a parent MC either
      const agentSetting = await mcId(a.agents[1], { parentMc: acme, lines: [4] });
      expect((await addMc(a.agents[0], { parentMc: agentSetting, lines: [2] })).status).toBe(404);
      await mcId(a.agents[0], { parentMc: acme, lines: [2], name: 'ignored' });
      const twice = await addMc(a.agents[0], { parentMc: acme, lines: [3] });
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe(LINES_MESSAGES.alreadyAdded.text);
      expect((await mine(a.agents[0])).map((s) => [s.name, s.lines])).toEqual([['Acme', [2]]]);
      // the other team's MC has no child setting in any database
      for (const { db } of everyDb()) expect(await db.select().from(mcSettings).where(eq(mcSettings.parentMcId, theirs))).toEqual([]);
    });
  }

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
    expect(res.body.message).toBe(LINES_MESSAGES.saved.text);
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
    expect((await save([{ _id: acme, lines: [] }])).body.message).toBe(LINES_MESSAGES.lineForEvery.text);
    expect((await save([{ _id: acme, lines: [3, 4] }])).body.message).toBe(LINES_MESSAGES.oneLine.text);
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

describe("lines under concurrency: a line is one MC's, whatever arrives at once", () => {
  /**
   * Five MCs on lines 1-5, one line free. Each round fires `n` Save Settings calls at once, call i
   * moving MC i % 5 to the free line: one MC gets it, every call for another MC answers 409.
   */
  async function raceForFreeLine(user: TestUser, rounds: number[]) {
    for (const n of rounds) {
      const before = await mine(user);
      expect(before).toHaveLength(5);
      const used = new Set(before.flatMap((s) => s.lines));
      const free = [1, 2, 3, 4, 5, 6].find((l) => !used.has(l))!;
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          call('POST', '/api/mcSettings/update/details', { token: user.token, body: { mcSettings: [{ _id: before[i % 5]._id, lines: [free] }] } }).then(
            (r) => ({ ...r, mc: before[i % 5] }),
          ),
        ),
      );
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      const after = await mine(user);
      const holders = after.filter((s) => s.lines.includes(free));
      expect(holders).toHaveLength(1);
      const winner = holders[0];
      // every MC keeps exactly one line, and no line is held twice
      expect(after.map((s) => s.lines.length)).toEqual([1, 1, 1, 1, 1]);
      expect(new Set(after.flatMap((s) => s.lines)).size).toBe(5);
      for (const a of answers) {
        if (a.mc._id === winner._id) {
          expect(a.status).toBe(200);
          expect(a.body.message).toBe(LINES_MESSAGES.saved.text);
        } else {
          expect(a.status).toBe(409);
          expect(a.body.message).toBe(`Line ${free} is already used by ${winner.name}`);
        }
      }
      // what D1 holds: five lines, one per MC, the free one the winner's
      const stored = await user.db.select().from(mcLines).where(eq(mcLines.userId, user.id));
      expect(stored).toHaveLength(5);
      expect(new Set(stored.map((r) => r.mcSettingId)).size).toBe(5);
      expect(stored.filter((r) => r.line === free).map((r) => r.mcSettingId)).toEqual([winner._id]);
      // the losers kept their lines
      for (const s of after) if (s._id !== winner._id) expect(s.lines).toEqual(before.find((b) => b._id === s._id).lines);
    }
  }

  it('a manager: 20 to 50 simultaneous saves moving different MCs to one line, six rounds', { timeout: 180_000 }, async () => {
    const { manager } = await createTeam();
    for (let i = 1; i <= 5; i++) await mcId(manager, { name: `Carrier ${i}`, lines: [i] });
    await raceForFreeLine(manager, [20, 30, 50, 25, 40, 21]);
  });

  it('an agent: 20 to 50 simultaneous saves moving different settings to one line, six rounds', { timeout: 180_000 }, async () => {
    const { manager, agents } = await createTeam();
    for (let i = 1; i <= 5; i++) {
      const parentMc = await mcId(manager, { name: `Carrier ${i}`, lines: [i] });
      await mcId(agents[0], { parentMc, lines: [i] });
    }
    await raceForFreeLine(agents[0], [20, 30, 50, 25, 40, 21]);
    // the manager's lines are its own and did not move
    expect((await mine(manager)).map((s) => s.lines)).toEqual([[1], [2], [3], [4], [5]]);
  });

  it('30 simultaneous adds on one line: one MC is added, the rest answer 409 naming it; four rounds', { timeout: 180_000 }, async () => {
    const { manager } = await createTeam();
    for (const line of [2, 4, 6, 1]) {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => addMc(manager, { name: `Line ${line} try ${i}`, lines: [line] })));
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      const won = answers.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      const name = won[0]!.body.mcSetting.name;
      for (const a of answers.filter((x) => x.status !== 200)) {
        expect(a.status).toBe(409);
        expect(a.body.message).toBe(`Line ${line} is already used by ${name}`);
      }
      expect((await mine(manager)).filter((s) => s.lines.includes(line)).map((s) => s.name)).toEqual([name]);
    }
    expect(await rowsOf(manager.id)).toHaveLength(4);
  });

  it("an agent adding its manager's MCs at once, 20 calls for one line: one wins", { timeout: 120_000 }, async () => {
    const { manager, agents } = await createTeam();
    const parents: string[] = [];
    for (let i = 1; i <= 5; i++) parents.push(await mcId(manager, { name: `Carrier ${i}`, lines: [i] }));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => addMc(agents[1], { parentMc: parents[i % 5], lines: [3] })));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const list = await mine(agents[1]);
    expect(list).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect([`Line 3 is already used by ${list[0].name}`, LINES_MESSAGES.alreadyAdded.text]).toContain(a.body.message);
    }
  });
});

describe('POST /api/mcSettings/update/toggleVisibility (Show in DAT)', () => {
  it("flips the caller's own setting and answers 404 for anyone else's", async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const toggle = (token: string) => call('POST', '/api/mcSettings/update/toggleVisibility', { token, body: { settingID: acme } });
    expect((await toggle(a.manager.token)).body).toEqual({ message: LINES_MESSAGES.hidden.text, isVisible: false });
    expect((await toggle(a.manager.token)).body).toEqual({ message: LINES_MESSAGES.shown.text, isVisible: true });
    expect((await toggle(a.agents[0].token)).status).toBe(404);
    expect((await toggle((await createUser('manager')).token)).status).toBe(404);
    expect((await mine(a.manager))[0].isVisible).toBe(true);
  });
});

describe('concurrent toggles: POST /api/mcSettings/update/toggleVisibility', () => {
  it('N simultaneous toggles leave the MC flipped N times; each answer reports the state it set', { timeout: 300_000 }, async () => {
    const a = await createTeam();
    const acme = await mcId(a.manager, { name: 'Acme', lines: [1] });
    const agentSetting = await mcId(a.agents[0], { parentMc: acme, lines: [2] });
    const isVisible = async (id: string) => (await a.manager.db.select().from(mcSettings).where(eq(mcSettings.id, id)))[0]!.isVisible;
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
        for (const r of answers) expect(r.body.message).toBe(r.body.isVisible ? LINES_MESSAGES.shown.text : LINES_MESSAGES.hidden.text);
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
    expect(res.body.message).toBe(LINES_MESSAGES.deleted.text);
    expect((await mine(a.manager)).map((s) => s.name)).toEqual(['Beta']);
    expect((await mine(a.agents[0])).map((s) => s.name)).toEqual(['Beta']);
    expect(await mine(a.agents[1])).toEqual([]);
    expect(await a.manager.db.select().from(mcSettings).where(eq(mcSettings.parentMcId, acme))).toHaveLength(0);
    expect((await a.manager.db.select().from(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, filter.body._id))).map((r) => r.mcId)).toEqual([beta]);
    expect(await a.manager.db.select().from(brokerFilters).where(eq(brokerFilters.id, filter.body._id))).toHaveLength(1);
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

describe('migration 0003_mc_lines', () => {
  it('moves the JSON lines into mc_lines; a line two MCs held stays with the older one; bad values are dropped', async () => {
    // a scratch SQLite database (a fresh Durable Object's) with the migrations before 0003 and old rows
    const stub = testEnv.RATE_LIMITER.get(testEnv.RATE_LIMITER.idFromName(`migration-test-${crypto.randomUUID()}`));
    const result = await runInDurableObject(stub, (_, state) => {
      const exec = (query: string, ...params: unknown[]) => state.storage.sql.exec(query, ...params).toArray();
      // vitest.config.ts hands the migrations over as a test-only binding (as worker/test/apply-migrations.ts reads them)
      const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
      const [before, after] = [TEST_MIGRATIONS.filter((m) => m.name < '0003'), TEST_MIGRATIONS.filter((m) => m.name.startsWith('0003'))];
      expect(after).toHaveLength(1);
      for (const m of before) for (const q of m.queries) exec(q);
      const old = [
        ['a', 'u1', '[1]', 1],
        ['b', 'u1', '[1]', 2], // the race's second holder of line 1
        ['c', 'u1', '[2,3]', 3],
        ['d', 'u2', '[1]', 4], // another user's line 1
        ['e', 'u1', '[]', 5],
        ['f', 'u1', 'not json', 6],
        ['g', 'u1', '[7,"4",0,1.5]', 7],
        ['h', 'u1', '[1,6]', 0], // inserted last but created first: line 1 is its
      ] as const;
      for (const [id, userId, lines, createdAt] of old) {
        exec('insert into mc_settings (id, user_id, name, lines, created_at) values (?, ?, ?, ?, ?)', id, userId, `MC ${id}`, lines, createdAt);
      }
      for (const q of after[0]!.queries) exec(q);
      return {
        lines: exec('select user_id, line, mc_setting_id from mc_lines order by user_id, line'),
        settings: exec('select id from mc_settings order by id').map((r) => r.id),
        columns: exec("select name from pragma_table_info('mc_settings')").map((r) => r.name),
      };
    });
    expect(result.lines).toEqual([
      { user_id: 'u1', line: 1, mc_setting_id: 'h' },
      { user_id: 'u1', line: 2, mc_setting_id: 'c' },
      { user_id: 'u1', line: 3, mc_setting_id: 'c' },
      { user_id: 'u1', line: 6, mc_setting_id: 'h' },
      { user_id: 'u2', line: 1, mc_setting_id: 'd' },
    ]);
    expect(result.settings).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(result.columns).not.toContain('lines');
  });

  it('the database itself refuses a second holder of a line and a line outside 1 to 6', async () => {
    const { manager } = await createTeam();
    const a = await mcId(manager, { name: 'Acme', lines: [1] });
    const b = await mcId(manager, { name: 'Beta', lines: [2] });
    await expect(manager.db.insert(mcLines).values({ userId: manager.id, line: 1, mcSettingId: b })).rejects.toThrow();
    await expect(manager.db.insert(mcLines).values({ userId: manager.id, line: 7, mcSettingId: b })).rejects.toThrow();
    expect((await manager.db.select().from(mcLines).where(eq(mcLines.userId, manager.id))).map((r) => [r.line, r.mcSettingId]).sort()).toEqual([
      [1, a],
      [2, b],
    ]);
  });
});
