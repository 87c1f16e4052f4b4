import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments } from '../db/schema';
import { extendByMonths } from '../lib/subscription';
import { call, control, createTeam, createUser, errorBody, getUser, type TestUser, testEnv } from '../test/helpers';
import { confirmation, order, PRICE, precheck, result } from '../test/idram';
import { ORDER_TTL_MS } from './payment-order';
import { PAYMENT_MESSAGES } from './payments.schema';

/** Orders expire and the payer cancels them (docs/decisions/0020-order-expiry.md). */

const ROUNDS = 3;
const AT_ONCE = 20;
const row = async (id: string) => (await control.select().from(payments).where(eq(payments.id, id)))[0]!;
const stubOf = (id: string) => testEnv.PAYMENT_ORDER.get(testEnv.PAYMENT_ORDER.idFromName(id));
const endOf = async (who: TestUser) => (await getUser(who.id))!.subscriptionEndDate?.getTime() ?? null;
const cancel = (who: TestUser | null, orderId: unknown) => call('POST', '/api/payment/cancelOrder', { token: who?.token, body: { orderId } });
const historyOf = async (who: TestUser, id: string) =>
  ((await call('GET', '/api/payment/paymentHistory', { token: who.token })).body as { _id: string }[]).find((p) => p._id === id) as Record<string, unknown>;

/** Moves an order's clock back past its lifetime, in D1 and in its object, without running its alarm. */
async function outlive(id: string) {
  const past = Date.now() - ORDER_TTL_MS - 1_000;
  await control
    .update(payments)
    .set({ dateCreated: new Date(past) })
    .where(eq(payments.id, id));
  await runInDurableObject(stubOf(id), async (_, state) => {
    const stored = await state.storage.get<Record<string, unknown>>('order');
    await state.storage.put('order', { ...stored, expiresAt: past + ORDER_TTL_MS });
  });
}

describe('an unpaid order expires', () => {
  it('is payable for 30 minutes from when it was made: its object keeps that time and its alarm is set to it', async () => {
    const user = await createUser('manager');
    const id = await order(user, { amount: 1 });
    const created = (await row(id)).dateCreated.getTime();
    const stub = stubOf(id);
    const [stored, alarm] = await runInDurableObject(stub, async (_, state) => [
      await state.storage.get<{ expiresAt: number }>('order'),
      await state.storage.getAlarm(),
    ]);
    expect((stored as { expiresAt: number }).expiresAt).toBe(created + 30 * 60_000);
    expect(alarm).toBe(created + 30 * 60_000);
    expect(await historyOf(user, id)).toMatchObject({ status: 'Waiting for payment', expiresAt: new Date(created + ORDER_TTL_MS).toISOString() });
  });

  it('past its time, the precheck is refused even before the alarm runs, and the order reads Expired', async () => {
    const user = await createUser('manager', { subscriptionDays: -1 });
    const id = await order(user, { amount: 1 });
    await outlive(id);
    expect(await historyOf(user, id)).toMatchObject({ status: 'Expired', canCancel: false, expiresAt: null });
    expect(await precheck(id, String(PRICE))).toBe('Order has expired');
    expect(await row(id)).toMatchObject({ status: 'expired', isPaymentConfirmed: false });
    expect(await stubOf(id).status()).toBe('expired');
    // its alarm is gone: nothing is left to expire
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(false);
    expect((await call('GET', `/api/payment/idram/pay/${id}`)).headers.get('location')).toBe('/paymentResult/expired');
    expect((await cancel(user, id)).body).toEqual(errorBody(PAYMENT_MESSAGES.cannotCancelClosed));
    expect(await endOf(user)).toBeLessThan(Date.now());
  });

  it(`the alarm and ${AT_ONCE} prechecks at once past its time: every precheck is refused; then ${AT_ONCE} signed confirmations at once extend once (Idram took the money), ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await createUser('manager', { subscriptionDays: -1 });
      const id = await order(user, { amount: 2 });
      await outlive(id);
      const amount = String(2 * PRICE);
      const [answers] = await Promise.all([Promise.all(Array.from({ length: AT_ONCE }, () => precheck(id, amount))), runDurableObjectAlarm(stubOf(id))]);
      expect(new Set(answers)).toEqual(new Set(['Order has expired']));
      expect(await row(id)).toMatchObject({ status: 'expired', isPaymentConfirmed: false, transId: null });
      expect(await historyOf(user, id)).toMatchObject({ status: 'Expired' });

      const before = Date.now();
      const conf = await confirmation(id, amount);
      expect(await Promise.all(Array.from({ length: AT_ONCE }, () => result(conf)))).toEqual(Array(AT_ONCE).fill('OK'));
      expect(await row(id)).toMatchObject({ status: 'confirmed', isPaymentConfirmed: true, transId: conf.EDP_TRANS_ID });
      const end = (await endOf(user))!;
      // once: two months from now, not four
      expect(end).toBeGreaterThanOrEqual(extendByMonths(null, 2, new Date(before)).getTime());
      expect(end).toBeLessThanOrEqual(extendByMonths(null, 2, new Date()).getTime());
      expect(await historyOf(user, id)).toMatchObject({ status: 'confirmed' });
    }
  }, 120_000);

  it(`the alarm racing ${AT_ONCE} prechecks of a live order: each precheck is OK before the expiry or refused after it, and the order ends expired in D1 and in its object, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await createUser('manager');
      const id = await order(user, { amount: 1 });
      const [answers] = await Promise.all([Promise.all(Array.from({ length: AT_ONCE }, () => precheck(id, String(PRICE)))), runDurableObjectAlarm(stubOf(id))]);
      for (const a of answers) expect(['OK', 'Order has expired']).toContain(a);
      // the alarm ran last or in between: the order ends expired in both places, and later prechecks are refused
      expect((await row(id)).status).toBe('expired');
      expect(await stubOf(id).status()).toBe('expired');
      expect(await precheck(id, String(PRICE))).toBe('Order has expired');
    }
  }, 120_000);
});

describe('POST /api/payment/cancelOrder', () => {
  it('only the payer cancels its waiting order; the order reads Canceled and Idram is refused', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const id = await order(a.manager, { amount: 1, userToBePaidId: a.agents[0].id });
    expect(await historyOf(a.manager, id)).toMatchObject({ status: 'Waiting for payment', canCancel: true });
    // the payee sees the order but may not cancel what its manager pays
    expect(await historyOf(a.agents[0], id)).toMatchObject({ status: 'Waiting for payment', canCancel: false });
    for (const who of [a.agents[0], a.agents[1], a.director, b.manager, await createUser('admin')]) {
      const res = await cancel(who, id);
      expect([res.status, res.body]).toEqual([404, errorBody(PAYMENT_MESSAGES.orderNotFound)]);
    }
    expect((await cancel(null, id)).status).toBe(401);
    expect((await cancel(await createUser('marketing'), id)).status).toBe(403);
    expect((await cancel(a.manager, '')).body).toEqual(errorBody(PAYMENT_MESSAGES.orderNotFound));
    expect((await cancel(a.manager, 42)).status).toBe(400);
    expect((await row(id)).status).toBe('link_generated');

    const res = await cancel(a.manager, id);
    expect([res.status, res.body]).toEqual([200, { orderId: id, status: 'Canceled' }]);
    expect(await row(id)).toMatchObject({ status: 'canceled', isPaymentConfirmed: false });
    expect(await stubOf(id).status()).toBe('canceled');
    expect(await historyOf(a.manager, id)).toMatchObject({ status: 'Canceled', canCancel: false, expiresAt: null });
    expect(await historyOf(a.agents[0], id)).toMatchObject({ status: 'Canceled' });
    // twice answers the same
    expect((await cancel(a.manager, id)).body).toEqual({ orderId: id, status: 'Canceled' });
    expect(await precheck(id, String(PRICE))).toBe('Order was canceled');
    expect((await call('GET', `/api/payment/idram/pay/${id}`)).headers.get('location')).toBe('/paymentResult/canceled');
    // the alarm leaves it canceled
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(false);
    expect((await row(id)).status).toBe('canceled');
  });

  it('a paid order cannot be canceled; a declined one is no longer waiting', async () => {
    const user = await createUser('manager');
    const paid = await order(user, { amount: 1 });
    expect(await result(await confirmation(paid, String(PRICE)))).toBe('OK');
    const end = await endOf(user);
    const res = await cancel(user, paid);
    expect([res.status, res.body]).toEqual([409, errorBody(PAYMENT_MESSAGES.cannotCancelPaid)]);
    expect(await row(paid)).toMatchObject({ status: 'confirmed', isPaymentConfirmed: true });
    expect(await endOf(user)).toBe(end);
    const declined = await order(user, { amount: 1 });
    await stubOf(declined).decline();
    expect((await cancel(user, declined)).body).toEqual(errorBody(PAYMENT_MESSAGES.cannotCancelClosed));
    expect((await row(declined)).status).toBe('failed');
  });

  it(`${AT_ONCE} cancels and ${AT_ONCE} signed confirmations at once: the money Idram took always counts, once, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await createUser('manager', { subscriptionDays: -1 });
      const id = await order(user, { amount: 3 });
      const conf = await confirmation(id, String(3 * PRICE));
      const before = Date.now();
      const [cancels, confirms] = await Promise.all([
        Promise.all(Array.from({ length: AT_ONCE }, () => cancel(user, id))),
        Promise.all(Array.from({ length: AT_ONCE }, () => result(conf))),
      ]);
      expect(confirms).toEqual(Array(AT_ONCE).fill('OK'));
      for (const c of cancels) {
        if (c.status === 200) expect(c.body).toEqual({ orderId: id, status: 'Canceled' });
        else expect([c.status, c.body]).toEqual([409, errorBody(PAYMENT_MESSAGES.cannotCancelPaid)]);
      }
      expect(await row(id)).toMatchObject({ status: 'confirmed', isPaymentConfirmed: true, transId: conf.EDP_TRANS_ID });
      const end = (await endOf(user))!;
      expect(end).toBeGreaterThanOrEqual(extendByMonths(null, 3, new Date(before)).getTime());
      expect(end).toBeLessThanOrEqual(extendByMonths(null, 3, new Date()).getTime());
      expect(await historyOf(user, id)).toMatchObject({ status: 'confirmed', canCancel: false });
      // now it is paid: Cancel says so
      expect((await cancel(user, id)).status).toBe(409);
    }
  }, 120_000);

  it(`${AT_ONCE} cancels and ${AT_ONCE} prechecks at once: the order ends canceled and Idram is refused from then on, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await createUser('manager');
      const id = await order(user, { amount: 1 });
      const [cancels, prechecks] = await Promise.all([
        Promise.all(Array.from({ length: AT_ONCE }, () => cancel(user, id))),
        Promise.all(Array.from({ length: AT_ONCE }, () => precheck(id, String(PRICE)))),
      ]);
      for (const c of cancels) expect([c.status, c.body]).toEqual([200, { orderId: id, status: 'Canceled' }]);
      for (const p of prechecks) expect(['OK', 'Order was canceled']).toContain(p);
      expect(await row(id)).toMatchObject({ status: 'canceled', isPaymentConfirmed: false });
      expect(await stubOf(id).status()).toBe('canceled');
      expect(await precheck(id, String(PRICE))).toBe('Order was canceled');
    }
  }, 120_000);
});
