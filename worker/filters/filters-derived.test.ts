import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brokerFilterAliases, brokerFilterContacts, brokerFilterMcs, brokerFilters, brokerFilterUsers, mcSettings, users } from '../db/schema';
import type { Caller } from '../env';
import { d1Of } from '../lib/d1';
import { addFilter as add, addMc, filterSave, teamWithMcs } from '../test/filters';
import { call, createUser, homeOfUser, type TestUser, testEnv } from '../test/helpers';
import { selectDtos, viewerOf, visibleTo } from './filters-visibility.service';

/**
 * BENCHMARKS.md: the derived columns of broker_filters (lists, Users kind, short-term search text)
 * that the triggers of migration 0017 keep. Whatever writes a filter or one of its lists, the
 * columns must equal what the list tables hold: checked here against the tables themselves, after
 * every write path and after rounds of simultaneous writes.
 */

type Team = Awaited<ReturnType<typeof teamWithMcs>>;

const body = (t: Team, extra: Record<string, unknown> = {}) =>
  filterSave(t, { allMC: false, mcList: [t.mcA], usersList: [t.manager.id, t.agents[0].id], aliases: [], ...extra });

async function update(user: TestUser, filterId: string, b: Record<string, unknown>) {
  const res = await call('POST', '/api/broker/update/details', { token: user.token, body: { ...b, updateFilterId: filterId } });
  if (res.status !== 200) throw new Error(`update filter: ${res.status} ${res.text}`);
}

/** SQLite's lower(): ASCII letters only. */
const sqlLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const lines = (s: string) => s.split('\n').sort();

/** What the derived columns must hold for each of the team's filters, from the list tables themselves. */
async function expectDerivedInStep(teamId: string) {
  const { db } = await homeOfUser(teamId);
  const rows = await db.select().from(brokerFilters).where(eq(brokerFilters.teamId, teamId));
  const ofTeam = <T extends { filterId: string }>(list: T[]) => {
    const by = new Map<string, T[]>();
    for (const r of list) by.set(r.filterId, [...(by.get(r.filterId) ?? []), r]);
    return by;
  };
  const inTeam = sql`filter_id in (select id from broker_filters where team_id = ${teamId})`;
  const mcs = ofTeam(await db.select().from(brokerFilterMcs).where(inTeam));
  const members = ofTeam(await db.select().from(brokerFilterUsers).where(inTeam));
  const contacts = ofTeam(await db.select().from(brokerFilterContacts).where(inTeam));
  const aliases = ofTeam(await db.select().from(brokerFilterAliases).where(inTeam));
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const actual = rows.map((r) => ({
    id: r.id,
    mcList: JSON.parse(r.mcListJson),
    usersList: JSON.parse(r.usersListJson),
    contacts: JSON.parse(r.contactsJson),
    aliases: JSON.parse(r.aliasesJson),
    usersKind: r.usersKind,
    searchHead: r.searchText.split('\n').slice(0, 2),
    searchContacts: r.searchText.split('\n').slice(2).filter(Boolean).sort(),
    aliasesText: lines(r.aliasesText).filter(Boolean),
  }));
  const expected = rows.map((r) => {
    const myContacts = [...(contacts.get(r.id) ?? [])].sort((a, b) => a.position - b.position).map((c) => c.contact);
    const myUsers = (members.get(r.id) ?? []).map((u) => u.userId).sort(byCode);
    const myAliases = [...(aliases.get(r.id) ?? [])].sort((a, b) => byCode(a.normalAlias, b.normalAlias));
    return {
      id: r.id,
      mcList: (mcs.get(r.id) ?? []).map((m) => m.mcId).sort(byCode),
      usersList: myUsers,
      contacts: myContacts,
      aliases: myAliases.map((a) => a.alias),
      usersKind: r.onlyCreator ? 0 : myUsers.includes(r.creatorId) ? 1 : 2,
      searchHead: [sqlLower(r.name), sqlLower(r.comment)],
      searchContacts: myContacts.map(sqlLower).sort(),
      aliasesText: myAliases.map((a) => a.normalAlias).sort(),
    };
  });
  expect(actual).toEqual(expected);
  return rows;
}

const search = (user: TestUser, b: Record<string, unknown> = {}) =>
  call('POST', '/api/broker', { token: user.token, body: { name: '', allMC: true, ...b } }).then((r) => {
    if (r.status !== 200) throw new Error(`search: ${r.status} ${r.text}`);
    return (r.body as { name: string }[]).map((f) => f.name).sort();
  });

describe('derived filter columns (migration 0017)', () => {
  it('follow add, update, toggle, bulk, verify, reject, import, an MC deleted and delete', async () => {
    const t = await teamWithMcs();
    const a = await add(
      t.manager,
      body(t, {
        name: 'Ridge Freight',
        comment: 'Pays in 90 DAYS',
        mcList: [t.mcB, t.mcA],
        usersList: [t.agents[1].id, t.manager.id],
        contacts: ['ops@ridge.example', '(312) 555-0100'],
        aliases: ['Ridge Haul', 'RF Logistics'],
      }),
    );
    const b = await add(t.agents[0], body(t, { name: 'Agent Own', onlyCreator: true, usersList: [] }));
    const c = await add(t.manager, body(t, { name: 'Team Without Me', usersList: [t.agents[0].id], allMC: true, mcList: [] }));
    let rows = await expectDerivedInStep(t.manager.id);
    expect(rows.find((r) => r.id === a)).toMatchObject({ usersKind: 1, contactsJson: '["ops@ridge.example","+13125550100"]' });
    expect(rows.find((r) => r.id === b)?.usersKind).toBe(0);
    expect(rows.find((r) => r.id === c)?.usersKind).toBe(2);

    // update: every list replaced, name and comment changed
    await update(
      t.manager,
      a,
      body(t, {
        name: 'Ridge Freight Co',
        comment: 'now quick',
        mcList: [t.mcA],
        usersList: [t.agents[0].id],
        contacts: ['+1 773 555 0199'],
        aliases: ['Ridge Carriers'],
      }),
    );
    rows = await expectDerivedInStep(t.manager.id);
    expect(rows.find((r) => r.id === a)).toMatchObject({ usersKind: 2, mcListJson: JSON.stringify([t.mcA]), aliasesJson: '["Ridge Carriers"]' });
    // an agent saving its own filter again; a manager making a team filter creator-only
    await update(t.agents[0], b, body(t, { name: 'Agent Own', onlyCreator: true, usersList: [], contacts: ['me@agent.example'] }));
    await update(t.manager, c, body(t, { name: 'Team Without Me', onlyCreator: true, usersList: [] }));
    rows = await expectDerivedInStep(t.manager.id);
    expect(rows.find((r) => r.id === c)).toMatchObject({ usersKind: 0, usersListJson: JSON.stringify([t.manager.id]) });

    // toggle, bulk (disable, type), verify, reject
    await call('PUT', '/api/broker/update/isactive/', { token: t.manager.token, body: { filterId: a } });
    await call('POST', '/api/broker/bulk', { token: t.manager.token, body: { action: 'setType', filterIds: [a, b, c], type: t.types[1]!._id } });
    const waiting = await add(t.agents[1], body(t, { name: 'Waiting One', usersList: [t.agents[1].id, t.agents[0].id], contacts: ['w@wait.example'] }));
    await call('POST', '/api/broker/queue/reject', { token: t.manager.token, body: { filterId: waiting, reason: 'Name is wrong' } });
    await expectDerivedInStep(t.manager.id);

    // import: list rows are written before the filter rows; the insert trigger derives them once
    const imported = await call('POST', '/api/broker/import', {
      token: t.manager.token,
      body: {
        rows: [
          { name: 'Imported One', type: 'Blocked', comment: 'From The Sheet', contacts: 'a@imp.example; 3125550111', mcNumber: '', dotNumber: '' },
          { name: 'Imported Two', type: 'Blocked', comment: '', contacts: '', mcNumber: '', dotNumber: '' },
        ],
      },
    });
    expect(imported.status).toBe(200);
    rows = await expectDerivedInStep(t.manager.id);
    const one = rows.find((r) => r.name === 'Imported One')!;
    expect(one.usersKind).toBe(1);
    expect(JSON.parse(one.usersListJson)).toHaveLength(3);
    expect(JSON.parse(one.contactsJson)).toEqual(['a@imp.example', '+13125550111']);

    // the lead deletes MC Beta: it leaves every filter's MC list
    const beta = await call('DELETE', '/api/mcSettings/', { token: t.manager.token, body: { settingID: t.mcB } });
    expect(beta.status).toBe(200);
    rows = await expectDerivedInStep(t.manager.id);
    expect(rows.some((r) => r.mcListJson.includes(t.mcB))).toBe(false);

    // delete one and several
    expect((await call('PUT', '/api/broker/update/delete/', { token: t.manager.token, body: { filterId: a } })).status).toBe(200);
    await call('POST', '/api/broker/bulk', { token: t.manager.token, body: { action: 'delete', filterIds: [b, waiting] } });
    rows = await expectDerivedInStep(t.manager.id);
    expect(rows.map((r) => r.name).sort()).toEqual(['Imported One', 'Imported Two', 'Team Without Me']);
  });

  it("the migration's fill computes what the triggers keep", async () => {
    const t = await teamWithMcs();
    await add(t.manager, body(t, { name: 'Fill One', contacts: ['f@fill.example'], aliases: ['Fill Uno'], comment: 'X' }));
    await add(t.agents[0], body(t, { name: 'Fill Two', onlyCreator: true, usersList: [] }));
    await t.manager.db
      .update(brokerFilters)
      .set({ mcListJson: '[]', usersListJson: '[]', contactsJson: '[]', aliasesJson: '[]', usersKind: 2, searchText: '', aliasesText: '' })
      .where(eq(brokerFilters.teamId, t.manager.id));
    const migrations = (env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS;
    // the migration's first statement, as written in the file
    const text = migrations.find((m) => m.name.startsWith('0017_'))!.queries.join('\n');
    const start = text.indexOf('UPDATE `broker_filters` SET');
    expect(start).toBeGreaterThanOrEqual(0);
    await d1Of(testEnv, t.manager.shard)
      .prepare(text.slice(start, text.indexOf(';', start) + 1))
      .run();
    const rows = await expectDerivedInStep(t.manager.id);
    expect(rows.map((r) => r.usersKind).sort()).toEqual([0, 1]);
  });

  it('stay right under simultaneous saves of one filter and adds: 30 writes a round, 3 rounds', { timeout: 120_000 }, async () => {
    const t = await teamWithMcs();
    const target = await add(t.manager, body(t, { name: 'Contested Broker' }));
    const people = [t.manager.id, t.agents[0].id, t.agents[1].id];
    const submitted: { mc: string[]; users: string[]; contacts: string[]; aliases: string[] }[] = [];
    for (let round = 0; round < 3; round++) {
      const writes = Array.from({ length: 30 }, (_, i) => {
        if (i % 3 === 2) {
          return add(
            t.manager,
            body(t, {
              name: `Parallel ${round}-${i}`,
              usersList: people.slice(i % 3),
              contacts: [`p${round}x${i}@par.example`],
              aliases: [`Par Alias ${round}-${i}`],
            }),
          );
        }
        const lists = {
          mc: i % 2 ? [t.mcA, t.mcB] : [t.mcB],
          users: people.filter((_, k) => (i + k) % 2 === 0),
          contacts: Array.from({ length: 1 + (i % 3) }, (_, k) => `c${round}x${i}x${k}@race.example`),
          aliases: [`Contested ${round}-${i}`],
        };
        submitted.push(lists);
        return update(
          t.manager,
          target,
          body(t, { name: 'Contested Broker', mcList: lists.mc, usersList: lists.users, contacts: lists.contacts, aliases: lists.aliases }),
        );
      });
      await Promise.all(writes);
      const rows = await expectDerivedInStep(t.manager.id);
      const row = rows.find((r) => r.id === target)!;
      // one save's lists, whole: never a mix of two saves
      const stored = {
        mc: JSON.parse(row.mcListJson),
        users: JSON.parse(row.usersListJson),
        contacts: JSON.parse(row.contactsJson),
        aliases: JSON.parse(row.aliasesJson),
      };
      const sortedCopy = (x: string[]) => [...x].sort((a, b) => (a < b ? -1 : 1));
      expect(submitted.map((s) => ({ ...s, mc: sortedCopy(s.mc), users: sortedCopy(s.users) }))).toContainEqual(stored);
      expect(rows).toHaveLength(1 + 10 * (round + 1));
    }
  });

  it('the Users filter and 1-2 character terms answer as before, never across two fields', async () => {
    const t = await teamWithMcs();
    await add(t.manager, body(t, { name: 'Kappa Trans', comment: 'qz first', usersList: [t.manager.id] }));
    await add(t.manager, body(t, { name: 'Omega Q', comment: 'Zeta', usersList: [t.agents[0].id] }));
    await add(t.agents[0], body(t, { name: 'Sigma Own', onlyCreator: true, usersList: [], contacts: ['WX@mail.example'] }));
    await add(t.manager, body(t, { name: 'Delta', aliases: ['Yv Brokers'], usersList: [] }));
    expect(await search(t.manager, { onlyCreator: true })).toEqual(['Sigma Own']);
    expect(await search(t.manager, { teamWithMe: true })).toEqual(['Kappa Trans']);
    expect(await search(t.manager, { teamWithoutMe: true })).toEqual(['Delta', 'Omega Q']);
    expect(await search(t.manager, { teamWithMe: true, onlyCreator: true })).toEqual(['Kappa Trans', 'Sigma Own']);
    expect(await search(t.manager, { teamWithMe: true, onlyCreator: true, teamWithoutMe: true })).toHaveLength(4);
    // short terms: name, comment, contact (any case), alias (normal form)
    expect(await search(t.manager, { name: 'QZ' })).toEqual(['Kappa Trans']);
    expect(await search(t.manager, { name: 'wx' })).toEqual(['Sigma Own']);
    expect(await search(t.manager, { name: 'yv' })).toEqual(['Delta']);
    expect(await search(t.manager, { name: 'Ze' })).toEqual(['Omega Q']);
    // "Omega Q" + "Zeta": "qz" would only match across the name and the comment
    expect(await search(t.manager, { name: 'qz' })).toEqual(['Kappa Trans']);
    // an agent sees its own and the verified team filters listing it
    expect(await search(t.agents[0], { name: 'a' })).toEqual(['Omega Q', 'Sigma Own']);
  });
});

describe('MC and user membership read from the JSON lists', () => {
  it('an MC id the JSON search cannot take whole (a quote, a backslash) is looked up in the list table and matches the same', async () => {
    const t = await teamWithMcs();
    await add(t.manager, body(t, { name: 'On Alpha', mcList: [t.mcA], usersList: [t.agents[1].id] }));
    await add(t.manager, body(t, { name: 'On Beta', mcList: [t.mcB], usersList: [t.agents[1].id] }));
    await add(t.manager, body(t, { name: 'On All', allMC: true, mcList: [], usersList: [t.agents[1].id] }));
    for (const user of [t.manager, t.agents[1]]) {
      expect(await search(user, { allMC: false, mcList: [t.mcA] })).toEqual(['On All', 'On Alpha']);
      expect(await search(user, { allMC: false, mcList: [t.mcA, 'x"y\\'] })).toEqual(['On All', 'On Alpha']);
      expect(await search(user, { allMC: false, mcList: ['x"y', t.mcB] })).toEqual(['On All', 'On Beta']);
      expect(await search(user, { allMC: false, mcList: ['nothing'] })).toEqual(['On All']);
    }
  });
});

describe('GET /api/broker/minified reads only the filters that can apply to the caller', () => {
  it('answers exactly the rules of decision 0007 for each user of a team with 60 varied filters', { timeout: 120_000 }, async () => {
    const t = await teamWithMcs();
    // a deterministic spread of creators, users, MCs, flags, states
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const people = [t.manager, t.agents[0], t.agents[1]];
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const creator = people[Math.floor(rand() * 3)]!;
      const onlyCreator = creator !== t.manager && rand() < 0.3;
      const allMC = rand() < 0.3;
      // agent 0 works on MC Alpha only, so it can pick nothing else
      const mcChoices = creator === t.agents[0] ? [[t.mcA]] : [[t.mcA], [t.mcB], [t.mcA, t.mcB]];
      const mcList = allMC ? [] : mcChoices[Math.floor(rand() * mcChoices.length)]!;
      const usersList = onlyCreator ? [] : people.filter(() => rand() < 0.5).map((p) => p.id);
      const id = await add(creator, body(t, { name: `Spread ${i}`, onlyCreator, allMC, mcList, usersList, newUsers: !onlyCreator && rand() < 0.5 }));
      ids.push(id);
      if (rand() < 0.15) await call('PUT', '/api/broker/update/isactive/', { token: t.manager.token, body: { filterId: id } });
      if (creator !== t.manager && !onlyCreator) {
        const r = rand();
        if (r < 0.4) await call('POST', '/api/broker/queue/verify', { token: t.manager.token, body: { filterIds: [id] } });
        else if (r < 0.6) await call('POST', '/api/broker/queue/reject', { token: t.manager.token, body: { filterId: id, reason: 'no' } });
      }
    }
    // an agent who joins after every filter was saved, working on MC Beta only
    await new Promise((r) => setTimeout(r, 5));
    const late = await createUser('agent', { parentId: t.manager.id });
    await addMc(late, { parentMc: t.mcB, lines: [1] });

    const filters = await t.manager.db.select().from(brokerFilters).where(eq(brokerFilters.teamId, t.manager.id));
    const lists = async (filterId: string) => ({
      mcs: (await t.manager.db.select().from(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, filterId))).map((m) => m.mcId),
      users: (await t.manager.db.select().from(brokerFilterUsers).where(eq(brokerFilterUsers.filterId, filterId))).map((u) => u.userId),
    });
    const listOf = new Map(await Promise.all(filters.map(async (f) => [f.id, await lists(f.id)] as const)));
    for (const user of [...people, late]) {
      const [me] = await t.manager.db.select().from(users).where(eq(users.id, user.id));
      const mine = await t.manager.db.select().from(mcSettings).where(eq(mcSettings.userId, user.id));
      const mcIds = user === t.manager ? mine.map((m) => m.id) : mine.map((m) => m.parentMcId!);
      const expected = filters
        .filter((f) => {
          const l = listOf.get(f.id)!;
          const applies =
            (f.creatorId === user.id && f.onlyCreator) || (!f.onlyCreator && (l.users.includes(user.id) || (f.newUsers && f.updatedAt < me!.registrationDate)));
          const onMc = f.allMc || l.mcs.some((m) => mcIds.includes(m));
          return f.isVisible && f.rejectedReason === null && (f.isVerified || f.creatorId === user.id) && applies && onMc;
        })
        .sort((a, b) => a.index - b.index)
        .map((f) => f.name);
      const res = await call('GET', '/api/broker/minified', { token: user.token });
      expect(res.status).toBe(200);
      expect({ user: user.id, names: (res.body as { name: string }[]).map((f) => f.name) }).toEqual({ user: user.id, names: expected });
    }
    // the spread exercises every way in: listed, own creator-only, users added later
    const lateAnswer = (await call('GET', '/api/broker/minified', { token: late.token })).body as unknown[];
    expect(lateAnswer.length).toBeGreaterThan(0);
  });
});

/** The caller as the app's auth would give it to the services. */
async function callerOf(user: TestUser): Promise<Caller> {
  const [u] = await user.db.select().from(users).where(eq(users.id, user.id));
  return { ...u!, sessionId: 'test' } as unknown as Caller;
}

describe('answers built by SQLite (json_object per row) equal the object form', () => {
  it('search, queue and the extension list give every field as the DTOs do, for a lead and agents', async () => {
    const t = await teamWithMcs();
    await add(
      t.manager,
      body(t, {
        name: 'Quote "Brokers" — Ünïcode',
        comment: 'line one\nline "two" \\ back',
        contacts: ['ops@quote.example', '(312) 555-0101'],
        aliases: ['Quote Bros', 'QB Freight'],
        mcNumber: '123456',
        dotNumber: '7654321',
        usersList: [t.manager.id, t.agents[0].id, t.agents[1].id],
        mcList: [t.mcA, t.mcB],
        onlyOnContacts: true,
        newUsers: true,
      }),
    );
    const own = await add(t.agents[0], body(t, { name: 'Agent Private', onlyCreator: true, usersList: [] }));
    const waiting = await add(t.agents[1], body(t, { name: 'Agent Team', usersList: [t.agents[1].id, t.agents[0].id], allMC: true, mcList: [] }));
    const rejected = await add(t.agents[1], body(t, { name: 'Agent Rejected', usersList: [t.agents[1].id] }));
    await call('POST', '/api/broker/queue/reject', { token: t.manager.token, body: { filterId: rejected, reason: 'Wrong "name"' } });
    const disabled = await add(t.manager, body(t, { name: 'Disabled One', usersList: [t.agents[0].id], allMC: true, mcList: [] }));
    await call('PUT', '/api/broker/update/isactive/', { token: t.manager.token, body: { filterId: disabled } });
    expect(own && waiting).toBeTruthy();

    for (const user of [t.manager, t.agents[0], t.agents[1]]) {
      const v = await viewerOf(t.manager.db, await callerOf(user));
      const objects = await selectDtos(t.manager.db, v, visibleTo(v));
      const res = await call('POST', '/api/broker', { token: user.token, body: { name: '', allMC: true } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual(objects);
      expect(objects.length).toBeGreaterThan(0);
    }
    const v = await viewerOf(t.manager.db, await callerOf(t.manager));
    const queue = await call('GET', '/api/broker/queue', { token: t.manager.token });
    expect(queue.body).toEqual(
      await selectDtos(
        t.manager.db,
        v,
        sql`${brokerFilters.teamId} = ${t.manager.id} and ${brokerFilters.isVerified} = 0 and ${brokerFilters.rejectedReason} is null`,
        500,
        true,
      ),
    );
    expect((queue.body as { name: string }[]).map((f) => f.name)).toEqual(['Agent Team', 'Agent Private']);

    // the extension's list: each row's fields are the filter's, with its type's name and colour
    const types = (await call('GET', '/api/user/filterOverrides', { token: t.manager.token })).body as { _id: string; typeName: string; color: string }[];
    for (const user of [t.manager, t.agents[0], t.agents[1]]) {
      const list = (await call('GET', '/api/broker/minified', { token: user.token })).body as Record<string, unknown>[];
      const all = await selectDtos(t.manager.db, await viewerOf(t.manager.db, await callerOf(t.manager)), eq(brokerFilters.teamId, t.manager.id));
      for (const row of list) {
        const dto = all.find((d) => d._id === row._id)!;
        const type = types.find((x) => x._id === dto.type)!;
        expect(row).toEqual({
          _id: dto._id,
          name: dto.name,
          type: dto.type,
          typeName: type.typeName,
          color: type.color,
          comment: dto.comment,
          onlyOnContacts: dto.onlyOnContacts,
          contacts: dto.contacts,
          allMC: dto.allMC,
          mcList: dto.mcList,
          mcNumber: dto.mcNumber,
          aliases: dto.aliases,
          // the broker's FMCSA record, made by the save and not checked (no job ran here)
          vetting: dto.mcNumber || dto.dotNumber ? { state: null, checkedAt: null } : null,
        });
      }
    }
    const agent0 = (await call('GET', '/api/broker/minified', { token: t.agents[0].token })).body as { name: string; comment: string }[];
    expect(agent0.map((r) => r.name)).toEqual(['Quote "Brokers" — Ünïcode', 'Agent Private']);
    expect(agent0[0]!.comment).toBe('line one\nline "two" \\ back');
  });
});

describe('GET /api/broker/minified: ETag and 304', () => {
  const get = (user: TestUser, etag?: string) => call('GET', '/api/broker/minified', { token: user.token, headers: etag ? { 'if-none-match': etag } : {} });

  it('answers 304 with no body while nothing changed; any change to what decides the list gives a new ETag and the new list', async () => {
    const t = await teamWithMcs();
    const other = await teamWithMcs();
    const first = await get(t.agents[1]);
    expect(first.status).toBe(200);
    let etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const same = await get(t.agents[1], etag);
    expect([same.status, same.text, same.headers.get('etag')]).toEqual([304, '', etag]);
    expect((await get(t.agents[1], `W/${etag}`)).status).toBe(304);
    expect((await get(t.agents[1], `"nope", ${etag}`)).status).toBe(304);
    expect((await get(t.agents[1], '"nope"')).status).toBe(200);
    // another user of the team has its own ETag
    expect((await get(t.agents[0], etag)).status).toBe(200);

    const changed = async (what: string, change: () => Promise<unknown>) => {
      await change();
      const res = await get(t.agents[1], etag);
      expect({ what, status: res.status }).toEqual({ what, status: 200 });
      expect(res.headers.get('etag')).not.toBe(etag);
      etag = res.headers.get('etag')!;
      expect((await get(t.agents[1], etag)).status).toBe(304);
      return res.body as { name: string; typeName: string; mcList: string[] }[];
    };
    const id = (await changed('add', () => add(t.manager, body(t, { name: 'Tagged', usersList: [t.agents[1].id], mcList: [t.mcB] })))) && '';
    expect(id).toBe('');
    const [tagged] = await t.manager.db.select().from(brokerFilters).where(eq(brokerFilters.name, 'Tagged'));
    let list = await changed('update', () => update(t.manager, tagged!.id, body(t, { name: 'Tagged Again', usersList: [t.agents[1].id], mcList: [t.mcB] })));
    expect(list.map((r) => r.name)).toEqual(['Tagged Again']);
    list = await changed('type renamed', () =>
      call('PUT', '/api/user/update/filterOverride/', {
        token: t.manager.token,
        body: { newFilters: [{ _id: t.types[0]!._id, typeName: 'Renamed', color: '#123456' }] },
      }),
    );
    expect(list[0]!.typeName).toBe('Renamed');
    await changed('toggle', () => call('PUT', '/api/broker/update/isactive/', { token: t.manager.token, body: { filterId: tagged!.id } }));
    await changed('toggle back', () => call('PUT', '/api/broker/update/isactive/', { token: t.manager.token, body: { filterId: tagged!.id } }));
    await changed('bulk type', () =>
      call('POST', '/api/broker/bulk', { token: t.manager.token, body: { action: 'setType', filterIds: [tagged!.id], type: t.types[1]!._id } }),
    );
    // a change elsewhere in the team's filters, even one not in this agent's list, may not be skipped silently
    await changed('import', async () => {
      const res = await call('POST', '/api/broker/import', {
        token: t.manager.token,
        body: { rows: [{ name: 'Imported For All', type: 'Preferred', comment: '', contacts: '', mcNumber: '', dotNumber: '' }] },
      });
      expect(res.body.create).toBe(1);
    });
    // the caller's own MCs decide the list too
    list = await changed('MC setting removed', async () => {
      const mine = await t.manager.db.select().from(mcSettings).where(eq(mcSettings.userId, t.agents[1].id));
      const onB = mine.find((m) => m.parentMcId === t.mcB)!;
      return call('DELETE', '/api/mcSettings/', { token: t.agents[1].token, body: { settingID: onB.id } });
    });
    expect(list.map((r) => r.name)).toEqual(['Imported For All']);
    await changed("the lead's MC deleted", () => call('DELETE', '/api/mcSettings/', { token: t.manager.token, body: { settingID: t.mcB } }));
    await changed('delete', () => call('PUT', '/api/broker/update/delete/', { token: t.manager.token, body: { filterId: tagged!.id } }));

    // another team's writes leave this ETag alone
    await add(other.manager, body(other, { name: 'Elsewhere', usersList: [other.agents[1].id] }));
    expect((await get(t.agents[1], etag)).status).toBe(304);
  });

  it('20 writes racing 20 reads a round, 3 rounds: a read whose ETag is still current holds the current list', { timeout: 120_000 }, async () => {
    const t = await teamWithMcs();
    for (let round = 0; round < 3; round++) {
      const seen: { etag: string; text: string }[] = [];
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          if (i % 2) {
            await add(t.manager, body(t, { name: `Race ${round}-${i}`, usersList: [t.agents[0].id], mcList: [t.mcA] }));
            return;
          }
          const res = await get(t.agents[0]);
          expect(res.status).toBe(200);
          seen.push({ etag: res.headers.get('etag')!, text: res.text });
        }),
      );
      const final = await get(t.agents[0]);
      expect(JSON.parse(final.text)).toHaveLength(20 * (round + 1));
      for (const s of seen) {
        // a read whose ETag is still current holds the current list
        if ((await get(t.agents[0], s.etag)).status === 304) expect(s.text).toBe(final.text);
      }
    }
  });
});
