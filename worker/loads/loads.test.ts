import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activeLoads, mcSettings } from '../db/schema';
import { HISTORY_MESSAGES } from '../history/history.messages';
import { randomId } from '../lib/ids';
import { call, countRows, createTeam, createUser, errorBody, everyDb, type TestUser } from '../test/helpers';
import { LOAD_MESSAGES } from './loads.messages';

type Team = Awaited<ReturnType<typeof createTeam>>;

const load = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  clientId: randomId(),
  brokerName: 'Coyote Logistics',
  origin: 'Atlanta, GA',
  dest: 'Miami, FL',
  loadDate: '2026-07-14',
  ...extra,
});
const add = (user: TestUser, body: Record<string, unknown>) => call('POST', '/api/activeLoad/add', { token: user.token, body });
async function addOk(user: TestUser, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await add(user, load(extra));
  if (res.status !== 201) throw new Error(`add load: ${res.status} ${res.text}`);
  return res.body._id;
}
const my = async (user: TestUser) => (await call('GET', '/api/activeLoad/my', { token: user.token })).body as { _id: string; brokerName: string }[];
const team = (user: TestUser) => call('POST', '/api/activeLoad/team', { token: user.token, body: {} });
const del = (user: TestUser, id: unknown, path = '/api/activeLoad/delete/') => call('POST', path, { token: user.token, body: { id } });
/** Whether the load is in its team's database (`user.db`, the team's shard). */
const exists = async (user: TestUser, id: string) => (await user.db.select().from(activeLoads).where(eq(activeLoads.id, id))).length === 1;
/** The databases that hold a load: its team's shard alone, or none. */
const shardsHolding = async (id: string) => {
  const found = await Promise.all(
    everyDb().map(async ({ shard, db }) => ((await db.select().from(activeLoads).where(eq(activeLoads.id, id))).length ? [shard] : [])),
  );
  return found.flat();
};

describe('POST /api/activeLoad/add (extension ingestion)', () => {
  let T: Team;
  let agentMc: string;
  beforeAll(async () => {
    T = await createTeam();
    const teamMc = randomId();
    agentMc = randomId();
    await T.manager.db.insert(mcSettings).values([
      { id: teamMc, userId: T.manager.id, name: 'Team MC', createdAt: new Date() },
      { id: agentMc, userId: T.agents[0].id, name: 'Team MC', parentMcId: teamMc, createdAt: new Date() },
    ]);
  });

  it("adds a load: 201 with the spec's fields; stored under the team's manager", async () => {
    const body = load({ mcSettingId: agentMc, date: Date.now() - 60_000 });
    const res = await add(T.agents[0], body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      parent: { name: T.agents[0].name },
      brokerName: 'Coyote Logistics',
      origin: 'Atlanta, GA',
      dest: 'Miami, FL',
      loadDate: '2026-07-14',
      reference: '',
      // an extension from before Truckstop sends no board: DAT
      board: 'dat',
      date: new Date(body.date as number).toISOString(),
    });
    const [row] = await T.agents[0].db.select().from(activeLoads).where(eq(activeLoads.id, res.body._id));
    expect(row).toMatchObject({ userId: T.agents[0].id, teamId: T.manager.id, mcSettingId: agentMc, clientId: body.clientId });
  });

  it("keeps the board's reference ID (from the load's details) and lists it; a reference over 100 characters is refused", async () => {
    const res = await add(T.agents[0], load({ reference: '  TQL-884213 ' }));
    expect(res.status).toBe(201);
    expect(res.body.reference).toBe('TQL-884213');
    const [row] = await T.agents[0].db.select().from(activeLoads).where(eq(activeLoads.id, res.body._id));
    expect(row?.reference).toBe('TQL-884213');
    expect((await my(T.agents[0])).find((l) => l._id === res.body._id)).toMatchObject({ reference: 'TQL-884213' });
    const before = await countRows('active_loads');
    const long = await add(T.agents[0], load({ reference: 'R'.repeat(101) }));
    expect(long.status).toBe(400);
    expect(long.body.message).toBe(LOAD_MESSAGES.reference.text);
    expect(await countRows('active_loads')).toBe(before);
  });

  it('keeps the board the load came from and lists it; an unknown board is refused and stores nothing', async () => {
    const res = await add(T.agents[0], load({ board: 'truckstop' }));
    expect(res.status).toBe(201);
    expect(res.body.board).toBe('truckstop');
    const [row] = await T.agents[0].db.select().from(activeLoads).where(eq(activeLoads.id, res.body._id));
    expect(row?.board).toBe('truckstop');
    expect((await my(T.agents[0])).find((l) => l._id === res.body._id)).toMatchObject({ board: 'truckstop' });
    expect((await team(T.manager)).body.find((l: { _id: string }) => l._id === res.body._id)).toMatchObject({ board: 'truckstop' });
    const before = await countRows('active_loads');
    for (const board of ['123loadboard', 'Truckstop', null]) {
      const bad = await add(T.agents[0], load({ board }));
      expect(bad.status, String(board)).toBe(400);
      expect(bad.body).toEqual(errorBody(HISTORY_MESSAGES.board));
    }
    expect(await countRows('active_loads')).toBe(before);
  });

  it('is idempotent on the client id; a reused id for another load answers 409', async () => {
    const body = load();
    const first = await add(T.agents[0], body);
    expect(first.status).toBe(201);
    const before = await countRows('active_loads');
    const again = await add(T.agents[0], body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const reused = await add(T.agents[0], { ...body, dest: 'Orlando, FL' });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe(LOAD_MESSAGES.clientIdReused.text);
    expect(await countRows('active_loads')).toBe(before);
  });

  it.each([
    [{ brokerName: '' }, LOAD_MESSAGES.brokerEmpty.text],
    [{ origin: ' ' }, LOAD_MESSAGES.originEmpty.text],
    [{ dest: undefined }, LOAD_MESSAGES.destEmpty.text],
    [{ clientId: 'no spaces allowed' }, 'A client id is required: 1 to 100 letters, digits or . _ : -'],
    [{ date: Date.now() + 3_600_000 }, LOAD_MESSAGES.date.text],
    [{ date: 'soon' }, LOAD_MESSAGES.date.text],
  ])('%o answers 400 %s and stores nothing', async (patch, message) => {
    const before = await countRows('active_loads');
    const res = await add(T.agents[0], load(patch));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await countRows('active_loads')).toBe(before);
  });

  it("an MC setting that is not the caller's answers 404", async () => {
    const before = await countRows('active_loads');
    const res = await add(T.agents[1], load({ mcSettingId: agentMc }));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(LOAD_MESSAGES.mcNotFound.text);
    expect(await countRows('active_loads')).toBe(before);
  });

  it('roles: the admin and a director are refused; no token 401', async () => {
    const before = await countRows('active_loads');
    expect((await add(await createUser('admin'), load())).status).toBe(403);
    expect((await add(T.director, load())).status).toBe(403);
    expect((await call('POST', '/api/activeLoad/add', { body: load() })).status).toBe(401);
    expect(await countRows('active_loads')).toBe(before);
  });
});

describe("My active loads, the team's, and delete", () => {
  let A: Team;
  let B: Team;
  const ids = {} as Record<'a0old' | 'a0' | 'a1' | 'manager' | 'b0', string>;
  beforeAll(async () => {
    A = await createTeam();
    B = await createTeam();
    ids.a0old = await addOk(A.agents[0], { brokerName: 'A0 older', date: Date.now() - 2 * 86_400_000 });
    ids.a0 = await addOk(A.agents[0], { brokerName: 'A0 newer' });
    ids.a1 = await addOk(A.agents[1], { brokerName: 'A1 load' });
    ids.manager = await addOk(A.manager, { brokerName: 'Manager load' });
    ids.b0 = await addOk(B.agents[0], { brokerName: 'B0 load' });
  });

  it("GET /my: the caller's own loads, newest first", async () => {
    expect((await my(A.agents[0])).map((l) => l.brokerName)).toEqual(['A0 newer', 'A0 older']);
    expect((await my(A.manager)).map((l) => l.brokerName)).toEqual(['Manager load']);
    expect(await my(await createUser('agent'))).toEqual([]);
  });

  it("POST /team: a manager sees its team's loads, not another team's", async () => {
    const res = await team(A.manager);
    expect(res.status).toBe(200);
    expect(res.body.map((l: { brokerName: string }) => l.brokerName).sort()).toEqual(['A0 newer', 'A0 older', 'A1 load', 'Manager load']);
    expect(res.body.find((l: { _id: string }) => l._id === ids.a1).parent).toEqual({ name: A.agents[1].name });
    expect((await team(B.manager)).body.map((l: { brokerName: string }) => l.brokerName)).toEqual(['B0 load']);
  });

  it('POST /team is for managers: agents and the admin get 403, a director 403, no token 401', async () => {
    for (const who of [A.agents[0], await createUser('admin'), A.director]) {
      const res = await team(who);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You are not allowed to do this');
    }
    expect((await call('POST', '/api/activeLoad/team', { body: {} })).status).toBe(401);
    expect((await call('GET', '/api/activeLoad/my')).status).toBe(401);
  });

  it('an expired subscription is refused', async () => {
    const expired = await createUser('manager', { subscriptionDays: -1 });
    const res = await team(expired);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your subscription is not active');
  });

  it("delete: a teammate, another team's manager and a director get 404/403 and nothing changes", async () => {
    const before = await countRows('active_loads');
    for (const [who, status] of [
      [A.agents[1], 404],
      [B.manager, 404],
      [B.agents[0], 404],
      [A.director, 403],
    ] as const) {
      const res = await del(who, ids.a0);
      expect(res.status).toBe(status);
      if (status === 404) expect(res.body.message).toBe(LOAD_MESSAGES.notFound.text);
    }
    // an agent cannot delete its manager's load either
    expect((await del(A.agents[0], ids.manager)).status).toBe(404);
    expect((await del(A.manager, 'unknown')).status).toBe(404);
    expect((await del(A.manager, '')).status).toBe(400);
    expect((await del(A.manager, 42)).status).toBe(400);
    expect(await countRows('active_loads')).toBe(before);
  });

  it("teams on different shards: each load is in its team's shard alone; the other shard's manager never lists or deletes it", async () => {
    expect(A.manager.shard).not.toBe(B.manager.shard);
    expect(await shardsHolding(ids.a0)).toEqual([A.manager.shard]);
    expect(await shardsHolding(ids.b0)).toEqual([B.manager.shard]);
    expect((await team(B.manager)).body.map((l: { _id: string }) => l._id)).not.toContain(ids.a0);
    const res = await del(B.manager, ids.a0);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(LOAD_MESSAGES.notFound.text);
    expect(await shardsHolding(ids.a0)).toEqual([A.manager.shard]);
  });

  it("delete: the owner deletes its own load; the manager deletes its agent's; with or without the trailing slash", async () => {
    const res = await del(A.agents[0], ids.a0old);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(LOAD_MESSAGES.deleted.text);
    expect(await exists(A.agents[0], ids.a0old)).toBe(false);
    expect((await del(A.manager, ids.a1, '/api/activeLoad/delete')).status).toBe(200);
    expect(await exists(A.agents[1], ids.a1)).toBe(false);
    // deleting twice answers 404
    expect((await del(A.manager, ids.a1)).status).toBe(404);
    expect(await exists(A.agents[0], ids.a0)).toBe(true);
    expect(await exists(B.agents[0], ids.b0)).toBe(true);
  });
});
