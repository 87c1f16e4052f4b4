import { describe, expect, it } from 'vitest';
import { DAY_MS } from './history/history.schema';
import { call, createUser, tokenFromMail } from './test/helpers';
import { answeringCalls, responsesOfCall } from './test/routes';

/**
 * Every answer the web app and the extension read, parsed with its response schema: a seeded
 * company (the demo seed), signed in as each role through the login call, then each GET (and
 * each POST that reads) with real ids. The schemas are strict objects, so a route that answers a
 * field the schema does not name, misses one, or changes a type fails here.
 */

const DOMAIN = 'responses.example';
const PASSWORD = 'demo12345';

const login = async (email: string, clientType = 0) => {
  const res = await call('POST', '/api/auth/login', { body: { email, password: PASSWORD, clientType } });
  expect(res.status, res.text).toBe(200);
  return res;
};

describe('the response schemas each route declares (answers()) describe what the routes answer', () => {
  // one walk over every call: about 15 s alone, over 30 s beside the browser suite on two cores
  it('parses the real answer of every call the clients read, for a seeded company', { timeout: 90_000 }, async () => {
    const seeded = await call('POST', '/api/dev/seed', {
      body: {
        teams: 1,
        agentsPerTeam: 2,
        mcsPerTeam: 2,
        filtersPerTeam: 12,
        historyRowsPerTeam: 60,
        historyDays: 10,
        loadsPerAgent: 2,
        payments: 2,
        linksPerManager: 2,
        emailDomain: DOMAIN,
        password: PASSWORD,
      },
    });
    expect(seeded.status, seeded.text).toBe(201);

    const checked = new Set<string>();
    /** Calls the route and parses its answer with the schema of the status it answered. */
    const expectAnswer = async (name: string, token: string | undefined, path: string, body?: unknown) => {
      const [method] = name.split(' ');
      const res = await call(method!, path, { token, body });
      const schemas = responsesOfCall(name) as Partial<Record<number, { safeParse: (v: unknown) => { success: boolean; error?: unknown } }>>;
      const schema = schemas[res.status];
      expect(schema, `${name} answered ${res.status}: ${res.text.slice(0, 300)}`).toBeDefined();
      const parsed = schema!.safeParse(res.body);
      expect(parsed.success, `${name} (${path}): ${JSON.stringify(parsed.error, null, 1)?.slice(0, 1500)}`).toBe(true);
      checked.add(name);
      return res.body;
    };

    // signed in through the login call, as the clients do (its answer is checked too)
    const managerLogin = await login(`manager1@${DOMAIN}`);
    expect(managerLogin.body).toEqual(responsesOfCall('POST /api/auth/login')[200]!.parse(managerLogin.body));
    checked.add('POST /api/auth/login');
    const manager = managerLogin.body.accessToken as string;
    const managerId = managerLogin.body.userId as string;
    const agentLogin = await login(`agent1.1@${DOMAIN}`, 1);
    const agent = agentLogin.body.accessToken as string;
    const director = (await login(`director@${DOMAIN}`)).body.accessToken as string;
    const marketing = (await login(`marketing@${DOMAIN}`)).body.accessToken as string;
    const adminUser = await createUser('admin');
    const admin = adminUser.token;

    // things the seed does not make, made the way a user makes them
    const filters = (await expectAnswer('POST /api/broker', manager, '/api/broker', { allMC: true })) as { _id: string }[];
    expect(filters.length).toBeGreaterThan(0);
    const filterId = filters[0]!._id;
    await expectAnswer('POST /api/broker/:filterId/notes', manager, `/api/broker/${filterId}/notes`, { text: 'Pays in 30 days' });
    await expectAnswer('POST /api/link/keys', manager, '/api/link/keys', { name: 'Load board script' });
    const settings = (await expectAnswer('GET /api/mcSettings', agent, '/api/mcSettings')) as { _id: string }[];
    expect(settings.length).toBeGreaterThan(0);
    const at = Date.now() - 60_000;
    const load = {
      clientId: `load-${at}`,
      mcSettingId: settings[0]!._id,
      brokerName: 'Total Quality Logistics',
      origin: 'Dallas, TX',
      dest: 'Atlanta, GA',
      loadDate: '2026-11-30',
    };
    await expectAnswer('POST /api/callHistory/log', agent, '/api/callHistory/log', {
      ...load,
      clientId: `call-${at}`,
      kind: 'call',
      contact: '(800) 580-3101',
      callDate: at,
      line: 1,
    });
    await expectAnswer('POST /api/activeLoad/add', agent, '/api/activeLoad/add', { ...load, reference: 'REF-1', date: at });
    await expectAnswer('POST /api/extension/health', agent, '/api/extension/health', {
      version: '1.0.0',
      layout: 'wide',
      unreadable: false,
      rowsSeen: 10,
      fields: { company: { read: 10, missed: 0 } },
    });
    const promoBody = { effectType: 'discountPercent', effectValue: 10, maxUses: 5, isPublic: true };
    await expectAnswer('POST /api/promocode/create', marketing, '/api/promocode/create', { ...promoBody, name: `RESP${String(at).slice(-6)}` });
    const spare = (await expectAnswer('POST /api/promocode/create', marketing, '/api/promocode/create', {
      ...promoBody,
      name: `GONE${String(at).slice(-6)}`,
    })) as {
      _id: string;
    };
    await expectAnswer('POST /api/promocode/delete', marketing, '/api/promocode/delete', { id: spare._id });
    // a few writes whose answers the screens show
    await expectAnswer('PUT /api/user/update/name/:id', manager, `/api/user/update/name/${managerId}`, { newName: 'Mara Manager' });
    for (const round of [1, 2]) {
      const toggled = (await expectAnswer('POST /api/mcSettings/update/toggleVisibility', agent, '/api/mcSettings/update/toggleVisibility', {
        settingID: settings[0]!._id,
      })) as {
        isVisible: boolean;
      };
      expect(toggled.isVisible, `round ${round}`).toBe(round === 2);
    }

    // a new user registers and opens the e-mail's link (the web app's verify screen calls it)
    const newcomer = `newcomer@${DOMAIN}`;
    await expectAnswer('POST /api/auth/register', undefined, '/api/auth/register', {
      name: 'Ann Broker',
      email: newcomer,
      password: 'secret1',
      repeatPassword: 'secret1',
      country: 'AM',
      phone: '+37491234567',
    });
    await expectAnswer('GET /api/user/verify/:hash', undefined, `/api/user/verify/${await tokenFromMail(newcomer, 'emailVerify')}`);

    // the web app's and the extension's reads, by role
    await expectAnswer('GET /api/auth/sessions', manager, '/api/auth/sessions');
    await expectAnswer('GET /api/user/filterOverrides', manager, '/api/user/filterOverrides');
    const team = (await expectAnswer('GET /api/user', manager, '/api/user')) as { _id: string }[];
    expect(team.length).toBeGreaterThan(0);
    await expectAnswer('GET /api/user/directorsList', admin, '/api/user/directorsList');
    await expectAnswer('GET /api/user/marketingUsers', admin, '/api/user/marketingUsers');
    await expectAnswer('GET /api/user/manager', agent, '/api/user/manager');
    const managers = (await expectAnswer('GET /api/user/directorChildManagers', director, '/api/user/directorChildManagers')) as { _id: string }[];
    expect(managers.map((m) => m._id)).toContain(managerId);
    await expectAnswer('GET /api/user/allTeam', manager, '/api/user/allTeam');
    await expectAnswer('GET /api/user/childUsers/:id', director, `/api/user/childUsers/${managerId}`);
    await expectAnswer('POST /api/user/managerChildUsers', director, '/api/user/managerChildUsers', { parentId: managerId, includeParent: true });
    await expectAnswer('POST /api/user/userByEmail', marketing, '/api/user/userByEmail', { email: `manager1@${DOMAIN}` });
    await expectAnswer('GET /api/user/:id', manager, `/api/user/${managerId}`);
    await expectAnswer('GET /api/user/page', admin, '/api/user/page?limit=2&sort=name&dir=desc');
    await expectAnswer('GET /api/user/page', director, '/api/user/page');
    await expectAnswer('POST /api/analytics/loginHistory', admin, '/api/analytics/loginHistory', {
      dateFrom: new Date(Date.now() - 7 * DAY_MS).toISOString(),
      timezoneOffset: 0,
    });
    await expectAnswer('POST /api/analytics/loginHistory/page', admin, '/api/analytics/loginHistory/page', {
      dateFrom: new Date(Date.now() - 7 * DAY_MS).toISOString(),
      limit: 1,
    });
    await expectAnswer('GET /api/extension/health', admin, '/api/extension/health');

    await expectAnswer('GET /api/broker/minified', agent, '/api/broker/minified');
    await expectAnswer('GET /api/broker/allNames', manager, '/api/broker/allNames');
    await expectAnswer('GET /api/broker/teamUsers', manager, '/api/broker/teamUsers');
    await expectAnswer('GET /api/broker/queue/count', manager, '/api/broker/queue/count');
    await expectAnswer('GET /api/broker/queue', manager, '/api/broker/queue');
    await expectAnswer('POST /api/broker/import/preview', manager, '/api/broker/import/preview', {
      rows: [{ name: 'Echo Global Logistics', type: '', comment: '' }],
    });
    await expectAnswer('GET /api/broker/:filterId/history', manager, `/api/broker/${filterId}/history`);
    const notes = (await expectAnswer('GET /api/broker/:filterId/notes', manager, `/api/broker/${filterId}/notes`)) as unknown[];
    expect(notes).toHaveLength(1);
    await expectAnswer('POST /api/vetting/filters', manager, '/api/vetting/filters', { filterIds: filters.slice(0, 5).map((f) => f._id) });

    const range = { dateFrom: new Date(Date.now() - 20 * DAY_MS).toISOString(), dateTo: new Date(Date.now() + DAY_MS).toISOString() };
    const rows = (await expectAnswer('POST /api/callHistory/getHistory', manager, '/api/callHistory/getHistory', range)) as unknown[];
    expect(rows.length).toBeGreaterThan(0);
    const page = (await expectAnswer('POST /api/callHistory/page', manager, '/api/callHistory/page', { ...range, timeZone: 'UTC' })) as { rows: unknown[] };
    expect(page.rows.length).toBeGreaterThan(0);
    await expectAnswer('POST /api/callHistory/page', manager, '/api/callHistory/page', { ...range, timeZone: 'UTC', summary: false });
    await expectAnswer('GET /api/callHistory/archive', manager, '/api/callHistory/archive');
    expect(((await expectAnswer('GET /api/activeLoad/my', agent, '/api/activeLoad/my')) as unknown[]).length).toBeGreaterThan(0);
    await expectAnswer('POST /api/activeLoad/team', manager, '/api/activeLoad/team');

    const links = (await expectAnswer('GET /api/link', manager, '/api/link')) as { _id: string }[];
    expect(links.length).toBeGreaterThan(0);
    await expectAnswer('GET /api/link', admin, '/api/link?all=1');
    await expectAnswer('GET /api/link/page', admin, '/api/link/page?all=1&limit=1');
    await expectAnswer('GET /api/link/page', manager, '/api/link/page');
    await expectAnswer('GET /api/link/:id', manager, `/api/link/${links[0]!._id}`);
    expect(((await expectAnswer('GET /api/link/keys', manager, '/api/link/keys')) as unknown[]).length).toBe(1);

    await expectAnswer('GET /api/mail/failed', admin, '/api/mail/failed');
    await expectAnswer('GET /api/mail/failed/page', admin, '/api/mail/failed/page');
    // the shards (admin): a company of its own is moved, not the seeded one the calls read
    await expectAnswer('GET /api/shards', admin, '/api/shards');
    const mover = await createUser('manager');
    await expectAnswer('GET /api/shards/:shard/companies', admin, `/api/shards/${mover.shard}/companies`);
    const to = ['SHARD_1', 'SHARD_2', 'SHARD_3'].find((s) => s !== mover.shard)!;
    const move = (await expectAnswer('POST /api/shards/moves', admin, '/api/shards/moves', { companyId: mover.companyId, shard: to })) as { id: string };
    await expectAnswer('GET /api/shards/moves/:id', admin, `/api/shards/moves/${move.id}`);
    await expectAnswer('GET /api/mcSettings/parentMcSettings', agent, '/api/mcSettings/parentMcSettings');
    await expectAnswer('GET /api/mcSettings/allMcSettings', manager, '/api/mcSettings/allMcSettings');
    await expectAnswer('POST /api/mcSettings/byParentId', director, '/api/mcSettings/byParentId', { parentId: managerId });
    await expectAnswer('GET /api/team/settings', manager, '/api/team/settings');
    const contacts = (await expectAnswer('GET /api/team/contacts', agent, '/api/team/contacts')) as { contacts: unknown[] };
    expect(contacts.contacts.length).toBeGreaterThan(0);

    await expectAnswer('GET /api/payment/monthlyprice', manager, '/api/payment/monthlyprice');
    const payments = (await expectAnswer('GET /api/payment/paymentHistory', manager, '/api/payment/paymentHistory')) as {
      _id: string;
      isPaymentConfirmed: boolean;
    }[];
    const confirmed = payments.find((p) => p.isPaymentConfirmed);
    expect(confirmed, 'the seed makes a confirmed payment').toBeDefined();
    await expectAnswer('GET /api/payment/receipt/:id', manager, `/api/payment/receipt/${confirmed!._id}`);
    await expectAnswer('GET /api/payment/paymentHistory', admin, '/api/payment/paymentHistory');
    await expectAnswer('GET /api/payment/summary', admin, '/api/payment/summary');
    await expectAnswer('GET /api/payment/priceSchedule', admin, '/api/payment/priceSchedule');
    await expectAnswer('GET /api/subscription/status', agent, '/api/subscription/status');
    await expectAnswer('POST /api/subscription/childUsersSubscriptions', manager, '/api/subscription/childUsersSubscriptions', {
      parentId: managerId,
      includeParent: true,
    });
    for (const list of ['', '/freeAndPublic', '/usedAndPublic', '/finishedAndPublic'] as const) {
      await expectAnswer(`GET /api/promocode${list}`, marketing, `/api/promocode${list}`);
    }
    await expectAnswer('GET /api/promocode/types', marketing, '/api/promocode/types');

    await expectAnswer('GET /api/health', undefined, '/api/health');
    await expectAnswer('GET /api/promocode/effectTypes', marketing, '/api/promocode/effectTypes');

    // the writes whose answers the screens read, each made as its screen makes it
    const types = (await expectAnswer('GET /api/user/filterOverrides', manager, '/api/user/filterOverrides')) as { _id: string; color: string }[];
    await expectAnswer('PUT /api/user/update/filterOverride', manager, '/api/user/update/filterOverride', {
      newFilters: [{ _id: types[0]!._id, typeName: 'Pays late', color: types[0]!.color }],
    });
    const made = (await expectAnswer('POST /api/user/register', manager, '/api/user/register', {
      email: `added@${DOMAIN}`,
      password: 'secret1',
      name: 'Added Agent',
    })) as { user: { _id: string } };
    const addedId = made.user._id;
    await expectAnswer('PUT /api/user/resendEmailVerification/:id', manager, `/api/user/resendEmailVerification/${addedId}`);
    await expectAnswer('PUT /api/user/update/reminders/:id', manager, `/api/user/update/reminders/${managerId}`, { remindersEnabled: false });
    await expectAnswer('PUT /api/user/update/language/:id', manager, `/api/user/update/language/${managerId}`, { language: 'hy' });
    await expectAnswer('PUT /api/user/update/trialPeriodState/:id', admin, `/api/user/update/trialPeriodState/${addedId}`, { isActive: true });
    await expectAnswer('PUT /api/user/update/trialPeriodEndDate/:id', admin, `/api/user/update/trialPeriodEndDate/${addedId}`, {
      newDate: new Date(Date.now() + 10 * DAY_MS).toISOString(),
    });
    await expectAnswer('PUT /api/user/update/parent/:id', admin, `/api/user/update/parent/${addedId}`, { newParent: managerId });
    await expectAnswer('PUT /api/user/update/userType/:id', admin, `/api/user/update/userType/${addedId}`, { userNewType: 'agent', newParent: managerId });
    const renamed = (await expectAnswer('PUT /api/user/update/email/:id', admin, `/api/user/update/email/${addedId}`, {
      newEmail: `moved@${DOMAIN}`,
    })) as { accessToken?: string };
    expect(renamed.accessToken, "another user's change gives the admin no new token").toBeUndefined();
    await expectAnswer('PUT /api/user/update/password/:id', admin, `/api/user/update/password/${addedId}`, { newPassword: 'secret2' });
    await expectAnswer('DELETE /api/user', manager, '/api/user', { userId: addedId });

    const mc = (await expectAnswer('POST /api/mcSettings/add', manager, '/api/mcSettings/add', { name: 'Swift Haul (MC 104233)', lines: [6] })) as {
      mcSetting: { _id: string };
    };
    await expectAnswer('POST /api/mcSettings/update/details', manager, '/api/mcSettings/update/details', {
      mcSettings: [{ _id: mc.mcSetting._id, emailSubject: 'Load {origin}', emailContent: 'Is it open?' }],
    });
    await expectAnswer('DELETE /api/mcSettings', manager, '/api/mcSettings', { settingID: mc.mcSetting._id });
    const mine = (await call('GET', '/api/activeLoad/my', { token: agent })).body as { _id: string }[];
    await expectAnswer('POST /api/activeLoad/delete', agent, '/api/activeLoad/delete', { id: mine[0]!._id });

    const order = (await expectAnswer('POST /api/payment/generateLink', manager, '/api/payment/generateLink', {
      amount: 1,
      userToBePaidId: null,
      paymentType: 'idram',
    })) as { orderId: string };
    await expectAnswer('POST /api/payment/get_arca_status', manager, '/api/payment/get_arca_status', { orderId: order.orderId });
    const agents = team.filter((u) => u._id !== managerId).slice(0, 1);
    await expectAnswer('POST /api/payment/generateTeamLink', manager, '/api/payment/generateTeamLink', {
      userIds: agents.map((u) => u._id),
      amount: 1,
      paymentType: 'idram',
    });
    await expectAnswer('POST /api/payment/refund', admin, '/api/payment/refund', {
      paymentId: confirmed!._id,
      amount: 1,
      reason: 'A goodwill refund',
    });

    const codes = (await expectAnswer('POST /api/promocode/createRandomPublic', marketing, '/api/promocode/createRandomPublic', {
      effectType: 'freeMonths',
      effectValue: 1,
      generateAmount: 2,
    })) as { codes: { _id: string }[] };
    await expectAnswer('POST /api/promocode/assignUser', marketing, '/api/promocode/assignUser', { id: codes.codes[0]!._id, email: `manager1@${DOMAIN}` });
    await expectAnswer('POST /api/promocode/removeUserAssignment', marketing, '/api/promocode/removeUserAssignment', { id: codes.codes[0]!._id });
    await expectAnswer('POST /api/promocode/updatePromoListFreeStatus', marketing, '/api/promocode/updatePromoListFreeStatus', {
      list: [{ _id: codes.codes[1]!._id, isFree: false }],
    });

    // every GET with a response schema was called
    const gets = answeringCalls().filter((k) => k.startsWith('GET '));
    expect(gets.filter((k) => !checked.has(k))).toEqual([]);
  });
});
