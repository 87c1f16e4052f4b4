import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { app } from '../app';
import { promoCodes, promoUses, users } from '../db/schema';
import { extendByMonths } from '../lib/subscription';
import { call, control, countRows, createUser, errorBody, getUser, type TestUser, testEnv } from '../test/helpers';
import { PROMO_MESSAGES } from './promo.messages';
import { MAX_GENERATE, type PromoDto } from './promo.schema';
import { CODE_ALPHABET } from './promo.service';

const DAY = 86_400_000;
type Effect = { effectType: 'discountPercent' | 'freeMonths'; effectValue: number };

async function generate(who: TestUser, body: Effect & { generateAmount: number }) {
  const res = await call('POST', '/api/promocode/createRandomPublic', { token: who.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body.codes as PromoDto[];
}
let named = 0;
async function createNamed(who: TestUser, body: Effect & { maxUses?: number; isPublic?: boolean }) {
  named += 1;
  const res = await call('POST', '/api/promocode/create', { token: who.token, body: { name: `T${named}-${Date.now().toString(36)}`, ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body as PromoDto;
}
const use = (who: TestUser, promoName: string) => call('POST', '/api/promocode/usePromoCode', { token: who.token, body: { promoName } });
const check = (who: TestUser, name: string) => call('POST', '/api/promocode/checkPromoCode', { token: who.token, body: { name } });
const ids = async (who: TestUser, path: string) => ((await call('GET', `/api/promocode/${path}`, { token: who.token })).body as PromoDto[]).map((p) => p._id);
const row = async (id: string) => (await control.select().from(promoCodes).where(eq(promoCodes.id, id)))[0];
const usesOf = (id: string) => control.select().from(promoUses).where(eq(promoUses.promoId, id));
const endOf = async (user: TestUser) => (await getUser(user.id))!.subscriptionEndDate;

describe('creating codes', () => {
  it('marketing generates 50 unique unguessable single-use codes that start free', async () => {
    const marketing = await createUser('marketing');
    const res = await call('POST', '/api/promocode/createRandomPublic', {
      token: marketing.token,
      body: { effectType: 'discountPercent', effectValue: 20, generateAmount: 50 },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('50 promo codes created');
    const codes = res.body.codes as PromoDto[];
    expect(codes).toHaveLength(50);
    expect(new Set(codes.map((c) => c.name)).size).toBe(50);
    for (const c of codes) {
      expect(c.name).toMatch(new RegExp(`^[${CODE_ALPHABET}]{10}$`));
      expect(c).toMatchObject({
        effectType: 'discountPercent',
        effectValue: 20,
        status: 'free',
        isFree: true,
        isPublic: true,
        maxUses: 1,
        usedCount: 0,
        assignedUser: null,
        usedUsersList: [],
      });
    }
    const free = await ids(marketing, 'freeAndPublic');
    const all = await ids(marketing, '');
    const allNoSlash = ((await call('GET', '/api/promocode', { token: marketing.token })).body as PromoDto[]).map((p) => p._id);
    for (const c of codes) {
      expect(free).toContain(c._id);
      expect(all).toContain(c._id);
      expect(allNoSlash).toContain(c._id);
    }
    const stored = await control.select().from(promoCodes).where(eq(promoCodes.createdBy, marketing.id));
    expect(stored).toHaveLength(50);
  });

  it('generates up to 500 at once, in one request', async () => {
    const admin = await createUser('admin');
    const codes = await generate(admin, { effectType: 'freeMonths', effectValue: 1, generateAmount: 500 });
    expect(new Set(codes.map((c) => c.name)).size).toBe(500);
    const over = await call('POST', '/api/promocode/createRandomPublic', {
      token: admin.token,
      body: { effectType: 'freeMonths', effectValue: 1, generateAmount: 501 },
    });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('The amount must be a whole number from 1 to 500');
  });

  it('validates the type, value and amount with the messages, and writes nothing', async () => {
    const admin = await createUser('admin');
    const before = await countRows('promo_codes');
    const cases: [object, string][] = [
      [{ effectValue: 1, generateAmount: 1 }, 'Select the promo type'],
      [{ effectType: '', effectValue: 1, generateAmount: 1 }, 'Select the promo type'],
      [{ effectType: 'cashback', effectValue: 1, generateAmount: 1 }, 'Select the promo type'],
      [{ effectType: 'discountPercent', effectValue: 0, generateAmount: 1 }, 'The effect value must be a whole number of at least 1'],
      [{ effectType: 'discountPercent', effectValue: '5', generateAmount: 1 }, 'The effect value must be a whole number of at least 1'],
      [{ effectType: 'discountPercent', effectValue: 2.5, generateAmount: 1 }, 'The effect value must be a whole number of at least 1'],
      [{ effectType: 'discountPercent', effectValue: 101, generateAmount: 1 }, 'A discount is 1 to 100 percent'],
      [{ effectType: 'freeMonths', effectValue: 25, generateAmount: 1 }, 'Free months are 1 to 24'],
      [{ effectType: 'freeMonths', effectValue: 1, generateAmount: 0 }, 'The amount must be a whole number from 1 to 500'],
      [{ effectType: 'freeMonths', effectValue: 1, generateAmount: 'x' }, 'The amount must be a whole number from 1 to 500'],
      [{ effectType: 'freeMonths', effectValue: 1 }, 'The amount must be a whole number from 1 to 500'],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/promocode/createRandomPublic', { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    expect(await countRows('promo_codes')).toBe(before);
  });

  it('creates named multi-use codes: upper-cased, unique, validated', async () => {
    const admin = await createUser('admin');
    const name = `spring-${Date.now().toString(36)}`;
    const res = await call('POST', '/api/promocode/create', {
      token: admin.token,
      body: { name: ` ${name} `, effectType: 'discountPercent', effectValue: 15, maxUses: 100 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: name.toUpperCase(), maxUses: 100, usedCount: 0, isPublic: true, status: 'free' });
    const again = await call('POST', '/api/promocode/create', {
      token: admin.token,
      body: { name: name.toUpperCase(), effectType: 'freeMonths', effectValue: 1 },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A promo code with this name already exists');
    for (const bad of ['abc', 'has space', 'x'.repeat(33), 'ünï-code']) {
      const r = await call('POST', '/api/promocode/create', { token: admin.token, body: { name: bad, effectType: 'freeMonths', effectValue: 1 } });
      expect(r.status, bad).toBe(400);
      expect(r.body.message).toBe('A promo code name is 4 to 32 letters, digits or -');
    }
    const zeroUses = await call('POST', '/api/promocode/create', {
      token: admin.token,
      body: { name: 'ZERO-USES', effectType: 'freeMonths', effectValue: 1, maxUses: 0 },
    });
    expect(zeroUses.body.message).toBe('Uses must be a whole number from 1 to 100000');
    expect((await call('POST', '/api/promocode/create', { token: admin.token, body: { name: 'NOTYPE1', effectValue: 1 } })).body.message).toBe(
      'Select the promo type',
    );
  });

  it('answers the effect types for the type select', async () => {
    const marketing = await createUser('marketing');
    expect((await call('GET', '/api/promocode/types', { token: marketing.token })).body).toEqual(['discountPercent', 'freeMonths']);
    const effect = await call('GET', '/api/promocode/effectTypes', { token: marketing.token });
    expect(effect.body.map((e: { value: string }) => e.value)).toEqual(['discountPercent', 'freeMonths']);
  });
});

describe('who may call what', () => {
  const manageCalls: [string, string, object?][] = [
    ['GET', '/api/promocode/'],
    ['GET', '/api/promocode/freeAndPublic'],
    ['GET', '/api/promocode/usedAndPublic'],
    ['GET', '/api/promocode/finishedAndPublic'],
    ['GET', '/api/promocode/types'],
    ['GET', '/api/promocode/effectTypes'],
    ['POST', '/api/promocode/createRandomPublic', { effectType: 'freeMonths', effectValue: 1, generateAmount: 1 }],
    ['POST', '/api/promocode/create', { name: 'NOPE-NOPE', effectType: 'freeMonths', effectValue: 1 }],
    ['POST', '/api/promocode/delete', { id: 'x' }],
    ['POST', '/api/promocode/assignUser', { id: 'x', email: 'a@b.c' }],
    ['POST', '/api/promocode/removeUserAssignment', { id: 'x' }],
    ['POST', '/api/promocode/updatePromoListFreeStatus', { list: [{ _id: 'x', isFree: false }] }],
  ];

  it('only marketing and the admin manage codes; nothing changes for the others', async () => {
    const before = await countRows('promo_codes');
    for (const role of ['manager', 'agent', 'director'] as const) {
      for (const subscriptionDays of [30, -1]) {
        const user = await createUser(role, { subscriptionDays });
        for (const [method, path, body] of manageCalls) {
          const res = await call(method, path, { token: user.token, body });
          expect(res.status, `${role} ${method} ${path}`).toBe(403);
          expect(res.body.message).toBe('You are not allowed to do this');
        }
      }
    }
    for (const [method, path, body] of manageCalls) expect((await call(method, path, { body })).status, `${method} ${path}`).toBe(401);
    expect(await countRows('promo_codes')).toBe(before);
  });

  it('any paying user checks and uses codes, even with an expired subscription; marketing does not', async () => {
    const marketing = await createUser('marketing');
    const codes = await generate(marketing, { effectType: 'freeMonths', effectValue: 1, generateAmount: 5 });
    let i = 0;
    for (const role of ['admin', 'director', 'manager', 'agent'] as const) {
      const user = await createUser(role, { subscriptionDays: role === 'admin' ? 30 : -3 });
      expect((await check(user, codes[i]!.name)).status, role).toBe(200);
      expect((await use(user, codes[i]!.name)).status, role).toBe(200);
      i += 1;
    }
    expect((await check(marketing, codes[4]!.name)).status).toBe(403);
    expect((await use(marketing, codes[4]!.name)).status).toBe(403);
    expect((await call('POST', '/api/promocode/checkPromoCode', { body: { name: codes[4]!.name } })).status).toBe(401);
    expect((await row(codes[4]!._id))!.usedCount).toBe(0);
  });
});

describe('using codes', () => {
  it('free months extend the subscription at once; the code moves from free to finished', async () => {
    const marketing = await createUser('marketing');
    const [code] = await generate(marketing, { effectType: 'freeMonths', effectValue: 2, generateAmount: 1 });
    const user = await createUser('manager', { subscriptionDays: 10 });
    const endBefore = (await endOf(user))!;

    const checked = await check(user, ` ${code!.name.toLowerCase()} `);
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ _id: code!._id, name: code!.name, effectType: 'freeMonths', effectValue: 2, usesLeft: 1 });
    expect((await row(code!._id))!.usedCount).toBe(0); // checking uses nothing

    const used = await use(user, code!.name);
    expect(used.status, used.text).toBe(200);
    expect(used.body.message).toBe('Promo code applied: 2 free months');
    const endAfter = (await endOf(user))!;
    expect(endAfter.getTime()).toBe(extendByMonths(endBefore, 2).getTime());
    expect(used.body.subscriptionEndDate).toBe(endAfter.toISOString());

    expect(await row(code!._id)).toMatchObject({ usedCount: 1, isFree: false });
    const uses = await usesOf(code!._id);
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ userId: user.id, orderId: null });
    expect(await ids(marketing, 'freeAndPublic')).not.toContain(code!._id);
    expect(await ids(marketing, 'usedAndPublic')).not.toContain(code!._id);
    const finished = ((await call('GET', '/api/promocode/finishedAndPublic', { token: marketing.token })).body as PromoDto[]).find((p) => p._id === code!._id)!;
    expect(finished.status).toBe('finished');
    expect(finished.usedUsersList).toHaveLength(1);
    expect(finished.usedUsersList[0]!.user).toEqual({ _id: user.id, email: user.email, name: user.name });

    // the same user again; someone else after the only use is taken
    const twice = await use(user, code!.name);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('Promo code is already used');
    expect((await check(user, code!.name)).body.message).toBe('Promo code is already used');
    const other = await createUser('agent');
    const late = await use(other, code!.name);
    expect(late.status).toBe(400);
    expect(late.body.message).toBe('Promo code is finished');
    expect((await check(other, code!.name)).body.message).toBe('Promo code is finished');
    expect((await endOf(user))!.getTime()).toBe(endAfter.getTime());
    expect(await usesOf(code!._id)).toHaveLength(1);
  });

  it('free months on an expired subscription count from today', async () => {
    const admin = await createUser('admin');
    const code = await createNamed(admin, { effectType: 'freeMonths', effectValue: 1 });
    const user = await createUser('agent', { subscriptionDays: -40 });
    const before = Date.now();
    expect((await use(user, code.name)).status).toBe(200);
    const end = (await endOf(user))!.getTime();
    expect(end).toBeGreaterThanOrEqual(extendByMonths(null, 1, new Date(before)).getTime());
    expect(end).toBeLessThanOrEqual(extendByMonths(null, 1, new Date()).getTime());
  });

  it('an unknown code is not found, and checking it changes nothing', async () => {
    const user = await createUser('manager');
    for (const name of ['NOSUCHCODE', 'x']) {
      const res = await check(user, name);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Promo code not found');
      expect((await use(user, name)).body.message).toBe('Promo code not found');
    }
    expect((await check(user, '   ')).body.message).toBe('Promo code not found');
    expect((await call('POST', '/api/promocode/usePromoCode', { token: user.token, body: {} })).status).toBe(400);
  });

  it('a discount waits for the next payment, shows in its price, and is one at a time', async () => {
    const admin = await createUser('admin');
    const multi = await createNamed(admin, { effectType: 'discountPercent', effectValue: 30, maxUses: 10 });
    const other = await createNamed(admin, { effectType: 'discountPercent', effectValue: 10 });
    const months = await createNamed(admin, { effectType: 'freeMonths', effectValue: 1 });
    const user = await createUser('manager');
    const endBefore = await endOf(user);

    const used = await use(user, multi.name);
    expect(used.status, used.text).toBe(200);
    expect(used.body).toMatchObject({ message: 'Promo code applied: 30% off the next payment', discountPercent: 30, subscriptionEndDate: null });
    expect((await endOf(user))!.getTime()).toBe(endBefore!.getTime());
    const pending = await control
      .select()
      .from(promoUses)
      .where(and(eq(promoUses.userId, user.id), isNull(promoUses.orderId)));
    expect(pending).toHaveLength(1);
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body).toMatchObject({ discountPercent: 30, promoName: multi.name });
    // a multi-use code with uses left stays in the used list
    expect(await ids(admin, 'usedAndPublic')).toContain(multi._id);

    // a second discount waits until the first is spent; free months still apply
    for (const res of [await check(user, other.name), await use(user, other.name)]) {
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('You already have a promo discount waiting for your next payment');
    }
    expect((await use(user, months.name)).status).toBe(200);
    // the payment spends it (the payments area does this in its confirmation batch)
    await control.update(promoUses).set({ orderId: 'order-1' }).where(eq(promoUses.id, pending[0]!.id));
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body).toMatchObject({ discountPercent: 0 });
    expect((await use(user, other.name)).status).toBe(200);
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body).toMatchObject({ discountPercent: 10, promoName: other.name });
    // a spent discount still counts as used by that user
    expect((await use(user, multi.name)).body.message).toBe('Promo code is already used');
  });

  it('marketing hands codes out by id or name; they move between the free and used lists', async () => {
    const marketing = await createUser('marketing');
    const [a, b, c] = await generate(marketing, { effectType: 'discountPercent', effectValue: 5, generateAmount: 3 });
    const res = await call('POST', '/api/promocode/updatePromoListFreeStatus', {
      token: marketing.token,
      body: {
        list: [
          { _id: a!._id, isFree: false },
          { name: b!.name.toLowerCase(), isFree: false },
          { _id: 'no-such-id', isFree: false },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: '2 promo codes updated', updated: 2 });
    const free = await ids(marketing, 'freeAndPublic');
    const used = await ids(marketing, 'usedAndPublic');
    expect(free).toContain(c!._id);
    expect(free).not.toContain(a!._id);
    expect(used).toEqual(expect.arrayContaining([a!._id, b!._id]));
    expect(used).not.toContain(c!._id);
    // and back
    expect(
      (await call('POST', '/api/promocode/updatePromoListFreeStatus', { token: marketing.token, body: { list: [{ _id: a!._id, isFree: true }] } })).body
        .updated,
    ).toBe(1);
    expect(await ids(marketing, 'freeAndPublic')).toContain(a!._id);
    // a handed-out code works like any other
    const user = await createUser('agent');
    expect((await use(user, b!.name)).status).toBe(200);
    expect(await ids(marketing, 'finishedAndPublic')).toContain(b!._id);
    for (const body of [{ list: [] }, { list: [{ isFree: true }] }, {}]) {
      const bad = await call('POST', '/api/promocode/updatePromoListFreeStatus', { token: marketing.token, body });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Select at least one promo code');
    }
    const tooLong = await call('POST', '/api/promocode/updatePromoListFreeStatus', {
      token: marketing.token,
      body: { list: Array.from({ length: MAX_GENERATE + 1 }, () => ({ _id: a!._id, isFree: false })) },
    });
    expect([tooLong.status, tooLong.body]).toEqual([400, errorBody(PROMO_MESSAGES.listTooLong, { max: MAX_GENERATE })]);
    expect(await ids(marketing, 'freeAndPublic')).toContain(a!._id);
  });

  it('an assigned code is only for its user; removing the assignment makes it public and free again', async () => {
    const marketing = await createUser('marketing');
    const [code, second] = await generate(marketing, { effectType: 'freeMonths', effectValue: 1, generateAmount: 2 });
    const owner = await createUser('agent');
    const stranger = await createUser('manager');
    const assigned = await call('POST', '/api/promocode/assignUser', { token: marketing.token, body: { id: code!._id, email: owner.email.toUpperCase() } });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.message).toBe(`Promo code ${code!.name} assigned to ${owner.email}`);
    expect(assigned.body.promo).toMatchObject({ status: 'used', isPublic: false, isFree: false, assignedUser: { _id: owner.id, email: owner.email } });
    expect(await ids(marketing, 'usedAndPublic')).toContain(code!._id);
    expect(await ids(marketing, 'freeAndPublic')).not.toContain(code!._id);

    for (const res of [await check(stranger, code!.name), await use(stranger, code!.name)]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Promo code not found');
    }
    expect((await row(code!._id))!.usedCount).toBe(0);
    expect((await check(owner, code!.name)).status).toBe(200);

    const removed = await call('POST', '/api/promocode/removeUserAssignment', { token: marketing.token, body: { id: code!._id } });
    expect(removed.status).toBe(200);
    expect(removed.body.promo).toMatchObject({ status: 'free', isPublic: true, assignedUser: null });
    expect(await ids(marketing, 'freeAndPublic')).toContain(code!._id);
    expect((await use(stranger, code!.name)).status).toBe(200);

    // by user id; then the owner uses it
    expect((await call('POST', '/api/promocode/assignUser', { token: marketing.token, body: { id: second!._id, userId: owner.id } })).status).toBe(200);
    expect((await use(owner, second!.name)).status).toBe(200);
    const done = ((await call('GET', '/api/promocode/finishedAndPublic', { token: marketing.token })).body as PromoDto[]).find((p) => p._id === second!._id)!;
    expect(done.assignedUser!._id).toBe(owner.id);
    expect(done.usedUsersList[0]!.user!._id).toBe(owner.id);
  });

  it('assignment refuses unknown users, marketing users, used codes and unknown codes', async () => {
    const admin = await createUser('admin');
    const [code] = await generate(admin, { effectType: 'freeMonths', effectValue: 1, generateAmount: 1 });
    const marketing = await createUser('marketing');
    const assign = (body: object) => call('POST', '/api/promocode/assignUser', { token: admin.token, body });
    expect((await assign({ id: code!._id, email: 'nobody@nowhere.example' })).body.message).toBe('User not found');
    expect((await assign({ id: code!._id, email: 'nobody@nowhere.example' })).status).toBe(404);
    const deleted = await createUser('agent');
    await deleted.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));
    expect((await assign({ id: code!._id, userId: deleted.id })).status).toBe(404);
    const toMarketing = await assign({ id: code!._id, email: marketing.email });
    expect(toMarketing.status).toBe(400);
    expect(toMarketing.body.message).toBe('This user cannot use promo codes');
    expect((await assign({ id: code!._id })).body.message).toBe("Enter the user's e-mail");
    expect((await assign({ id: 'no-such-code', email: admin.email })).status).toBe(404);
    expect((await assign({ id: 'no-such-code', email: admin.email })).body.message).toBe('Promo code not found');
    const user = await createUser('manager');
    await use(user, code!.name);
    const usedOne = await assign({ id: code!._id, userId: user.id });
    expect(usedOne.status).toBe(409);
    expect(usedOne.body.message).toBe('A promo code that has been used cannot be assigned');
    expect((await row(code!._id))!.assignedUserId).toBeNull();
    expect((await call('POST', '/api/promocode/removeUserAssignment', { token: admin.token, body: { id: 'no-such-code' } })).status).toBe(404);
  });

  it('a code created as not public is usable only once assigned', async () => {
    const admin = await createUser('admin');
    const reserved = await createNamed(admin, { effectType: 'discountPercent', effectValue: 50, isPublic: false });
    const user = await createUser('manager');
    expect((await check(user, reserved.name)).status).toBe(404);
    await call('POST', '/api/promocode/assignUser', { token: admin.token, body: { id: reserved._id, userId: user.id } });
    expect((await use(user, reserved.name)).status).toBe(200);
  });

  it('only unused codes can be deleted', async () => {
    const admin = await createUser('admin');
    const [unused, used] = await generate(admin, { effectType: 'freeMonths', effectValue: 1, generateAmount: 2 });
    const user = await createUser('manager');
    expect((await use(user, used!.name)).status).toBe(200);
    const refused = await call('POST', '/api/promocode/delete', { token: admin.token, body: { id: used!._id } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('A promo code that has been used cannot be deleted');
    expect(await row(used!._id)).toBeDefined();
    const deleted = await call('POST', '/api/promocode/delete', { token: admin.token, body: { id: unused!._id } });
    expect(deleted.body).toEqual({ message: 'Promo code deleted' });
    expect(await row(unused!._id)).toBeUndefined();
    const again = await call('POST', '/api/promocode/delete', { token: admin.token, body: { id: unused!._id } });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Promo code not found');
    expect((await check(user, unused!.name)).status).toBe(404);
  });
});

describe('exactly once under concurrent use', () => {
  it('50 users racing for a 1-use code: exactly one wins; for a 50-use code: all 50', async () => {
    const admin = await createUser('admin');
    const racers = await Promise.all(Array.from({ length: 50 }, () => createUser('agent', { subscriptionDays: null })));
    for (const [maxUses, winners] of [
      [1, 1],
      [50, 50],
    ] as const) {
      const code = await createNamed(admin, { effectType: 'freeMonths', effectValue: 1, maxUses });
      const answers = await Promise.all(racers.map((u) => use(u, code.name)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(winners);
      for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.message).toBe('Promo code is finished');
      expect((await row(code._id))!.usedCount).toBe(winners);
      expect(await usesOf(code._id)).toHaveLength(winners);
    }
    // every racer won the 50-use code once; exactly one also won the 1-use code: 2 months
    const ends = await Promise.all(racers.map((u) => endOf(u)));
    const months = ends.map((end) => Math.round((end!.getTime() - Date.now()) / (30.44 * DAY)));
    expect(months.filter((m) => m === 2)).toHaveLength(1);
    expect(months.filter((m) => m === 1)).toHaveLength(49);
  });

  it('one user firing the same code 10 times at once uses it once', async () => {
    const admin = await createUser('admin');
    const code = await createNamed(admin, { effectType: 'freeMonths', effectValue: 3, maxUses: 5 });
    const user = await createUser('manager', { subscriptionDays: null });
    const answers = await Promise.all(Array.from({ length: 10 }, () => use(user, code.name)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(400);
      expect(a.body.message).toBe('Promo code is already used');
    }
    expect((await row(code._id))!.usedCount).toBe(1);
    expect(await usesOf(code._id)).toHaveLength(1);
    const months = Math.round(((await endOf(user))!.getTime() - Date.now()) / (30.44 * DAY));
    expect(months).toBe(3);
  });

  it('one user using five free-month codes at once gets all five months', async () => {
    const admin = await createUser('admin');
    const codes = await generate(admin, { effectType: 'freeMonths', effectValue: 1, generateAmount: 5 });
    const user = await createUser('agent', { subscriptionDays: 10 });
    let expected = (await endOf(user))!;
    for (let i = 0; i < 5; i++) expected = extendByMonths(expected, 1);
    const answers = await Promise.all(codes.map((c) => use(user, c.name)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await endOf(user))!.getTime()).toBe(expected.getTime());
  });

  it('one user racing five discount codes keeps exactly one pending', async () => {
    const admin = await createUser('admin');
    const codes = await generate(admin, { effectType: 'discountPercent', effectValue: 10, generateAmount: 5 });
    const user = await createUser('manager');
    const answers = await Promise.all(codes.map((c) => use(user, c.name)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.message).toBe('You already have a promo discount waiting for your next payment');
    expect(await control.select().from(promoUses).where(eq(promoUses.userId, user.id))).toHaveLength(1);
    const counts = await Promise.all(codes.map((c) => row(c._id)));
    expect(counts.reduce((n, r) => n + r!.usedCount, 0)).toBe(1);
  });
});

describe('guessing', () => {
  it('refuses checks for a while after 30 wrong codes', async () => {
    const user = await createUser('agent');
    const env = { ...testEnv, DISABLE_RATE_LIMITS: undefined };
    const send = async (name: string) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(
        new Request('http://localhost/api/promocode/checkPromoCode', {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        }),
        env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return { status: res.status, body: (await res.json()) as { message: string } };
    };
    for (let i = 0; i < 30; i++) expect((await send(`WRONG${i}`)).status).toBe(404);
    const blocked = await send('WRONG-LAST');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many promo code attempts, please try again later');
  });
});
