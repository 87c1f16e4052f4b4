import { beforeAll, describe, expect, it } from 'vitest';
import { filterBody } from '../../scripts/filter-body.mjs';
import { randomId } from '../lib/ids';
import { call, createTeam, createUser, type TestUser } from '../test/helpers';
import { pay } from '../test/idram';
import { snapshotDb } from './db-snapshot';

/** A filter for the whole team on every MC: the body of `POST /api/broker/add` and `/update/details`. */
const teamFilter = (name: string, type: string | undefined) => filterBody({ name, type, newUsers: true });

/**
 * Tenant isolation: two complete teams (a director, a manager, two agents each). Every call
 * that takes an id or a list of users is tried by team A's members with team B's ids; each must
 * answer 403 or 404 and leave the database exactly as it was.
 */
type Team = Awaited<ReturnType<typeof createTeam>>;
let A: Team;
let B: Team;
let marketing: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  A = await createTeam();
  B = await createTeam();
  marketing = await createUser('marketing');
  // team B's objects, made through the API as its users would
  const link = await call('POST', '/api/link/generate', { token: B.manager.token, body: { from: 'https://b-team.example/' } });
  ids.link = link.body._id;
  const key = await call('POST', '/api/link/keys', { token: B.manager.token, body: { name: 'B script' } });
  ids.key = key.body._id;
  ids.apiKey = key.body.key;
  const order = await call('POST', '/api/payment/generateLink', {
    token: B.manager.token,
    body: { amount: 1, paymentType: 'idram', userToBePaidId: B.agents[0].id },
  });
  ids.order = order.body.orderId;
  // a paid one: it has a receipt
  const paid = await call('POST', '/api/payment/generateLink', {
    token: B.manager.token,
    body: { amount: 1, paymentType: 'idram', userToBePaidId: B.agents[0].id },
  });
  ids.paidOrder = paid.body.orderId;
  await pay(ids.paidOrder!);
  const mc = await call('POST', '/api/mcSettings/add/', {
    token: B.manager.token,
    body: { name: 'B-MC', parentMc: null, lines: [1], emailContent: '', emailSubject: '' },
  });
  ids.mc = mc.body?._id ?? mc.body?.mcSetting?._id ?? '';
  const types = await call('GET', '/api/user/filterOverrides', { token: B.manager.token });
  const filter = await call('POST', '/api/broker/add', {
    token: B.manager.token,
    body: teamFilter('B broker', types.body[0]._id),
  });
  ids.filterMessage = filter.body?.message ?? '';
  ids.type = types.body[0]._id;
  ids.filter = filter.body?._id ?? 'none';
  // an agent's submission, waiting in B's verification queue
  const waiting = await call('POST', '/api/broker/add', {
    token: B.agents[0].token,
    body: { ...teamFilter('B waiting broker', types.body[0]._id), onlyCreator: true },
  });
  ids.waitingFilter = waiting.body?._id ?? 'none';
  const load = await call('POST', '/api/activeLoad/add', {
    token: B.agents[0].token,
    body: { clientId: randomId(), brokerName: 'B', origin: 'X', dest: 'Y', loadDate: '2026-11-23' },
  });
  ids.load = load.body?._id ?? 'none';
});

/** Team B's last five days of history, as a director of team A would ask for them. */
const teamBHistory = () => ({
  usersList: [],
  mcList: [],
  phoneLogs: true,
  emailLogs: true,
  managerId: B.manager.id,
  dateFrom: new Date(Date.now() - 5 * 86_400_000).toISOString(),
  dateTo: new Date().toISOString(),
});

const attempts: [string, () => { who: TestUser; method: string; path: string; body?: unknown }][] = [
  ["read another team's user", () => ({ who: A.manager, method: 'GET', path: `/api/user/${B.agents[0].id}` })],
  ["rename another team's agent", () => ({ who: A.manager, method: 'PUT', path: `/api/user/update/name/${B.agents[0].id}`, body: { newName: 'x' } })],
  [
    "change another team's e-mail",
    () => ({ who: A.manager, method: 'PUT', path: `/api/user/update/email/${B.agents[0].id}`, body: { newEmail: 'x@x.example' } }),
  ],
  [
    "change another team's password",
    () => ({ who: A.manager, method: 'PUT', path: `/api/user/update/password/${B.agents[0].id}`, body: { newPassword: 'hijacked1' } }),
  ],
  ["resend another team's verification", () => ({ who: A.manager, method: 'PUT', path: `/api/user/resendEmailVerification/${B.agents[0].id}` })],
  ["delete another team's agent", () => ({ who: A.manager, method: 'DELETE', path: '/api/user', body: { userId: B.agents[0].id } })],
  [
    "list another manager's agents",
    () => ({ who: A.manager, method: 'POST', path: '/api/user/managerChildUsers', body: { parentId: B.manager.id, includeParent: true } }),
  ],
  ["list children of another director's manager", () => ({ who: A.director, method: 'GET', path: `/api/user/childUsers/${B.manager.id}` })],
  [
    "read another team's subscriptions",
    () => ({ who: A.manager, method: 'POST', path: '/api/subscription/childUsersSubscriptions', body: { parentId: B.manager.id } }),
  ],
  [
    "pay for another team's agent",
    () => ({ who: A.manager, method: 'POST', path: '/api/payment/generateLink', body: { amount: 1, paymentType: 'idram', userToBePaidId: B.agents[1].id } }),
  ],
  [
    "pay for another team's agents in one order",
    () => ({ who: A.manager, method: 'POST', path: '/api/payment/generateTeamLink', body: { userIds: [A.agents[0].id, B.agents[1].id], amount: 1 } }),
  ],
  [
    "align another team's agent to one's own end date",
    () => ({ who: A.manager, method: 'POST', path: '/api/payment/generateTeamLink', body: { userIds: [B.agents[0].id], align: true } }),
  ],
  [
    "refund another team's payment as a manager",
    () => ({ who: A.manager, method: 'POST', path: '/api/payment/refund', body: { paymentId: ids.paidOrder, amount: 1, reason: 'x' } }),
  ],
  [
    "take months back from another team's agent",
    () => ({ who: A.director, method: 'POST', path: '/api/payment/refund', body: { paymentId: ids.paidOrder, amount: 0, monthsRemoved: 1, reason: 'x' } }),
  ],
  [
    'schedule a price as a manager',
    () => ({ who: A.manager, method: 'POST', path: '/api/payment/priceSchedule', body: { price: 1, effectiveFrom: '2031-01-01' } }),
  ],
  ['read the revenue as a manager', () => ({ who: A.manager, method: 'GET', path: '/api/payment/summary' })],
  ["read another team's payment link", () => ({ who: A.manager, method: 'POST', path: '/api/payment/getPaymentLink', body: { orderId: ids.order } })],
  ["read another team's order status", () => ({ who: A.agents[0], method: 'POST', path: '/api/payment/get_arca_status', body: { orderId: ids.order } })],
  ["read another team's receipt", () => ({ who: A.manager, method: 'GET', path: `/api/payment/receipt/${ids.paidOrder}` })],
  ["read a receipt of another team's agent", () => ({ who: A.agents[0], method: 'GET', path: `/api/payment/receipt/${ids.paidOrder}` })],
  ["read another team's receipt as a director", () => ({ who: A.director, method: 'GET', path: `/api/payment/receipt/${ids.paidOrder}` })],
  [
    "turn off another team's reminders",
    () => ({ who: A.manager, method: 'PUT', path: `/api/user/update/reminders/${B.agents[0].id}`, body: { remindersEnabled: false } }),
  ],
  ["read another team's filter history", () => ({ who: A.manager, method: 'GET', path: `/api/broker/${ids.filter}/history` })],
  ["read another team's filter notes", () => ({ who: A.agents[0], method: 'GET', path: `/api/broker/${ids.filter}/notes` })],
  ["add a note to another team's filter", () => ({ who: A.manager, method: 'POST', path: `/api/broker/${ids.filter}/notes`, body: { text: 'hijack' } })],
  [
    "verify another team's waiting filter",
    () => ({ who: A.manager, method: 'POST', path: '/api/broker/queue/verify', body: { filterIds: [ids.waitingFilter] } }),
  ],
  [
    "reject another team's waiting filter",
    () => ({ who: A.manager, method: 'POST', path: '/api/broker/queue/reject', body: { filterId: ids.waitingFilter, reason: 'x' } }),
  ],
  ['verify filters as an agent', () => ({ who: B.agents[1], method: 'POST', path: '/api/broker/queue/verify', body: { filterIds: [ids.waitingFilter] } })],
  ...(['disable', 'enable', 'delete'] as const).map((action): (typeof attempts)[number] => [
    `bulk ${action} another team's filters`,
    () => ({ who: A.manager, method: 'POST', path: '/api/broker/bulk', body: { action, filterIds: [ids.filter, ids.waitingFilter] } }),
  ]),
  [
    "bulk change the type of another team's filters",
    () => ({ who: A.manager, method: 'POST', path: '/api/broker/bulk', body: { action: 'setType', filterIds: [ids.filter], type: ids.type } }),
  ],
  [
    "bulk delete a teammate's private filter as an agent",
    () => ({ who: B.agents[1], method: 'POST', path: '/api/broker/bulk', body: { action: 'delete', filterIds: [ids.waitingFilter] } }),
  ],
  ["read another team's link", () => ({ who: A.manager, method: 'GET', path: `/api/link/${ids.link}` })],
  ["disable another team's link", () => ({ who: A.manager, method: 'PUT', path: `/api/link/${ids.link}`, body: { isDisabled: true } })],
  ["retarget another team's link", () => ({ who: A.manager, method: 'PUT', path: `/api/link/${ids.link}`, body: { from: 'https://a-team.example/' } })],
  ["delete another team's link", () => ({ who: A.manager, method: 'DELETE', path: `/api/link/${ids.link}` })],
  ["export another team's link clicks", () => ({ who: A.manager, method: 'GET', path: `/api/link/${ids.link}/clicks.csv` })],
  ["revoke another team's API key", () => ({ who: A.manager, method: 'DELETE', path: `/api/link/keys/${ids.key}` })],
  ['assign a promo code as a manager', () => ({ who: A.manager, method: 'POST', path: '/api/promocode/assignUser', body: { id: 'x', userId: B.manager.id } })],
  ['use promo management as an agent', () => ({ who: A.agents[0], method: 'GET', path: '/api/promocode/' })],
  ["read another team's MC settings", () => ({ who: A.manager, method: 'POST', path: '/api/mcSettings/byParentId/', body: { parentId: ids.mc } })],
  ["delete another team's MC", () => ({ who: A.manager, method: 'DELETE', path: '/api/mcSettings/', body: { settingID: ids.mc } })],
  ["hide another team's MC", () => ({ who: A.manager, method: 'POST', path: '/api/mcSettings/update/toggleVisibility', body: { settingID: ids.mc } })],
  ["toggle another team's filter", () => ({ who: A.manager, method: 'PUT', path: '/api/broker/update/isactive/', body: { filterId: ids.filter } })],
  ["delete another team's filter", () => ({ who: A.manager, method: 'PUT', path: '/api/broker/update/delete/', body: { filterId: ids.filter } })],
  [
    "edit another team's filter",
    () => ({
      who: A.manager,
      method: 'POST',
      path: '/api/broker/update/details',
      body: { updateFilterId: ids.filter, ...teamFilter('hijack', ids.type) },
    }),
  ],
  [
    "read another team's history",
    () => ({
      who: A.director,
      method: 'POST',
      path: '/api/callHistory/getHistory',
      body: teamBHistory(),
    }),
  ],
  [
    "read another team's history by the page",
    () => ({
      who: A.director,
      method: 'POST',
      path: '/api/callHistory/page',
      body: teamBHistory(),
    }),
  ],
  [
    "export another team's history",
    () => ({
      who: A.director,
      method: 'POST',
      path: '/api/callHistory/export',
      body: teamBHistory(),
    }),
  ],
  [
    "rename another team's filter types",
    () => ({
      who: A.manager,
      method: 'PUT',
      path: '/api/user/update/filterOverride/',
      body: { newFilters: [{ _id: ids.type, typeName: 'Hijacked', color: 'red' }] },
    }),
  ],
  [
    "log a call on another team's MC",
    () => ({
      who: A.agents[0],
      method: 'POST',
      path: '/api/callHistory/log',
      body: { clientId: 'iso-1', mcSettingId: ids.mc, kind: 'call', contact: '+15551234567', brokerName: 'X' },
    }),
  ],
  ["list another team's active loads", () => ({ who: A.agents[0], method: 'POST', path: '/api/activeLoad/team', body: {} })],
  ["delete another team's active load", () => ({ who: A.manager, method: 'POST', path: '/api/activeLoad/delete/', body: { id: ids.load } })],
];

describe('tenant isolation', () => {
  it("made team B's objects to attack", () => {
    for (const key of ['link', 'key', 'order', 'paidOrder', 'mc', 'filter', 'waitingFilter', 'load', 'type'])
      expect(ids[key], `${key}: ${JSON.stringify(ids)}`).toMatch(/^[A-Za-z0-9_-]{10,}$/);
  });

  it.each(attempts)('%s: 403 or 404, nothing changes', async (_name, attempt) => {
    const { who, method, path, body } = attempt();
    const before = await snapshotDb();
    const res = await call(method, path, { token: who.token, ...(body === undefined ? {} : { body }) });
    expect([403, 404], `${method} ${path} -> ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
    expect(typeof res.body?.message).toBe('string');
    expect(await snapshotDb()).toBe(before);
  });

  it('team lists never include the other team', async () => {
    for (const [who, other] of [
      [A.manager, B],
      [A.director, B],
    ] as const) {
      const list = (await call('GET', '/api/user', { token: who.token })).body.map((u: { _id: string }) => u._id);
      for (const id of [other.manager.id, other.agents[0].id, other.agents[1].id, other.director.id]) expect(list).not.toContain(id);
    }
    const links = (await call('GET', '/api/link', { token: A.manager.token })).body.map((l: { _id: string }) => l._id);
    expect(links).not.toContain(ids.link);
    const payments = (await call('GET', '/api/payment/paymentHistory', { token: A.manager.token })).body.map((p: { _id: string }) => p._id);
    expect(payments).not.toContain(ids.order);
    expect(marketing).toBeTruthy();
  });
});
