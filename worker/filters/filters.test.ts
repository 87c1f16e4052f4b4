import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brokerFilterContacts, brokerFilterMcs, brokerFilters, brokerFilterUsers, filterTypes } from '../db/schema';
import { addFilter as add, addMc, filterSave, teamWithMcs, typesOf } from '../test/filters';
import { call, createTeam, createUser, errorBody, everyDb, otherShard, type TestUser } from '../test/helpers';
import { FILTER_MESSAGES } from './filters.messages';
import { MAX_ALIASES, MAX_CONTACTS, SEARCH_LIMIT } from './filters.schema';

type Team = Awaited<ReturnType<typeof createTeam>>;

const filterBody = (t: { types: { _id: string }[]; mcA: string }, extra: Record<string, unknown> = {}) =>
  filterSave(t, { comment: 'slow to answer', allMC: false, mcList: [t.mcA], ...extra });

const search = (user: TestUser, body: Record<string, unknown> = {}) => call('POST', '/api/broker', { token: user.token, body: { allMC: true, ...body } });
const namesSeen = async (user: TestUser, body: Record<string, unknown> = {}) =>
  ((await search(user, body)).body as { name: string }[]).map((f) => f.name).sort();
const teamFilterCount = async (manager: TestUser) => (await manager.db.select().from(brokerFilters).where(eq(brokerFilters.teamId, manager.id))).length;

describe('filter types: GET /api/user/filterOverrides, PUT /api/user/update/filterOverride/', () => {
  it('gives each team the default set with colours on first read, sorted by index, shared with its agents', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const mine = await typesOf(a.manager);
    expect(mine.map((t: any) => [t.typeName, t.color, t.className, t.index])).toEqual([
      ['Blocked', '#d32f2f', 'red', 1],
      ['Preferred', '#2e7d32', 'green', 2],
      ['Slow pay', '#ef6c00', 'orange', 3],
      ['Check first', '#1565c0', 'blue', 4],
      ['Note', '#6b7280', 'grey', 5],
    ]);
    expect((await typesOf(a.agents[0])).map((t) => t._id)).toEqual(mine.map((t) => t._id));
    const theirs = await typesOf(b.manager);
    expect(theirs.map((t) => t._id).some((id) => mine.some((m) => m._id === id))).toBe(false);
    // two first reads at once still leave one set
    const c = await createTeam();
    await Promise.all([typesOf(c.manager), typesOf(c.agents[0]), typesOf(c.agents[1])]);
    expect(await c.manager.db.select().from(filterTypes).where(eq(filterTypes.teamId, c.manager.id))).toHaveLength(5);
  });

  it('a manager renames and recolours; the order stays; agents may read but not rename', async () => {
    const a = await createTeam();
    const types = await typesOf(a.manager);
    const res = await call('PUT', '/api/user/update/filterOverride/', {
      token: a.manager.token,
      body: { newFilters: [{ _id: types[0]!._id, typeName: '  Never again ', color: '#7B1FA2' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(FILTER_MESSAGES.typesSaved.text);
    const after = await typesOf(a.agents[0]);
    expect(after[0]).toMatchObject({ typeName: 'Never again', color: '#7b1fa2', className: 'purple', index: 1 });
    expect(after.slice(1).map((t) => t.typeName)).toEqual(['Preferred', 'Slow pay', 'Check first', 'Note']);

    const agentTry = await call('PUT', '/api/user/update/filterOverride', {
      token: a.agents[0].token,
      body: { newFilters: [{ _id: types[1]!._id, typeName: 'Mine', color: '#000000' }] },
    });
    expect(agentTry.status).toBe(403);
    expect(agentTry.body.message).toBe(FILTER_MESSAGES.agentsCannotRename.text);
    expect((await typesOf(a.manager))[1]!.typeName).toBe('Preferred');
  });

  it("refuses an empty name, a bad colour and another team's type, changing nothing", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const mine = await typesOf(a.manager);
    const theirs = await typesOf(b.manager);
    const put = (newFilters: unknown) => call('PUT', '/api/user/update/filterOverride/', { token: a.manager.token, body: { newFilters } });
    expect((await put([{ _id: mine[0]!._id, typeName: '  ', color: '#000000' }])).body.message).toBe(FILTER_MESSAGES.typeNameEmpty.text);
    expect((await put([{ _id: mine[0]!._id, typeName: 'X', color: 'red' }])).body.message).toBe(FILTER_MESSAGES.badColor.text);
    const cross = await put([
      { _id: mine[0]!._id, typeName: 'X', color: '#000000' },
      { _id: theirs[0]!._id, typeName: 'Hacked', color: '#000000' },
    ]);
    expect(cross.status).toBe(404);
    expect((await typesOf(b.manager))[0]!.typeName).toBe('Blocked');
    expect((await typesOf(a.manager))[0]!.typeName).toBe('Blocked');
    expect((await put([])).status).toBe(400);
  });

  it('a refused rename before the first read writes nothing; a valid one writes the set with the change', async () => {
    const a = await createTeam();
    const put = (newFilters: unknown) => call('PUT', '/api/user/update/filterOverride/', { token: a.manager.token, body: { newFilters } });
    expect((await put([{ _id: `${a.manager.id}-t2`, typeName: ' ', color: '#000000' }])).status).toBe(400);
    expect(await a.manager.db.select().from(filterTypes).where(eq(filterTypes.teamId, a.manager.id))).toHaveLength(0);
    const res = await put([{ _id: `${a.manager.id}-t2`, typeName: 'Favourite', color: '#00838f' }]);
    expect(res.status).toBe(200);
    expect(res.body.filterTypes.map((t: any) => t.typeName)).toEqual(['Blocked', 'Favourite', 'Slow pay', 'Check first', 'Note']);
  });

  it('needs a token and the filters area', async () => {
    const a = await createTeam();
    expect((await call('GET', '/api/user/filterOverrides')).status).toBe(401);
    expect((await call('GET', '/api/user/filterOverrides', { token: a.director.token })).status).toBe(403);
    expect((await call('GET', '/api/user/filterOverrides', { token: (await createUser('marketing')).token })).status).toBe(403);
    const expired = await createUser('manager', { subscriptionDays: -1 });
    expect((await call('GET', '/api/user/filterOverrides', { token: expired.token })).body.message).toBe('Your subscription is not active');
    // the users area's routes are untouched by these
    expect((await call('GET', `/api/user/${a.manager.id}`, { token: a.manager.token })).status).toBe(200);
  });
});

describe('POST /api/broker/add: validation and ids', () => {
  it('answers the spec messages in order and writes nothing', async () => {
    const t = await teamWithMcs();
    const tryAdd = (extra: Record<string, unknown>) => call('POST', '/api/broker/add', { token: t.manager.token, body: filterBody(t, extra) });
    expect((await tryAdd({ name: '   ' })).body.message).toBe('Name is empty');
    expect((await tryAdd({ name: '', type: '-1' })).body.message).toBe('Name is empty');
    expect((await tryAdd({ type: '-1' })).body.message).toBe('Select the type');
    expect((await tryAdd({ type: '' })).body.message).toBe('Select the type');
    const noMc = await tryAdd({ mcList: [], allMC: false });
    expect(noMc.status).toBe(400);
    expect(noMc.body.message).toBe('Select minimum 1 mc or All MC');
    expect((await tryAdd({ contacts: 'not a list' })).status).toBe(400);
    const contacts = await tryAdd({ contacts: Array.from({ length: MAX_CONTACTS + 1 }, (_, i) => `ops${i}@acme.example`) });
    expect([contacts.status, contacts.body]).toEqual([400, errorBody(FILTER_MESSAGES.tooManyContacts, { max: MAX_CONTACTS })]);
    const aliases = await tryAdd({ aliases: Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `Acme ${i}`) });
    expect([aliases.status, aliases.body]).toEqual([400, errorBody(FILTER_MESSAGES.tooManyAliases, { max: MAX_ALIASES })]);
    // a contact is a phone or an e-mail (rule 0138)
    for (const bad of ['hello', '12', 'ops@', 'call 555 123 4567']) {
      const res = await tryAdd({ contacts: ['ops@acme.example', bad] });
      expect([res.status, res.body.message]).toEqual([400, `"${bad}" is not a phone number or an e-mail`]);
    }
    expect(await teamFilterCount(t.manager)).toBe(0);
  });

  it("refuses another team's MC, user or type with 404 and writes nothing", async () => {
    const t = await teamWithMcs();
    const other = await teamWithMcs();
    const tryAdd = (extra: Record<string, unknown>) => call('POST', '/api/broker/add', { token: t.manager.token, body: filterBody(t, extra) });
    expect((await tryAdd({ mcList: [other.mcA] })).status).toBe(404);
    expect((await tryAdd({ mcList: [t.mcA, other.mcB] })).body.message).toBe(FILTER_MESSAGES.mcNotFound.text);
    expect((await tryAdd({ usersList: [other.agents[0].id] })).body.message).toBe(FILTER_MESSAGES.userNotFound.text);
    expect((await tryAdd({ type: other.types[0]!._id })).status).toBe(404);
    // an agent's own MC setting id is not a team MC id: filters hold the manager's MC ids
    const [agentSetting] = (await call('GET', '/api/mcSettings', { token: t.agents[0].token })).body;
    expect((await call('POST', '/api/broker/add', { token: t.agents[0].token, body: filterBody(t, { mcList: [agentSetting._id] }) })).status).toBe(404);
    // an agent may use only the manager's MCs it has in its own list
    expect((await call('POST', '/api/broker/add', { token: t.agents[0].token, body: filterBody(t, { mcList: [t.mcB] }) })).status).toBe(404);
    expect(await teamFilterCount(t.manager)).toBe(0);
    expect(await teamFilterCount(other.manager)).toBe(0);
  });

  it('stores the filter with its lists; no contacts turns contacts-only off; only-creator lists the creator', async () => {
    const t = await teamWithMcs();
    const id = await add(
      t.manager,
      filterBody(t, {
        // one phone typed two ways is one contact, in E.164 (rule 0138)
        contacts: [' (555) 123-4567 ', 'ops@acme.example', '555 1234567', ''],
        onlyOnContacts: true,
        usersList: [t.agents[0].id, t.agents[0].id],
        mcList: [t.mcA, t.mcB],
      }),
    );
    const [row] = await t.manager.db.select().from(brokerFilters).where(eq(brokerFilters.id, id));
    expect(row).toMatchObject({ teamId: t.manager.id, creatorId: t.manager.id, isVerified: true, onlyOnContacts: true, comment: 'slow to answer', index: 1 });
    const contacts = await t.manager.db.select().from(brokerFilterContacts).where(eq(brokerFilterContacts.filterId, id));
    expect(contacts.sort((a, b) => a.position - b.position).map((c) => c.contact)).toEqual(['+15551234567', 'ops@acme.example']);
    expect((await t.manager.db.select().from(brokerFilterUsers).where(eq(brokerFilterUsers.filterId, id))).map((u) => u.userId)).toEqual([t.agents[0].id]);
    expect(await t.manager.db.select().from(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, id))).toHaveLength(2);

    const second = await add(
      t.manager,
      filterBody(t, {
        name: 'No contacts',
        onlyOnContacts: true,
        contacts: ['  '],
        onlyCreator: true,
        usersList: [t.agents[1].id],
        newUsers: true,
        allMC: true,
        mcList: [t.mcA],
      }),
    );
    const [dto] = (await search(t.manager, { name: 'No contacts' })).body;
    expect(dto).toMatchObject({
      _id: second,
      onlyOnContacts: false,
      contacts: [],
      onlyCreator: true,
      usersList: [t.manager.id],
      newUsers: false,
      allMC: true,
      mcList: [],
      index: 2,
    });
  });
});

describe('POST /api/broker: what each user sees', () => {
  async function scenario() {
    const t = await teamWithMcs();
    const [m, a0, a1] = [t.manager, t.agents[0], t.agents[1]];
    await add(m, filterBody(t, { name: 'Team all MC', allMC: true, mcList: [], usersList: [m.id, a0.id, a1.id] }));
    await add(m, filterBody(t, { name: 'For agent 0 on A', usersList: [a0.id] }));
    await add(m, filterBody(t, { name: 'Team on B', mcList: [t.mcB], usersList: [a0.id, a1.id] }));
    await add(m, filterBody(t, { name: 'Manager only', onlyCreator: true }));
    await add(m, filterBody(t, { name: 'New users later', allMC: true, usersList: [], newUsers: true }));
    await add(a0, filterBody(t, { name: 'Agent 0 private', onlyCreator: true }));
    await add(a0, filterBody(t, { name: 'Agent 0 for team', usersList: [a0.id, a1.id] }));
    return t;
  }

  it('a manager sees every filter of its team, with canEdit on all; another team sees none of them', async () => {
    const t = await scenario();
    const res = await search(t.manager);
    expect(res.status).toBe(200);
    expect(res.body.map((f: any) => f.name)).toEqual([
      'Team all MC',
      'For agent 0 on A',
      'Team on B',
      'Manager only',
      'New users later',
      'Agent 0 private',
      'Agent 0 for team',
    ]);
    expect(res.body.every((f: any) => f.canEdit)).toBe(true);
    const first = res.body[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        '_id',
        'allMC',
        'canEdit',
        'comment',
        'contacts',
        'creator',
        'index',
        'isVerified',
        'isVisible',
        'mcList',
        'name',
        'newUsers',
        'onlyCreator',
        'onlyOnContacts',
        'type',
        'usersList',
        // decision 0007
        'aliases',
        'dotNumber',
        'mcNumber',
        'rejectedReason',
        // rule 0089: its creator may correct a rejected filter
        'canCorrect',
      ].sort(),
    );
    expect(first.creator).toEqual({ _id: t.manager.id, name: t.manager.name });
    expect(res.body.map((f: any) => f.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(res.body.find((f: any) => f.name === 'Agent 0 private').isVerified).toBe(false);
    const other = await teamWithMcs();
    expect((await search(other.manager)).body).toEqual([]);
  });

  it('an agent sees its own filters, and verified ones that apply to it on its MCs', async () => {
    const t = await scenario();
    // agent 0 (MC A only): listed on the all-MC and A filters, not on B; its own two
    expect(await namesSeen(t.agents[0])).toEqual(['Agent 0 for team', 'Agent 0 private', 'For agent 0 on A', 'Team all MC'].sort());
    // agent 1 (A and B): not the manager's private one, not agent 0's private or unverified one
    expect(await namesSeen(t.agents[1])).toEqual(['Team all MC', 'Team on B'].sort());
    const a0 = (await search(t.agents[0])).body as any[];
    expect(a0.find((f) => f.name === 'Agent 0 private').canEdit).toBe(true);
    expect(a0.find((f) => f.name === 'Agent 0 for team').canEdit).toBe(false);
    expect(a0.find((f) => f.name === 'Team all MC').canEdit).toBe(false);
  });

  it('newUsers covers an agent added after the filter was saved, not the agents left out before', async () => {
    const t = await scenario();
    expect(await namesSeen(t.agents[0])).not.toContain('New users later');
    await new Promise((r) => setTimeout(r, 5));
    const late = await createUser('agent', { parentId: t.manager.id });
    // the late agent has no MC yet: it sees the all-MC filter that covers new users, not the listed one
    expect(await namesSeen(late)).toEqual(['New users later']);
  });

  it("a manager's save verifies an agent's filter ('Verify and Update Info'); then it reaches the team", async () => {
    const t = await scenario();
    const teamFilter = (await search(t.manager, { name: 'Agent 0 for team' })).body[0];
    expect(teamFilter.isVerified).toBe(false);
    const res = await call('POST', '/api/broker/update/details', {
      token: t.manager.token,
      body: { ...filterBody(t, teamFilter), type: teamFilter.type, updateFilterId: teamFilter._id },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(FILTER_MESSAGES.verified.text);
    const after = (await search(t.manager, { name: 'Agent 0 for team' })).body[0];
    expect(after).toMatchObject({ isVerified: true, creator: { _id: t.agents[0].id } });
    expect(await namesSeen(t.agents[1])).toContain('Agent 0 for team');
    // a second save by the manager is a plain update
    const again = await call('POST', '/api/broker/update/details', { token: t.manager.token, body: { ...filterBody(t, after), updateFilterId: after._id } });
    expect(again.body.message).toBe(FILTER_MESSAGES.updated.text);
  });

  it("an agent's edit of its own filter needs verifying again", async () => {
    const t = await scenario();
    const own = (await search(t.agents[0], { name: 'Agent 0 private' })).body[0];
    await call('POST', '/api/broker/update/details', { token: t.manager.token, body: { ...filterBody(t, own), updateFilterId: own._id } });
    expect((await search(t.manager, { name: 'Agent 0 private' })).body[0].isVerified).toBe(true);
    const res = await call('POST', '/api/broker/update/details', {
      token: t.agents[0].token,
      body: { ...filterBody(t, own), comment: 'changed', updateFilterId: own._id },
    });
    expect(res.body.message).toBe(FILTER_MESSAGES.updated.text);
    expect((await search(t.manager, { name: 'Agent 0 private' })).body[0]).toMatchObject({ isVerified: false, comment: 'changed' });
  });

  it('filters by name, type, users kind, contacts only, creator and MCs', async () => {
    const t = await scenario();
    const m = t.manager;
    await add(m, filterBody(t, { name: 'ACME West', type: t.types[2]!._id, contacts: ['(555) 123-4567'], onlyOnContacts: true, usersList: [m.id] }));
    expect(await namesSeen(m, { name: 'acme' })).toEqual(['ACME West']);
    expect(await namesSeen(m, { name: 'agent 0' })).toEqual(['Agent 0 for team', 'Agent 0 private', 'For agent 0 on A']);
    expect(await namesSeen(m, { type: t.types[2]!._id })).toEqual(['ACME West']);
    expect((await namesSeen(m, { type: 'all' })).length).toBe(8);
    expect(await namesSeen(m, { onlyCreator: true })).toEqual(['Agent 0 private', 'Manager only']);
    expect(await namesSeen(m, { teamWithMe: true })).toEqual(['ACME West', 'Agent 0 for team', 'Team all MC']);
    expect(await namesSeen(m, { teamWithoutMe: true })).toEqual(['For agent 0 on A', 'New users later', 'Team on B']);
    expect((await namesSeen(m, { onlyCreator: true, teamWithMe: true, teamWithoutMe: true })).length).toBe(8);
    expect(await namesSeen(m, { onlyContacts: true })).toEqual(['ACME West']);
    expect(await namesSeen(m, { creator: t.agents[0].id })).toEqual(['Agent 0 for team', 'Agent 0 private']);
    expect(await namesSeen(m, { allMC: false, mcList: [t.mcB] })).toEqual(['New users later', 'Team all MC', 'Team on B']);
    const none = await search(m, { allMC: false, mcList: [] });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Choose minimum 1 MC');
    expect((await search(m, { mcList: 'x' })).status).toBe(400);
  });

  it(`answers at most the newest ${SEARCH_LIMIT} matches, oldest first`, async () => {
    const t = await teamWithMcs();
    const now = new Date();
    const rows = Array.from({ length: SEARCH_LIMIT + 5 }, (_, i) => ({
      id: `bulk-${t.manager.id}-${i}`,
      teamId: t.manager.id,
      creatorId: t.manager.id,
      name: `Bulk ${i}`,
      typeId: t.types[0]!._id,
      isVerified: true,
      allMc: true,
      index: i + 1,
      createdAt: now,
      updatedAt: now,
    }));
    // three rows a statement: D1 binds at most 100 parameters (26 columns a row)
    const inserts = [];
    for (let i = 0; i < rows.length; i += 3) inserts.push(t.manager.db.insert(brokerFilters).values(rows.slice(i, i + 3)));
    await t.manager.db.batch(inserts as [(typeof inserts)[0], ...(typeof inserts)[number][]]);
    const res = await search(t.manager);
    expect(res.body).toHaveLength(SEARCH_LIMIT);
    expect(res.body[0].index).toBe(6);
    expect(res.body.at(-1).index).toBe(SEARCH_LIMIT + 5);
    await t.manager.db.delete(brokerFilters).where(eq(brokerFilters.teamId, t.manager.id));
  });
});

describe('edit rights: update/details, update/isactive/, update/delete/', () => {
  it('a manager edits, toggles and deletes any filter of its team; the rows go with the filter', async () => {
    const t = await teamWithMcs();
    const id = await add(t.agents[0], filterBody(t, { name: 'From agent', usersList: [t.agents[0].id], contacts: ['a@b.example'] }));
    const toggled = await call('PUT', '/api/broker/update/isactive/', { token: t.manager.token, body: { filterId: id } });
    expect(toggled.body).toEqual({ message: FILTER_MESSAGES.disabled.text, isVisible: false });
    expect((await call('PUT', '/api/broker/update/isactive', { token: t.manager.token, body: { filterId: id } })).body.isVisible).toBe(true);
    const del = await call('PUT', '/api/broker/update/delete/', { token: t.manager.token, body: { filterId: id } });
    expect(del.body).toEqual({ message: 'Filter deleted' });
    expect(await t.manager.db.select().from(brokerFilters).where(eq(brokerFilters.id, id))).toHaveLength(0);
    expect(await t.manager.db.select().from(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, id))).toHaveLength(0);
    expect(await t.manager.db.select().from(brokerFilterUsers).where(eq(brokerFilterUsers.filterId, id))).toHaveLength(0);
    expect(await t.manager.db.select().from(brokerFilterContacts).where(eq(brokerFilterContacts.filterId, id))).toHaveLength(0);
  });

  it('an agent edits only its own creator-only filters: 403 on others it sees, 404 on ones it does not', async () => {
    const t = await teamWithMcs();
    const mine = await add(t.agents[0], filterBody(t, { name: 'Mine', onlyCreator: true }));
    const mineForTeam = await add(t.agents[0], filterBody(t, { name: 'Mine for team', usersList: [t.agents[1].id] }));
    const managers = await add(t.manager, filterBody(t, { name: 'Manager for team', usersList: [t.agents[0].id] }));
    const hidden = await add(t.agents[1], filterBody(t, { name: 'Agent 1 private', onlyCreator: true }));
    const a0 = t.agents[0].token;
    expect((await call('PUT', '/api/broker/update/isactive/', { token: a0, body: { filterId: mine } })).status).toBe(200);
    for (const id of [mineForTeam, managers]) {
      const res = await call('PUT', '/api/broker/update/isactive/', { token: a0, body: { filterId: id } });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(FILTER_MESSAGES.cannotEdit.text);
      expect((await call('PUT', '/api/broker/update/delete/', { token: a0, body: { filterId: id } })).status).toBe(403);
      expect((await call('POST', '/api/broker/update/details', { token: a0, body: filterBody(t, { updateFilterId: id, name: 'Hacked' }) })).status).toBe(403);
    }
    expect((await call('PUT', '/api/broker/update/delete/', { token: a0, body: { filterId: hidden } })).status).toBe(404);
    const names = (await t.manager.db.select().from(brokerFilters).where(eq(brokerFilters.teamId, t.manager.id))).map((r) => r.name).sort();
    expect(names).toEqual(['Agent 1 private', 'Manager for team', 'Mine', 'Mine for team']);
    expect((await call('PUT', '/api/broker/update/delete/', { token: a0, body: { filterId: mine } })).status).toBe(200);
  });

  for (const apart of [false, true]) {
    it(`another team's filter (${apart ? 'on another shard' : 'on the same shard'}) answers 404 to every write and stays as it was`, async () => {
      const t = await teamWithMcs();
      const other = await teamWithMcs(apart ? otherShard(t.manager.shard) : t.manager.shard);
      expect(other.manager.shard === t.manager.shard).toBe(!apart);
      const theirs = await add(other.manager, filterBody(other, { name: 'Theirs' }));
      for (const [method, path, body] of [
        ['PUT', '/api/broker/update/isactive/', { filterId: theirs }],
        ['PUT', '/api/broker/update/delete/', { filterId: theirs }],
        ['POST', '/api/broker/update/details', filterBody(t, { updateFilterId: theirs, name: 'Mine now' })],
      ] as const) {
        const res = await call(method, path, { token: t.manager.token, body });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(FILTER_MESSAGES.notFound.text);
      }
      const [row] = await other.manager.db.select().from(brokerFilters).where(eq(brokerFilters.id, theirs));
      expect(row).toMatchObject({ name: 'Theirs', isVisible: true, teamId: other.manager.id });
      // nothing written anywhere under the foreign id or the name tried
      for (const { db } of everyDb()) expect(await db.select().from(brokerFilters).where(eq(brokerFilters.name, 'Mine now'))).toEqual([]);
      expect((await call('POST', '/api/broker/update/details', { token: t.manager.token, body: filterBody(t, { updateFilterId: null }) })).status).toBe(404);
      expect((await call('PUT', '/api/broker/update/delete/', { token: t.manager.token, body: {} })).status).toBe(400);
    });
  }
});

describe('concurrent toggles: PUT /api/broker/update/isactive/', () => {
  it('N simultaneous toggles leave the filter flipped N times; each answer reports the state it set', { timeout: 120_000 }, async () => {
    const t = await teamWithMcs();
    const filters = [
      [t.manager, await add(t.manager, filterBody(t, { name: 'Team filter' }))],
      [t.agents[0], await add(t.agents[0], filterBody(t, { name: 'Own filter', onlyCreator: true }))],
    ] as const;
    const isVisible = async (id: string) => (await t.manager.db.select().from(brokerFilters).where(eq(brokerFilters.id, id)))[0]!.isVisible;
    for (const [user, id] of filters) {
      for (const n of [9, 20, 21, 50, 9, 21]) {
        const before = await isVisible(id);
        const answers = await Promise.all(
          Array.from({ length: n }, () => call('PUT', '/api/broker/update/isactive/', { token: user.token, body: { filterId: id } })),
        );
        expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
        expect(await isVisible(id)).toBe(n % 2 ? !before : before);
        // the flips run one after another: the states they set alternate, starting from the opposite of `before`
        const setTo = answers.map((a) => a.body.isVisible as boolean);
        expect(setTo.filter((v) => v !== before)).toHaveLength(Math.ceil(n / 2));
        expect(setTo.filter((v) => v === before)).toHaveLength(Math.floor(n / 2));
        for (const a of answers) expect(a.body.message).toBe(a.body.isVisible ? FILTER_MESSAGES.activated.text : FILTER_MESSAGES.disabled.text);
      }
    }
  });
});

describe('GET /api/broker/allNames, /minified, /teamUsers', () => {
  it('allNames lists the distinct names the caller sees, sorted', async () => {
    const t = await teamWithMcs();
    await add(t.manager, filterBody(t, { name: 'beta Freight', usersList: [t.agents[0].id] }));
    await add(t.manager, filterBody(t, { name: 'Alpha Freight', usersList: [t.agents[0].id] }));
    // the same broker twice is refused (decision 0088's duplicate rule), so the names are distinct
    const again = await call('POST', '/api/broker/add', {
      token: t.manager.token,
      body: filterBody(t, { name: 'alpha freight', usersList: [t.agents[1].id] }),
    });
    expect([again.status, again.body.message]).toEqual([409, 'A filter for Alpha Freight already exists']);
    await add(t.manager, filterBody(t, { name: 'Secret', onlyCreator: true }));
    expect((await call('GET', '/api/broker/allNames', { token: t.manager.token })).body).toEqual(['Alpha Freight', 'beta Freight', 'Secret']);
    expect((await call('GET', '/api/broker/allNames', { token: t.agents[0].token })).body).toEqual(['Alpha Freight', 'beta Freight']);
  });

  it('minified answers the active filters in force for the caller, with type name, colour and comment', async () => {
    const t = await teamWithMcs();
    await add(t.manager, filterBody(t, { name: 'For agent 0', usersList: [t.agents[0].id], contacts: ['(555) 123-4567'], comment: 'Pays in 90 days' }));
    const disabled = await add(t.manager, filterBody(t, { name: 'Disabled', usersList: [t.agents[0].id] }));
    const toggled = await call('PUT', '/api/broker/update/isactive/', { token: t.manager.token, body: { filterId: disabled } });
    expect(toggled.body).toEqual({ message: 'Filter disabled', isVisible: false });
    await add(t.manager, filterBody(t, { name: 'Without me', usersList: [t.agents[1].id] }));
    await add(t.agents[0], filterBody(t, { name: 'My own', onlyCreator: true }));
    const a0 = await call('GET', '/api/broker/minified', { token: t.agents[0].token });
    expect(a0.body.map((f: any) => f.name)).toEqual(['For agent 0', 'My own']);
    expect(a0.body[0]).toEqual({
      _id: expect.any(String),
      name: 'For agent 0',
      type: t.types[0]!._id,
      typeName: 'Blocked',
      color: '#d32f2f',
      comment: 'Pays in 90 days',
      onlyOnContacts: false,
      contacts: ['+15551234567'],
      allMC: false,
      mcList: [t.mcA],
      mcNumber: null,
      aliases: [],
      // no MC or DOT number: no FMCSA record
      vetting: null,
    });
    // the manager's list view has all four, but none is in force for the manager itself
    expect((await call('GET', '/api/broker/minified', { token: t.manager.token })).body).toEqual([]);
  });

  it("teamUsers answers the caller's team (lead first) for managers and agents alike", async () => {
    const t = await teamWithMcs();
    const ids = (await call('GET', '/api/broker/teamUsers', { token: t.agents[1].token })).body.map((u: any) => u._id);
    expect(ids).toEqual([t.manager.id, t.agents[0].id, t.agents[1].id]);
    const other = await createTeam();
    expect((await call('GET', '/api/broker/teamUsers', { token: other.manager.token })).body.map((u: any) => u._id)).not.toContain(t.agents[0].id);
  });
});

describe('broker routes: roles and tokens', () => {
  it('answers 401 without a token and 403 to directors, marketing and expired users', async () => {
    const t: Team = await createTeam();
    const marketing = await createUser('marketing');
    const expired = await createUser('agent', { parentId: t.manager.id, subscriptionDays: -1 });
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/broker', { allMC: true }],
      ['POST', '/api/broker/add', {}],
      ['POST', '/api/broker/update/details', {}],
      ['PUT', '/api/broker/update/isactive/', { filterId: 'x' }],
      ['PUT', '/api/broker/update/delete/', { filterId: 'x' }],
      ['GET', '/api/broker/minified'],
      ['GET', '/api/broker/allNames'],
      ['GET', '/api/broker/teamUsers'],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, { body })).status).toBe(401);
      expect((await call(method, path, { token: t.director.token, body })).status).toBe(403);
      expect((await call(method, path, { token: marketing.token, body })).status).toBe(403);
      expect((await call(method, path, { token: expired.token, body })).status).toBe(403);
    }
  });

  it('the admin works as the lead of a team of its own', async () => {
    const admin = await createUser('admin');
    const mc = await addMc(admin, { name: 'Admin MC', lines: [1] });
    const types = await typesOf(admin);
    const id = await add(admin, { name: 'Admin filter', type: types[0]!._id, mcList: [mc] });
    const [dto] = (await search(admin)).body;
    expect(dto).toMatchObject({ _id: id, isVerified: true, canEdit: true });
  });
});
