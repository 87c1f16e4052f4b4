import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { handleError } from './app';
import type { AppEnv } from './env';
import { ERROR_CODES, ERROR_TABLES, MESSAGE_CODES } from './error-codes';
import { FILTER_MESSAGES } from './filters/filters.messages';
import { GENERAL_MESSAGES } from './lib/common-messages';
import { ApiError, apiError } from './lib/errors';
import { secrets } from './lib/secrets';
import { LINES_MESSAGES } from './mc-settings/mc-settings.messages';
import { addMc, filterSave, teamWithMcs } from './test/filters';
import { call, createTeam, createUser, errorBody } from './test/helpers';

/**
 * The API's error codes (docs/decisions/0023-languages.md, "Error codes"): a refused call answers
 * its message exactly as before, with the message's stable code and the values it names beside it.
 */
describe('error codes in the answers', () => {
  it('a Lines save refused for a used line answers the code and the line and MC, the message unchanged', async () => {
    const { manager } = await createTeam();
    const acme = await addMc(manager, { name: 'Acme Trucking', lines: [1] });
    // a name that reads like another message: the values still come back whole
    const odd = await addMc(manager, { name: 'Line 2 is listed twice', lines: [2] });
    const save = (mcSettings: unknown[]) => call('POST', '/api/mcSettings/update/details', { token: manager.token, body: { mcSettings } });
    const taken = await save([{ _id: odd, lines: [1] }]);
    expect([taken.status, taken.body]).toEqual([
      409,
      { message: 'Line 1 is already used by Acme Trucking', code: 'lines.lineTaken', params: { line: 1, name: 'Acme Trucking' } },
    ]);
    const back = await save([{ _id: acme, lines: [2] }]);
    expect(back.body).toEqual({
      message: 'Line 2 is already used by Line 2 is listed twice',
      code: 'lines.lineTaken',
      params: { line: 2, name: 'Line 2 is listed twice' },
    });
    // nothing was saved
    const mine = (await call('GET', '/api/mcSettings', { token: manager.token })).body as { name: string; lines: number[] }[];
    expect(mine.map((m) => [m.name, m.lines])).toEqual([
      ['Acme Trucking', [1]],
      ['Line 2 is listed twice', [2]],
    ]);
  });

  it("a schema's message with a value (the team's lines) answers its code and the value", async () => {
    const { manager } = await createTeam();
    const twice = await call('PUT', '/api/team/settings', {
      token: manager.token,
      body: {
        dialer: 'tel',
        lines: [
          { line: 4, callerNumber: '+13125550101' },
          { line: 4, callerNumber: '+13125550102' },
        ],
      },
    });
    expect([twice.status, twice.body]).toEqual([400, { message: 'Line 4 is listed twice', code: 'lines.lineTwice', params: { line: 4 } }]);
    const label = await call('PUT', '/api/team/settings', {
      token: manager.token,
      body: { dialer: 'tel', lines: [{ line: 3, callerNumber: '+13125550101', label: 'x'.repeat(41) }] },
    });
    expect(label.body).toEqual({ message: 'Line 3: the label is at most 40 characters', code: 'lines.label', params: { line: 3, max: 40 } });
  });

  it('a duplicate promo code answers its code with the message unchanged', async () => {
    const admin = await createUser('admin');
    const name = `codes-${Date.now().toString(36)}`;
    const body = { name, effectType: 'discountPercent', effectValue: 10, maxUses: 5 };
    expect((await call('POST', '/api/promocode/create', { token: admin.token, body })).status).toBe(200);
    const again = await call('POST', '/api/promocode/create', { token: admin.token, body });
    expect([again.status, again.body]).toEqual([409, { message: 'A promo code with this name already exists', code: 'promo.nameTaken' }]);
    const badName = await call('POST', '/api/promocode/create', { token: admin.token, body: { ...body, name: 'ab' } });
    expect(badName.body).toEqual({ message: 'A promo code name is 4 to 32 letters, digits or -', code: 'promo.name' });
  });

  it("a link's refusals answer their table's codes, the boolean check too; a promo form problem its own", async () => {
    const { manager } = await createTeam();
    const created = await call('POST', '/api/link/generate', { token: manager.token, body: { from: 'https://example.com/codes' } });
    expect(created.status).toBe(200);
    const edit = (body: unknown) => call('PUT', `/api/link/${created.body._id}`, { token: manager.token, body });
    expect((await edit({ isDisabled: 'yes' })).body).toEqual({ message: 'isDisabled must be true or false', code: 'link.isDisabled' });
    expect((await edit({ maxClicks: 0 })).body).toEqual({ message: 'A click limit is a whole number from 1 to 1000000000', code: 'link.maxClicks' });
    const admin = await createUser('admin');
    const percent = await call('POST', '/api/promocode/create', {
      token: admin.token,
      body: { name: `PCT-${Date.now().toString(36).toUpperCase()}`, effectType: 'discountPercent', effectValue: 101 },
    });
    expect([percent.status, percent.body]).toEqual([400, { message: 'A discount is 1 to 100 percent', code: 'promo.percent' }]);
  });

  it("payments answer their own table's codes: a team order's boolean, a price change's date", async () => {
    const { manager, agents } = await createTeam();
    const order = await call('POST', '/api/payment/generateTeamLink', {
      token: manager.token,
      body: { userIds: [agents[0].id], amount: 1, align: 'yes' },
    });
    expect([order.status, order.body]).toEqual([400, { message: 'align must be true or false', code: 'payment.align' }]);
    const admin = await createUser('admin');
    const price = await call('POST', '/api/payment/priceSchedule', { token: admin.token, body: { price: 6000, effectiveFrom: 'next monday' } });
    expect([price.status, price.body]).toEqual([400, { message: 'Choose a valid date', code: 'payment.priceDate' }]);
  });

  it('a duplicate filter answers its code and the name of the filter that has it', async () => {
    const t = await teamWithMcs();
    const save = (name: string) => call('POST', '/api/broker/add', { token: t.manager.token, body: filterSave(t, { name }) });
    expect((await save('Northwind Freight')).status).toBe(200);
    const again = await save('northwind freight');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      message: 'A filter for Northwind Freight already exists',
      code: 'filter.duplicate',
      params: { name: 'Northwind Freight' },
    });
  });

  it('a shared message answers one code wherever it comes from', async () => {
    const { manager } = await createTeam();
    const lookup = await call('GET', '/api/user/nobody-here', { token: manager.token });
    expect(lookup.body).toEqual({ message: 'User not found', code: 'common.userNotFound' });
    const refused = await call('POST', '/api/promocode/create', { token: manager.token, body: {} });
    expect([refused.status, refused.body]).toEqual([403, { message: 'You are not allowed to do this', code: 'notAllowed' }]);
  });
});

describe('a code comes from the entry thrown, never from the text', () => {
  it("a schema's check answers its own area's code where two areas' English is the same", async () => {
    expect(LINES_MESSAGES.nameEmpty.text).toBe(FILTER_MESSAGES.nameEmpty.text);
    const t = await teamWithMcs();
    const mc = await call('POST', '/api/mcSettings/add/', { token: t.manager.token, body: { name: '  ', lines: [3] } });
    expect([mc.status, mc.body]).toEqual([400, errorBody(LINES_MESSAGES.nameEmpty)]);
    const filter = await call('POST', '/api/broker/add', { token: t.manager.token, body: filterSave(t, { name: '  ' }) });
    expect([filter.status, filter.body]).toEqual([400, errorBody(FILTER_MESSAGES.nameEmpty)]);
  });

  it("a refusal thrown without an entry answers its text alone, even a table's words", async () => {
    const thrown = {
      uncoded: new ApiError(403, GENERAL_MESSAGES.notAllowed.text),
      hono: new HTTPException(404, { message: GENERAL_MESSAGES.notFound.text }),
      template: new ApiError(409, 'Line 3 is already used by Acme Trucking'),
      entry: apiError(LINES_MESSAGES.lineTaken, { line: 3, name: 'Acme Trucking' }),
      empty: new HTTPException(502),
    };
    const probe = new Hono<AppEnv>().get('/:kind', (c) => {
      throw thrown[c.req.param('kind') as keyof typeof thrown];
    });
    probe.onError(handleError);
    const answer = async (kind: keyof typeof thrown) => {
      const res = await probe.request(`/${kind}`);
      return [res.status, await res.json()];
    };
    expect(await answer('uncoded')).toEqual([403, { message: 'You are not allowed to do this' }]);
    expect(await answer('hono')).toEqual([404, { message: 'Not found' }]);
    expect(await answer('template')).toEqual([409, { message: 'Line 3 is already used by Acme Trucking' }]);
    expect(await answer('entry')).toEqual([409, errorBody(LINES_MESSAGES.lineTaken, { line: 3, name: 'Acme Trucking' })]);
    expect(await answer('empty')).toEqual([502, errorBody(GENERAL_MESSAGES.somethingWrong)]);
  });
});

describe('the app-wide refusals carry their code', () => {
  it('a path outside /api that nothing serves answers Not found with its code', async () => {
    const res = await call('GET', '/no-such-page');
    expect([res.status, res.body]).toEqual([404, errorBody(GENERAL_MESSAGES.notFound)]);
  });

  it('a deployment without its token key answers 500 with the code, not a bare text', async () => {
    const probe = new Hono<AppEnv>().get('/', (c) => c.json(secrets({ ...c.env, JWT_SECRET: '' })));
    probe.onError(handleError);
    const res = await probe.request('/', {}, {});
    expect([res.status, await res.json()]).toEqual([500, errorBody(GENERAL_MESSAGES.notConfigured)]);
  });
});

describe('the code table', () => {
  it("keeps codes apart from the login page's, and two areas' equal texts each keep their own code", () => {
    for (const code of ERROR_CODES.keys()) {
      expect(code).toMatch(/^[a-z]+\.[A-Za-z]+$/);
      expect(code.split('.')[0]! in ERROR_TABLES).toBe(true);
    }
    for (const code of Object.keys(MESSAGE_CODES)) expect(code).not.toContain('.');
    expect([ERROR_CODES.get('lines.nameEmpty'), ERROR_CODES.get('filter.nameEmpty')]).toEqual(['Name is empty', 'Name is empty']);
  });
});
