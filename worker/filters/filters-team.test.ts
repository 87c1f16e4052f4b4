import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brokerFilterAliases, brokerFilterEvents, brokerFilterNotes, brokerFilters } from '../db/schema';
import { d1Of } from '../lib/d1';
import { addFilter as add, addMc, filterSave, typesOf } from '../test/filters';
import { call, createTeam, errorBody, everyDb, homeOfUser, type TestUser, testEnv } from '../test/helpers';
import { normalizeBrokerName } from './broker-name';
import { FILTER_MESSAGES } from './filters.messages';

/** Decision 0007: identity and the duplicate rule, the audit trail, notes, the verification queue, bulk actions. */

async function teamWithMc() {
  const team = await createTeam();
  const mcA = await addMc(team.manager, { name: 'MC Alpha', lines: [1] });
  await addMc(team.agents[0], { parentMc: mcA, lines: [1] });
  await addMc(team.agents[1], { parentMc: mcA, lines: [1] });
  const types = await typesOf(team.manager);
  return { ...team, mcA, types };
}
type Team = Awaited<ReturnType<typeof teamWithMc>>;

const body = (t: Team, extra: Record<string, unknown> = {}) => filterSave(t, { usersList: [t.manager.id, t.agents[0].id, t.agents[1].id], ...extra });

const addRaw = (user: TestUser, b: Record<string, unknown>) => call('POST', '/api/broker/add', { token: user.token, body: b });
/** A team's rows, read in the team's own shard. */
const teamDb = async (teamId: string) => (await homeOfUser(teamId)).db;
const rowsOf = async (teamId: string) => (await teamDb(teamId)).select().from(brokerFilters).where(eq(brokerFilters.teamId, teamId));
const eventsOf = async (teamId: string, filterId: string) =>
  (await teamDb(teamId)).select().from(brokerFilterEvents).where(eq(brokerFilterEvents.filterId, filterId)).orderBy(asc(brokerFilterEvents.at), sql`rowid`);

describe('normalizeBrokerName', () => {
  it('folds case, spacing, punctuation, & and trailing legal suffixes; keeps a lone suffix word', () => {
    const same = [
      'Dup Probe Logistics',
      'dup probe logistics',
      '  DUP   probe-logistics, LLC.',
      'Dup Probe Logistics L.L.C.',
      'Dup Probe Logistics Inc',
      'Dup Probe Logistics Co., Inc.',
    ];
    expect(new Set(same.map(normalizeBrokerName))).toEqual(new Set(['dup probe logistics']));
    expect(normalizeBrokerName('Smith & Sons Company')).toBe('smith and sons');
    expect(normalizeBrokerName('C.H. Robinson Worldwide, Inc.')).toBe('ch robinson worldwide');
    expect(normalizeBrokerName('CH Robinson Worldwide')).toBe('ch robinson worldwide');
    expect(normalizeBrokerName('The Allen Lund Company')).toBe('allen lund');
    expect(normalizeBrokerName('Échelon Freight Corp')).toBe('echelon freight');
    expect(normalizeBrokerName('Acme Freight L.L.C.')).toBe('acme freight');
    expect(normalizeBrokerName('ＡＣＭＥ Freight')).toBe('acme freight'); // NFKC: full-width letters
    expect(normalizeBrokerName('Co')).toBe('co');
    expect(normalizeBrokerName('Incorporated Freight Corp')).toBe('incorporated freight');
    expect(normalizeBrokerName('  ...  ')).toBe('');
  });
});

describe('identity and the duplicate rule', () => {
  it('stores MC and DOT as digits, answers them, and refuses bad numbers with 400 writing nothing', async () => {
    const t = await teamWithMc();
    const id = await add(t.manager, body(t, { mcNumber: 'MC-0123456', dotNumber: 'USDOT 789' }));
    const [row] = await rowsOf(t.manager.id);
    expect([row!.mcNumber, row!.dotNumber, row!.normalName]).toEqual(['123456', '789', 'acme logistics']);
    const found = (await call('POST', '/api/broker', { token: t.manager.token, body: { allMC: true, name: 'MC 123456' } })).body;
    expect(found.map((f: { _id: string }) => f._id)).toEqual([id]);
    for (const [field, message, code] of [
      ['mcNumber', FILTER_MESSAGES.badMcNumber.text, 'filter.badMcNumber'],
      ['dotNumber', FILTER_MESSAGES.badDotNumber.text, 'filter.badDotNumber'],
    ] as const) {
      // letters, more than 20 characters (zod's own "Too big" before), a wrong type: the field's message and code
      for (const value of ['12ab', '1'.repeat(21), `MC ${'9'.repeat(40)}`, true]) {
        for (const path of ['/api/broker/add', '/api/broker/update/details']) {
          const res = await call('POST', path, { token: t.manager.token, body: body(t, { updateFilterId: id, name: 'Other', [field]: value }) });
          expect([res.status, res.body.message, res.body.code], `${path} ${field} ${value}`).toEqual([400, message, code]);
        }
      }
    }
    expect(await rowsOf(t.manager.id)).toHaveLength(1);
  });

  it('a look-alike name, an alias or the same MC answers 409 naming the existing filter, with its id; nothing is written', async () => {
    const t = await teamWithMc();
    const id = await add(t.manager, body(t, { name: 'Dup Probe Logistics', mcNumber: '555', aliases: ['DPL Freight'] }));
    for (const extra of [
      { name: 'dup probe logistics, LLC' },
      { name: 'Other Name', mcNumber: 'MC 555' },
      { name: 'DPL Freight, Inc.' },
      { name: 'Fresh', aliases: ['Dup-Probe Logistics'] },
    ]) {
      const res = await addRaw(t.manager, body(t, extra));
      expect(res.status, JSON.stringify(extra)).toBe(409);
      expect(res.body).toEqual({
        message: 'A filter for Dup Probe Logistics already exists',
        code: 'filter.duplicate',
        params: { name: 'Dup Probe Logistics' },
        existingFilterId: id,
        existingFilterName: 'Dup Probe Logistics',
      });
    }
    expect(await rowsOf(t.manager.id)).toHaveLength(1);
    expect(await t.manager.db.select().from(brokerFilterAliases).where(eq(brokerFilterAliases.teamId, t.manager.id))).toHaveLength(1);
    // another team may hold the same name and MC
    const other = await teamWithMc();
    await add(other.manager, body(other, { name: 'DUP PROBE LOGISTICS', mcNumber: '555' }));
    // renaming another filter onto the name is refused too, and writes no audit row
    const second = await add(t.manager, body(t, { name: 'Second Broker' }));
    const before = (await eventsOf(t.manager.id, second)).length;
    const res = await call('POST', '/api/broker/update/details', {
      token: t.manager.token,
      body: body(t, { updateFilterId: second, name: 'Dup Probe Logistics Co' }),
    });
    expect(res.status).toBe(409);
    expect((await eventsOf(t.manager.id, second)).length).toBe(before);
    expect((await rowsOf(t.manager.id)).find((r) => r.id === second)!.name).toBe('Second Broker');
    // a filter keeps its own name and MC on save
    const self = await call('POST', '/api/broker/update/details', {
      token: t.manager.token,
      body: body(t, { updateFilterId: id, name: 'Dup Probe Logistics', mcNumber: '555', comment: 'x' }),
    });
    expect(self.status).toBe(200);
  });

  it('a duplicate of a filter the caller cannot see answers a neutral 409 that names nothing; one it sees is named', async () => {
    const t = await teamWithMc();
    // a teammate's private filter (only its creator sees it), with an MC number
    const hidden = await add(t.agents[0], body(t, { name: 'Secret Haulers Group', mcNumber: '778899', onlyCreator: true, usersList: [] }));
    for (const extra of [{ name: 'secret haulers group, inc.' }, { name: 'Unrelated Name', mcNumber: 'MC 778899' }]) {
      const res = await addRaw(t.agents[1], body(t, { ...extra, usersList: [t.agents[1].id], onlyCreator: true }));
      expect([res.status, res.body], JSON.stringify(extra)).toEqual([
        409,
        { message: 'A filter for this broker already exists in your team', code: 'filter.hiddenDuplicate' },
      ]);
      expect(res.text).not.toContain('Secret Haulers');
      expect(res.text).not.toContain(hidden);
    }
    // its creator, and the manager who sees the team's filters, are told which one
    for (const who of [t.agents[0], t.manager]) {
      const res = await addRaw(who, body(t, { name: 'Secret Haulers Group LLC' }));
      expect([res.status, res.body]).toEqual([
        409,
        {
          message: 'A filter for Secret Haulers Group already exists',
          code: 'filter.duplicate',
          params: { name: 'Secret Haulers Group' },
          existingFilterId: hidden,
          existingFilterName: 'Secret Haulers Group',
        },
      ]);
    }
    expect((await rowsOf(t.manager.id)).map((r) => r.id)).toEqual([hidden]);
  });

  it('racing saves of look-alike names and of one MC: exactly one filter lands each round, the rest get 409', { timeout: 120_000 }, async () => {
    const t = await teamWithMc();
    const spellings = (i: number) => [`Race Freight ${i}`, `race freight ${i} llc`, `RACE-FREIGHT ${i}, Inc.`, ` race  freight ${i} co`];
    for (let round = 0; round < 4; round++) {
      const n = 20 + round * 10;
      const people = [t.manager, t.agents[0], t.agents[1]];
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          addRaw(people[i % 3]!, body(t, { name: spellings(round)[i % 4], onlyCreator: i % 3 !== 0, usersList: [], mcNumber: null })),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(n - 1);
      const mc = await Promise.all(
        Array.from({ length: n }, (_, i) => addRaw(t.manager, body(t, { name: `MC race ${round} ${i}`, mcNumber: String(9000 + round) }))),
      );
      expect(mc.filter((r) => r.status === 200)).toHaveLength(1);
      expect(mc.filter((r) => r.status === 409)).toHaveLength(n - 1);
    }
    const rows = await rowsOf(t.manager.id);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.normalName)).size).toBe(8);
    // every landed filter has exactly one "created" event; refused saves wrote none
    const events = await t.manager.db.select().from(brokerFilterEvents).where(eq(brokerFilterEvents.teamId, t.manager.id));
    expect(events.map((e) => e.kind).sort()).toEqual(Array(8).fill('created'));
  });

  it('rows saved before the column existed get their normal name on the next write; an old duplicate gets a #id suffix', async () => {
    const t = await teamWithMc();
    const a = await add(t.manager, body(t, { name: 'Legacy One' }));
    const b = await add(t.manager, body(t, { name: 'Legacy Two' }));
    // as the migration leaves them: no normal name, and two rows that are the same broker
    await d1Of(testEnv, t.manager.shard).prepare('update broker_filters set normal_name = null, name = ? where id = ?').bind('Legacy Freight LLC', a).run();
    await d1Of(testEnv, t.manager.shard).prepare('update broker_filters set normal_name = null, name = ? where id = ?').bind('legacy freight', b).run();
    const res = await addRaw(t.manager, body(t, { name: 'Legacy Freight Inc' }));
    expect(res.status).toBe(409);
    const rows = await rowsOf(t.manager.id);
    expect(rows.map((r) => r.normalName).sort()).toEqual(['legacy freight', `legacy freight#${b}`].sort());
  });
});

describe('audit trail and notes', () => {
  it('records created, edited (fields changed), verified, disabled, enabled and deleted with who and when, in order', async () => {
    const t = await teamWithMc();
    const id = await add(t.agents[0], body(t, { name: 'Audit Co', onlyCreator: true, usersList: [] }));
    await call('POST', '/api/broker/update/details', {
      token: t.manager.token,
      body: body(t, { updateFilterId: id, name: 'Audit Brokers', onlyCreator: true, usersList: [], comment: 'pays late', mcNumber: '42' }),
    });
    await call('PUT', '/api/broker/update/isactive', { token: t.manager.token, body: { filterId: id } });
    await call('PUT', '/api/broker/update/isactive', { token: t.manager.token, body: { filterId: id } });
    const history = await call('GET', `/api/broker/${id}/history`, { token: t.manager.token });
    expect(history.status).toBe(200);
    const kinds = (history.body as { kind: string }[]).map((e) => e.kind).reverse();
    expect(kinds).toEqual(['created', 'edited', 'verified', 'disabled', 'enabled']);
    const edited = (history.body as { kind: string; changes: Record<string, unknown>; actor: { _id: string } }[]).find((e) => e.kind === 'edited')!;
    expect(edited.actor._id).toBe(t.manager.id);
    expect(edited.changes).toEqual({ name: ['Audit Co', 'Audit Brokers'], comment: ['', 'pays late'], mcNumber: [null, '42'] });
    expect((history.body as { actor: { _id: string } }[]).at(-1)!.actor._id).toBe(t.agents[0].id);
    await call('PUT', '/api/broker/update/delete', { token: t.manager.token, body: { filterId: id } });
    const after = await eventsOf(t.manager.id, id);
    expect(after.map((e) => e.kind)).toContain('deleted');
    expect(JSON.parse(after.find((e) => e.kind === 'deleted')!.changes)).toEqual({ name: 'Audit Brokers' });
    // the filter is gone, so its history answers 404 like any unknown filter
    expect((await call('GET', `/api/broker/${id}/history`, { token: t.manager.token })).status).toBe(404);
  });

  it('simultaneous toggles each write one event naming the state they set', { timeout: 120_000 }, async () => {
    const t = await teamWithMc();
    const id = await add(t.manager, body(t));
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => call('PUT', '/api/broker/update/isactive', { token: t.manager.token, body: { filterId: id } })),
    );
    const set = answers.map((a) => (a.body.isVisible ? 'enabled' : 'disabled')).sort();
    const events = (await eventsOf(t.manager.id, id))
      .filter((e) => e.kind !== 'created')
      .map((e) => e.kind)
      .sort();
    expect(events).toEqual(set);
  });

  it('teammates who see the filter read and add notes; who cannot see it, or another team, get 404', async () => {
    const t = await teamWithMc();
    const shared = await add(t.manager, body(t, { name: 'Noted Broker' }));
    const own = await add(t.agents[1], body(t, { name: 'Private Broker', onlyCreator: true, usersList: [] }));
    expect((await call('POST', `/api/broker/${shared}/notes`, { token: t.agents[0].token, body: { text: '  Called, no answer ' } })).status).toBe(200);
    expect((await call('POST', `/api/broker/${shared}/notes`, { token: t.manager.token, body: { text: 'They pay in 45 days' } })).status).toBe(200);
    const notes = (await call('GET', `/api/broker/${shared}/notes`, { token: t.agents[1].token })).body as { text: string; author: { _id: string } }[];
    expect(notes.map((n) => [n.text, n.author._id])).toEqual([
      ['Called, no answer', t.agents[0].id],
      ['They pay in 45 days', t.manager.id],
    ]);
    expect((await eventsOf(t.manager.id, shared)).filter((e) => e.kind === 'noted')).toHaveLength(2);
    const empty = await call('POST', `/api/broker/${shared}/notes`, { token: t.manager.token, body: { text: '   ' } });
    expect([empty.status, empty.body.message]).toEqual([400, FILTER_MESSAGES.noteEmpty.text]);
    // agent 0 does not see agent 1's creator-only filter; another team sees nothing
    const other = await teamWithMc();
    for (const [user, filterId] of [
      [t.agents[0], own],
      [other.manager, shared],
      [other.agents[0], shared],
    ] as const) {
      for (const [method, path, b] of [
        ['GET', `/api/broker/${filterId}/notes`, undefined],
        ['POST', `/api/broker/${filterId}/notes`, { text: 'sneak' }],
        ['GET', `/api/broker/${filterId}/history`, undefined],
      ] as const) {
        const res = await call(method, path, { token: user.token, body: b });
        expect([res.status, res.body.message]).toEqual([404, FILTER_MESSAGES.notFound.text]);
      }
    }
    for (const { db } of everyDb()) expect(await db.select().from(brokerFilterNotes).where(eq(brokerFilterNotes.text, 'sneak'))).toHaveLength(0);
  });
});

describe('verification queue', () => {
  it('counts and lists the waiting filters newest first; verifies several at once; rejects with a reason the agent sees', async () => {
    const t = await teamWithMc();
    await add(t.manager, body(t, { name: 'Lead Made' }));
    const ids: string[] = [];
    for (const name of ['Q One', 'Q Two', 'Q Three', 'Q Four']) ids.push(await add(t.agents[0], body(t, { name, onlyCreator: true, usersList: [] })));
    expect((await call('GET', '/api/broker/queue/count', { token: t.manager.token })).body).toEqual({ count: 4 });
    const list = (await call('GET', '/api/broker/queue', { token: t.manager.token })).body as { name: string }[];
    expect(list.map((f) => f.name)).toEqual(['Q Four', 'Q Three', 'Q Two', 'Q One']);
    // agents have no queue
    const agentQueue = await call('GET', '/api/broker/queue', { token: t.agents[0].token });
    expect([agentQueue.status, agentQueue.body.message]).toEqual([403, 'You are not allowed to do this']);
    // another team's ids are not verified: 404 when none of the ids is the caller's
    const other = await teamWithMc();
    const foreign = await call('POST', '/api/broker/queue/verify', { token: other.manager.token, body: { filterIds: ids } });
    expect(foreign.status).toBe(404);
    const verified = await call('POST', '/api/broker/queue/verify', { token: t.manager.token, body: { filterIds: [ids[0], ids[1], ids[2]] } });
    expect(verified.body).toEqual({ message: '3 filters verified', count: 3 });
    const rejected = await call('POST', '/api/broker/queue/reject', { token: t.manager.token, body: { filterId: ids[3], reason: 'Duplicate of Q One' } });
    expect(rejected.status).toBe(200);
    expect((await call('GET', '/api/broker/queue/count', { token: t.manager.token })).body).toEqual({ count: 0 });
    const mine = (await call('POST', '/api/broker', { token: t.agents[0].token, body: { allMC: true, name: 'Q Four' } })).body;
    expect(mine[0].rejectedReason).toBe('Duplicate of Q One');
    // the rejected filter is not in force on the load board
    const minified = (await call('GET', '/api/broker/minified', { token: t.agents[0].token })).body as { _id: string }[];
    expect(minified.map((m) => m._id)).not.toContain(ids[3]);
    expect(minified.map((m) => m._id)).toContain(ids[0]);
    // the agent corrects its own rejected filter: the save is allowed and sends it back to the queue
    const fixed = await call('POST', '/api/broker/update/details', {
      token: t.agents[0].token,
      body: body(t, { updateFilterId: ids[3], name: 'Q Four Fixed', onlyCreator: true, usersList: [] }),
    });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await call('GET', '/api/broker/queue/count', { token: t.manager.token })).body).toEqual({ count: 1 });
    expect((await call('GET', '/api/broker/queue', { token: t.manager.token })).body.map((q: { name: string }) => q.name)).toEqual(['Q Four Fixed']);
    const [resubmitted] = (await rowsOf(t.manager.id)).filter((r) => r.id === ids[3]);
    expect(resubmitted).toMatchObject({ name: 'Q Four Fixed', rejectedReason: null, isVerified: false });
    expect((await eventsOf(t.manager.id, ids[0]!)).map((e) => e.kind)).toEqual(['created', 'verified']);
    expect((await eventsOf(t.manager.id, ids[3]!)).map((e) => e.kind)).toEqual(['created', 'rejected', 'edited', 'resubmitted']);
  });

  it('simultaneous verifies of the same filters record each verification once', { timeout: 120_000 }, async () => {
    const t = await teamWithMc();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await add(t.agents[0], body(t, { name: `V ${i}`, onlyCreator: true, usersList: [] })));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/api/broker/queue/verify', { token: t.manager.token, body: { filterIds: ids } })),
    );
    expect(answers.reduce((sum, a) => sum + (a.status === 200 ? a.body.count : 0), 0)).toBe(5);
    const events = await t.manager.db
      .select()
      .from(brokerFilterEvents)
      .where(and(eq(brokerFilterEvents.teamId, t.manager.id), eq(brokerFilterEvents.kind, 'verified')));
    expect(events).toHaveLength(5);
  });
});

describe('an agent corrects its rejected team filter (rule 0089)', () => {
  const save = (user: TestUser, t: Team, filterId: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/api/broker/update/details', { token: user.token, body: body(t, { updateFilterId: filterId, ...extra }) });
  const reject = (t: Team, filterId: string, reason: string) =>
    call('POST', '/api/broker/queue/reject', { token: t.manager.token, body: { filterId, reason } });
  const minifiedIds = async (user: TestUser) =>
    ((await call('GET', '/api/broker/minified', { token: user.token })).body as { _id: string }[]).map((m) => m._id);
  const seenBy = async (user: TestUser, name: string) =>
    ((await call('POST', '/api/broker', { token: user.token, body: { allMC: true, name } })).body as FilterLike[]).find((x) => x.name === name);

  it('saves it back to the queue, unverified and not in force until verified, in its history; nothing else about edit rights widens', async () => {
    const t = await teamWithMc();
    const [agent, teammate] = t.agents;
    // a team filter (not creator-only) for both agents, which the manager rejects
    const id = await add(agent, body(t, { name: 'Team Rejected' }));
    expect((await reject(t, id, 'Wrong MC number')).status).toBe(200);
    expect(await seenBy(agent, 'Team Rejected')).toMatchObject({ rejectedReason: 'Wrong MC number', canEdit: false, canCorrect: true });
    expect((await seenBy(t.manager, 'Team Rejected'))!.canCorrect).toBe(false);

    // the correction's one right: no toggle, delete or bulk action on it
    const toggle = await call('PUT', '/api/broker/update/isactive/', { token: agent.token, body: { filterId: id } });
    expect([toggle.status, toggle.body.message]).toEqual([403, FILTER_MESSAGES.cannotEdit.text]);
    const del = await call('PUT', '/api/broker/update/delete/', { token: agent.token, body: { filterId: id } });
    expect([del.status, del.body.message]).toEqual([403, FILTER_MESSAGES.cannotEdit.text]);
    expect((await call('POST', '/api/broker/bulk', { token: agent.token, body: { action: 'delete', filterIds: [id] } })).body.count).toBe(0);
    // another agent of the team and another team's manager do not see it
    expect((await save(teammate, t, id, { name: 'Teammate Fix' })).status).toBe(404);
    const other = await teamWithMc();
    expect((await save(other.manager, other, id, { name: 'Foreign Fix' })).status).toBe(404);

    const fixed = await save(agent, t, id, { name: 'Team Corrected', comment: 'MC fixed' });
    expect([fixed.status, fixed.body.message], fixed.text).toEqual([200, FILTER_MESSAGES.resubmitted.text]);
    const [row] = (await rowsOf(t.manager.id)).filter((r) => r.id === id);
    expect(row).toMatchObject({ name: 'Team Corrected', comment: 'MC fixed', rejectedReason: null, isVerified: false, onlyCreator: false });
    // back in the manager's queue
    expect((await call('GET', '/api/broker/queue', { token: t.manager.token })).body.map((q: { _id: string }) => q._id)).toEqual([id]);
    // in its history: the edit and the resubmission, by the agent
    expect((await eventsOf(t.manager.id, id)).map((e) => [e.kind, e.actorId])).toEqual([
      ['created', agent.id],
      ['rejected', t.manager.id],
      ['edited', agent.id],
      ['resubmitted', agent.id],
    ]);
    const history = (await call('GET', `/api/broker/${id}/history`, { token: t.manager.token })).body as { kind: string; changes: Record<string, unknown> }[];
    expect(history.find((e) => e.kind === 'resubmitted')!.changes).toEqual({ reason: 'Wrong MC number' });
    expect(history.find((e) => e.kind === 'edited')!.changes).toMatchObject({ name: ['Team Rejected', 'Team Corrected'] });
    // not in force on the teammate's board until the manager verifies it
    expect(await minifiedIds(teammate)).not.toContain(id);
    // the right ends with the rejection: a second save is refused and changes nothing
    const again = await save(agent, t, id, { name: 'Team Again' });
    expect([again.status, again.body.message]).toEqual([403, FILTER_MESSAGES.cannotEdit.text]);
    expect((await seenBy(agent, 'Team Corrected'))!.canCorrect).toBe(false);
    expect((await call('POST', '/api/broker/queue/verify', { token: t.manager.token, body: { filterIds: [id] } })).status).toBe(200);
    expect(await minifiedIds(teammate)).toContain(id);
    // a verified filter stays the manager's to change
    const verified = await save(agent, t, id, { name: 'Team After Verify' });
    expect([verified.status, verified.body.message]).toEqual([403, FILTER_MESSAGES.cannotEdit.text]);
    expect((await rowsOf(t.manager.id)).find((r) => r.id === id)).toMatchObject({ name: 'Team Corrected', isVerified: true });
    expect(await eventsOf(t.manager.id, id)).toHaveLength(5);
  });

  it("20 simultaneous corrections land once; a correction racing the manager never overwrites the manager's save", { timeout: 120_000 }, async () => {
    const t = await teamWithMc();
    const agent = t.agents[0];
    const id = await add(agent, body(t, { name: 'Race Rejected' }));
    for (let round = 0; round < 3; round++) {
      expect((await reject(t, id, `Round ${round}`)).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => save(agent, t, id, { name: `Race ${round} ${i}` })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 403 && a.body.message === FILTER_MESSAGES.cannotEdit.text)).toBe(true);
      const [row] = (await rowsOf(t.manager.id)).filter((r) => r.id === id);
      const winner = answers.findIndex((a) => a.status === 200);
      expect(row).toMatchObject({ name: `Race ${round} ${winner}`, rejectedReason: null, isVerified: false });
      const kinds = (await eventsOf(t.manager.id, id)).map((e) => e.kind);
      expect(kinds.filter((k) => k === 'resubmitted')).toHaveLength(round + 1);
      expect(kinds.filter((k) => k === 'edited')).toHaveLength(round + 1);
    }
    // the manager takes a rejected filter over while the agent corrects it: whichever lands first,
    // the agent's save never lands on the filter the manager verified
    for (let round = 0; round < 3; round++) {
      const taken = await add(agent, body(t, { name: `Taken Over ${round}` }));
      expect((await reject(t, taken, `Lead round ${round}`)).status).toBe(200);
      const [lead, ...agents] = await Promise.all([
        save(t.manager, t, taken, { name: `Lead ${round}` }),
        ...Array.from({ length: 10 }, (_, i) => save(agent, t, taken, { name: `Agent ${round} ${i}` })),
      ]);
      expect(lead!.status, lead!.text).toBe(200);
      expect(agents.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
      const [row] = (await rowsOf(t.manager.id)).filter((r) => r.id === taken);
      expect(row).toMatchObject({ name: `Lead ${round}`, isVerified: true, rejectedReason: null });
    }
  });
});

describe('bulk actions', () => {
  it("disable, enable, change type and delete the selected filters the caller may edit, audited; others' rows are left alone", async () => {
    const t = await teamWithMc();
    const ids: string[] = [];
    for (const name of ['B One', 'B Two', 'B Three']) ids.push(await add(t.manager, body(t, { name })));
    const agentOwn = await add(t.agents[0], body(t, { name: 'B Agent', onlyCreator: true, usersList: [] }));
    const other = await teamWithMc();
    const foreign = await add(other.manager, body(other, { name: 'B Foreign' }));
    const run = (user: TestUser, b: Record<string, unknown>) => call('POST', '/api/broker/bulk', { token: user.token, body: b });

    expect((await run(t.manager, { action: 'disable', filterIds: [...ids, foreign] })).body).toEqual({ message: '3 filters disabled', count: 3 });
    expect((await run(t.manager, { action: 'disable', filterIds: ids })).body.count).toBe(0);
    // an agent edits only its own creator-only filters
    expect((await run(t.agents[0], { action: 'enable', filterIds: [...ids, agentOwn] })).body.count).toBe(0);
    expect((await run(t.manager, { action: 'enable', filterIds: [ids[0]] })).body).toEqual({ message: '1 filter activated', count: 1 });
    const bad = await run(t.manager, { action: 'setType', filterIds: ids, type: other.types[0]!._id });
    expect([bad.status, bad.body.message]).toEqual([404, FILTER_MESSAGES.typeNotFound.text]);
    const noType = await run(t.manager, { action: 'setType', filterIds: ids });
    expect([noType.status, noType.body.message]).toEqual([400, FILTER_MESSAGES.typeEmpty.text]);
    expect((await run(t.manager, { action: 'setType', filterIds: ids, type: t.types[1]!._id })).body.count).toBe(3);
    const none = await run(t.manager, { action: 'delete', filterIds: [] });
    expect([none.status, none.body.message]).toEqual([400, FILTER_MESSAGES.noneSelected.text]);
    expect((await run(t.manager, { action: 'delete', filterIds: [ids[1], ids[2], foreign] })).body).toEqual({ message: '2 filters deleted', count: 2 });

    const rows = await rowsOf(t.manager.id);
    expect(rows.map((r) => [r.name, r.isVisible, r.typeId]).sort()).toEqual(
      [
        ['B Agent', true, t.types[0]!._id],
        ['B One', true, t.types[1]!._id],
      ].sort(),
    );
    expect((await rowsOf(other.manager.id))[0]!.isVisible).toBe(true);
    expect((await eventsOf(t.manager.id, ids[0]!)).map((e) => e.kind)).toEqual(['created', 'disabled', 'enabled', 'edited']);
    expect((await eventsOf(t.manager.id, ids[1]!)).map((e) => e.kind)).toEqual(['created', 'disabled', 'edited', 'deleted']);
    expect(await eventsOf(other.manager.id, foreign)).toHaveLength(1);
  });
});

describe('import and export', () => {
  const row = (name: string, extra: Record<string, string> = {}) => ({
    name,
    type: 'Blocked',
    comment: '',
    contacts: '',
    mcNumber: '',
    dotNumber: '',
    ...extra,
  });

  it('previews create / match / refuse with the reason per row, writing nothing; the import writes the creates once, verified for the team', async () => {
    const t = await teamWithMc();
    await add(t.manager, body(t, { name: 'Existing Freight LLC', mcNumber: '700' }));
    const other = await teamWithMc();
    await add(other.manager, body(other, { name: 'Other Team Broker' }));
    const rows = [
      row('New Broker One', { contacts: '+1 312 555 0100; ops@new1.example', mcNumber: 'MC 801', dotNumber: '9001', comment: 'pays fast' }),
      row('existing freight'),
      row('Renamed But Same MC', { mcNumber: '700' }),
      row(''),
      row('Bad MC', { mcNumber: 'abc' }),
      row('Long DOT', { dotNumber: '7'.repeat(45) }),
      row('No Type', { type: '' }),
      row('Odd Type', { type: 'Sometimes' }),
      row('new broker one, inc.'),
      row('Other Team Broker', { type: 'preferred' }),
      row('Bad Contact', { contacts: 'call me' }),
    ];
    const before = await rowsOf(t.manager.id);
    const preview = await call('POST', '/api/broker/import/preview', { token: t.manager.token, body: { rows } });
    expect(preview.status).toBe(200);
    expect(preview.body.rows.map((r: { outcome: string; detail: string }) => [r.outcome, r.detail])).toEqual([
      ['create', ''],
      ['match', 'Existing Freight LLC'],
      ['match', 'Existing Freight LLC'],
      ['refuse', FILTER_MESSAGES.nameEmpty.text],
      ['refuse', FILTER_MESSAGES.badMcNumber.text],
      ['refuse', FILTER_MESSAGES.badDotNumber.text],
      ['refuse', FILTER_MESSAGES.typeEmpty.text],
      ['refuse', 'Unknown type "Sometimes"'],
      ['refuse', 'Same broker as row 1'],
      ['create', ''],
      ['refuse', '"call me" is not a phone number or an e-mail'],
    ]);
    // a reason of the area's table carries its code, for the screen to translate; the others are said as they are
    expect(preview.body.rows.map((r: { code?: string }) => r.code ?? null)).toEqual([
      null,
      null,
      null,
      'filter.nameEmpty',
      'filter.badMcNumber',
      'filter.badDotNumber',
      'filter.typeEmpty',
      null,
      null,
      null,
      null,
    ]);
    expect([preview.body.create, preview.body.match, preview.body.refuse]).toEqual([2, 2, 7]);
    expect(await rowsOf(t.manager.id)).toEqual(before);

    const done = await call('POST', '/api/broker/import', { token: t.manager.token, body: { rows } });
    expect(done.body).toEqual({ message: '2 filters imported', create: 2, match: 2, refuse: 7 });
    const found = (await call('POST', '/api/broker', { token: t.agents[0].token, body: { allMC: true, name: '801' } })).body;
    expect(found.map((x: FilterLike) => [x.name, x.mcNumber, x.dotNumber, x.contacts, x.comment, x.isVerified, x.allMC])).toEqual([
      ['New Broker One', '801', '9001', ['+13125550100', 'ops@new1.example'], 'pays fast', true, true],
    ]);
    expect((await eventsOf(t.manager.id, found[0]._id)).map((e) => e.kind)).toEqual(['imported']);
    // the same file again creates nothing: every broker now matches
    const again = await call('POST', '/api/broker/import', { token: t.manager.token, body: { rows } });
    expect(again.body).toMatchObject({ message: 'Nothing to import', create: 0, match: 5 });
    expect(await rowsOf(t.manager.id)).toHaveLength(3);
    expect(await rowsOf(other.manager.id)).toHaveLength(1);
  });

  it('refuses agents, empty and oversized files; imports 5,000 rows in one write', { timeout: 120_000 }, async () => {
    const t = await teamWithMc();
    const agent = await call('POST', '/api/broker/import/preview', { token: t.agents[0].token, body: { rows: [row('X')] } });
    expect([agent.status, agent.body.message]).toEqual([403, 'You are not allowed to do this']);
    const empty = await call('POST', '/api/broker/import', { token: t.manager.token, body: { rows: [] } });
    expect([empty.status, empty.body]).toEqual([400, errorBody(FILTER_MESSAGES.importEmpty)]);
    const tooMany = await call('POST', '/api/broker/import/preview', {
      token: t.manager.token,
      body: { rows: Array.from({ length: 5001 }, (_, i) => row(`B ${i}`)) },
    });
    // the limit as a string: a number would answer '5,000', and outside tools match the text
    expect([tooMany.status, tooMany.body]).toEqual([400, errorBody(FILTER_MESSAGES.importTooMany, { max: '5000' })]);
    expect(tooMany.body.message).toBe('At most 5000 rows per import');
    const hugeMc = await call('POST', '/api/broker/import/preview', { token: t.manager.token, body: { rows: [row('Huge', { mcNumber: '1'.repeat(201) })] } });
    expect([hugeMc.status, hugeMc.body.message, hugeMc.body.code]).toEqual([400, FILTER_MESSAGES.badMcNumber.text, 'filter.badMcNumber']);
    const big = Array.from({ length: 5000 }, (_, i) =>
      row(`Bulk Broker ${i}`, { mcNumber: String(200000 + i), contacts: `+1555${String(i).padStart(7, '0')}` }),
    );
    const done = await call('POST', '/api/broker/import', { token: t.manager.token, body: { rows: big } });
    expect(done.body).toMatchObject({ create: 5000, match: 0, refuse: 0 });
    const rows = await rowsOf(t.manager.id);
    expect(rows).toHaveLength(5000);
    expect(new Set(rows.map((r) => r.index)).size).toBe(5000);
    expect(Math.max(...rows.map((r) => r.index))).toBe(5000);
  });

  it('exports what the caller sees as CSV, with MC and DOT; another team sees none of it', async () => {
    const t = await teamWithMc();
    await add(t.manager, body(t, { name: 'Shared, "Quoted" Broker', mcNumber: '321', dotNumber: '654', contacts: ['+1 312 555 0101'] }));
    await add(t.agents[1], body(t, { name: 'Agent Private', onlyCreator: true, usersList: [] }));
    const res = await call('GET', '/api/broker/export', { token: t.manager.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe('name,type,comment,contacts,mcNumber,dotNumber,otherNames,users,mcs,creator,status');
    expect(lines[1]).toBe(`"Shared, ""Quoted"" Broker",Blocked,,+13125550101,321,654,,Team and Me,All MC,${t.manager.name},Active`);
    expect(lines).toHaveLength(3);
    const agent0 = (await call('GET', '/api/broker/export', { token: t.agents[0].token })).text.trim().split('\r\n');
    expect(agent0).toHaveLength(2);
    const other = await teamWithMc();
    expect((await call('GET', '/api/broker/export', { token: other.manager.token })).text.trim().split('\r\n')).toHaveLength(1);
  });
});

type FilterLike = {
  _id: string;
  name: string;
  mcNumber: string | null;
  dotNumber: string | null;
  contacts: string[];
  comment: string;
  isVerified: boolean;
  allMC: boolean;
  canEdit: boolean;
  canCorrect: boolean;
  rejectedReason: string | null;
};

describe('search (FTS5 trigram index kept by triggers)', () => {
  it('finds part of a name, an alias, a contact or the comment, an MC or DOT number; follows edits and deletes; stays in the team', async () => {
    const t = await teamWithMc();
    const a = await add(
      t.manager,
      body(t, {
        name: 'Northwind Carriers',
        aliases: ['NW Haul'],
        contacts: ['dispatch@northwind.example'],
        comment: 'slow pay',
        mcNumber: '424242',
        dotNumber: '77',
      }),
    );
    const b = await add(t.manager, body(t, { name: 'Southbound Freight' }));
    const other = await teamWithMc();
    await add(other.manager, body(other, { name: 'Northwind Elsewhere' }));
    const find = async (name: string, user = t.manager) =>
      ((await call('POST', '/api/broker', { token: user.token, body: { allMC: true, name } })).body as { _id: string }[]).map((x) => x._id).sort();
    for (const term of ['wind car', 'NORTHWIND', 'haul', 'northwind.example', 'slow', 'MC 424242', '424242', '77', 'ou']) {
      expect(await find(term), term).toEqual(term === 'ou' ? [b] : [a]);
    }
    expect(await find('wind')).toEqual([a]);
    // an edit is searchable at once, the old text no more; aliases and contacts too
    await call('POST', '/api/broker/update/details', {
      token: t.manager.token,
      body: body(t, { updateFilterId: a, name: 'Eastwind Carriers', aliases: ['EW Transport'], contacts: ['+1 312 555 0199'], comment: 'fast pay' }),
    });
    expect(await find('northwind')).toEqual([]);
    expect(await find('haul')).toEqual([]);
    expect(await find('eastwind')).toEqual([a]);
    expect(await find('ew trans')).toEqual([a]);
    expect(await find('5550199')).toEqual([a]);
    expect(await find('fast pay')).toEqual([a]);
    await call('PUT', '/api/broker/update/delete', { token: t.manager.token, body: { filterId: a } });
    expect(await find('eastwind')).toEqual([]);
    const [fts] = (
      await d1Of(testEnv, t.manager.shard)
        .prepare('select count(*) as n from broker_filters_fts where broker_filters_fts match \'"eastwind"\'')
        .all<{ n: number }>()
    ).results;
    expect(fts!.n).toBe(0);
    // a quote in the term is text, not FTS syntax
    expect((await call('POST', '/api/broker', { token: t.manager.token, body: { allMC: true, name: '"bound' } })).status).toBe(200);
  });
});
