import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments, promoCodes, promoUses } from '../db/schema';
import { randomId } from '../lib/ids';
import { call, createTeam, createUser, db, getUser, testEnv } from '../test/helpers';
import { md5Hex } from './md5';
import type { PaymentOrder } from './payment-order';

const PRICE = Number(testEnv.MONTHLY_PRICE_AMD);
const ACCOUNT = testEnv.IDRAM_REC_ACCOUNT;

async function order(token: string, body: object = { amount: 2 }) {
  const res = await call('POST', '/api/payment/generateLink', { token, body: { paymentType: 'idram', ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body.orderId as string;
}

const form = (fields: Record<string, string>) => ({ rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const result = async (fields: Record<string, string>) => (await call('POST', '/api/payment/idram/result', form(fields))).text;

async function confirmation(orderId: string, amount: string, over: Record<string, string> = {}) {
  const f = { EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: amount, EDP_BILL_NO: orderId, EDP_PAYER_ACCOUNT: '100000000001', EDP_TRANS_ID: randomId(14), EDP_TRANS_DATE: '22/11/2026', ...over };
  const checksum = await md5Hex([f.EDP_REC_ACCOUNT, f.EDP_AMOUNT, testEnv.IDRAM_SECRET_KEY, f.EDP_BILL_NO, f.EDP_PAYER_ACCOUNT, f.EDP_TRANS_ID, f.EDP_TRANS_DATE].join(':'));
  return { ...f, EDP_CHECKSUM: over.EDP_CHECKSUM ?? checksum.toUpperCase() };
}
const row = async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0]!;
const DAY = 86_400_000;

describe('prices and orders', () => {
  it('answers the monthly price from configuration', async () => {
    const user = await createUser('manager');
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body).toEqual({ price: PRICE, currency: 'AMD', discountPercent: 0, promoName: null });
  });

  it('creates an order for whole months and refuses bad months, card payments and marketing', async () => {
    const user = await createUser('manager');
    const id = await order(user.token, { amount: 3 });
    expect(await row(id)).toMatchObject({ amount: 3, priceTotal: 3 * PRICE, userId: user.id, payerUserId: user.id, status: 'link_generated' });
    for (const amount of [0, -1, 1.5, '2']) {
      const res = await call('POST', '/api/payment/generateLink', { token: user.token, body: { amount, paymentType: 'idram' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Months to buy: minimum 1');
    }
    const arca = await call('POST', '/api/payment/generateLink', { token: user.token, body: { amount: 1, paymentType: 'arca' } });
    expect(arca.body.message).toMatch(/^Visa Payment Temporary not supported/);
    expect((await call('POST', '/api/payment/generateLink', { token: (await createUser('marketing')).token, body: { amount: 1 } })).status).toBe(403);
  });

  it('getPaymentLink answers the payer its link; another user gets 404', async () => {
    const a = await createTeam();
    const id = await order(a.manager.token);
    const link = await call('POST', '/api/payment/getPaymentLink', { token: a.manager.token, body: { orderId: id } });
    expect(link.body).toEqual({ isLinkGenerated: true, isLinkGenerationFailed: false, paymentURL: `${testEnv.PUBLIC_URL}/api/payment/idram/pay/${id}`, userAndPayerMatch: true });
    expect((await call('POST', '/api/payment/getPaymentLink', { token: a.agents[0].token, body: { orderId: id } })).status).toBe(404);
    expect((await call('POST', '/api/payment/get_arca_status', { token: a.manager.token, body: { orderId: id } })).body).toEqual({ isPaymentConfirmed: false });
  });

  it('the pay page posts the Idram form fields', async () => {
    const user = await createUser('manager');
    const id = await order(user.token, { amount: 1 });
    const page = await call('GET', `/api/payment/idram/pay/${id}`);
    expect(page.status).toBe(200);
    for (const field of ['EDP_LANGUAGE', 'EDP_REC_ACCOUNT', 'EDP_DESCRIPTION', 'EDP_AMOUNT', 'EDP_BILL_NO', 'EDP_EMAIL']) expect(page.text).toContain(`name="${field}"`);
    expect(page.text).toContain(`value="${PRICE}.00"`);
    expect(page.text).toContain(`value="${id}"`);
  });

  it('a manager pays for its verified agent only; never for another team', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const unverified = await createUser('agent', { parentId: a.manager.id, isEmailVerified: false });
    const ok = await order(a.manager.token, { amount: 2, userToBePaidId: a.agents[0].id });
    expect((await row(ok)).userId).toBe(a.agents[0].id);
    expect((await call('POST', '/api/payment/getPaymentLink', { token: a.manager.token, body: { orderId: ok } })).body.userAndPayerMatch).toBe(false);
    const notVerified = await call('POST', '/api/payment/generateLink', { token: a.manager.token, body: { amount: 1, userToBePaidId: unverified.id, paymentType: 'idram' } });
    expect(notVerified.status).toBe(400);
    expect(notVerified.body.message).toBe('Email is not verified');
    const other = await call('POST', '/api/payment/generateLink', { token: a.manager.token, body: { amount: 1, userToBePaidId: b.agents[0].id, paymentType: 'idram' } });
    expect(other.status).toBe(404);
    const byAgent = await call('POST', '/api/payment/generateLink', { token: a.agents[0].token, body: { amount: 1, userToBePaidId: a.agents[1].id, paymentType: 'idram' } });
    expect(byAgent.status).toBe(404);
  });
});

describe('Idram result callback', () => {
  it('precheck answers OK only for an open order with the same account and amount', async () => {
    const user = await createUser('manager');
    const id = await order(user.token, { amount: 2 });
    const amount = String(2 * PRICE);
    expect(await result({ EDP_PRECHECK: 'YES', EDP_BILL_NO: id, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: '1.00' })).not.toBe('OK');
    expect(await result({ EDP_PRECHECK: 'YES', EDP_BILL_NO: id, EDP_REC_ACCOUNT: '999', EDP_AMOUNT: amount })).not.toBe('OK');
    expect(await result({ EDP_PRECHECK: 'YES', EDP_BILL_NO: 'nope', EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: amount })).not.toBe('OK');
    expect(await result({ EDP_PRECHECK: 'YES', EDP_BILL_NO: id, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: `${amount}.00` })).toBe('OK');
    expect((await row(id)).isPaymentConfirmed).toBe(false);
  });

  it('a good confirmation extends the payee once; replays answer OK and change nothing', async () => {
    const a = await createTeam();
    const agent = a.agents[0];
    const before = (await getUser(agent.id))!.subscriptionEndDate!;
    const id = await order(a.manager.token, { amount: 2, userToBePaidId: agent.id });
    const amount = `${2 * PRICE}.00`;
    expect(await result({ EDP_PRECHECK: 'YES', EDP_BILL_NO: id, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: amount })).toBe('OK');
    const conf = await confirmation(id, amount);
    expect(await result(conf)).toBe('OK');
    const paid = await row(id);
    expect(paid).toMatchObject({ isPaymentConfirmed: true, isOrderConfirmationReceived: true, status: 'confirmed', transId: conf.EDP_TRANS_ID });
    const after = (await getUser(agent.id))!.subscriptionEndDate!;
    const months = (after.getUTCFullYear() - before.getUTCFullYear()) * 12 + after.getUTCMonth() - before.getUTCMonth();
    expect(months).toBe(2);
    expect(await result(conf)).toBe('OK');
    expect(await result(await confirmation(id, amount))).toBe('OK');
    expect((await getUser(agent.id))!.subscriptionEndDate!.getTime()).toBe(after.getTime());
    expect((await row(id)).transId).toBe(conf.EDP_TRANS_ID);
    expect((await getUser(a.manager.id))!.subscriptionEndDate!.getTime()).toBeLessThan(after.getTime());
    const history = await call('GET', '/api/payment/paymentHistory', { token: a.manager.token });
    expect(history.body[0]).toMatchObject({ _id: id, status: 'confirmed', amount: 2, priceTotal: 2 * PRICE, type: 'Idram', user: { _id: agent.id }, payerUser: { _id: a.manager.id } });
    expect((await call('GET', '/api/payment/paymentHistory', { token: agent.token })).body.map((p: any) => p._id)).toContain(id);
  });

  it('a bad checksum, amount or account changes nothing', async () => {
    const user = await createUser('manager', { subscriptionDays: -1 });
    const id = await order(user.token, { amount: 1 });
    const amount = String(PRICE);
    expect(await result(await confirmation(id, amount, { EDP_CHECKSUM: 'deadbeef'.repeat(4) }))).toBe('Wrong checksum');
    expect(await result(await confirmation(id, '1'))).toBe('Wrong amount');
    expect(await result(await confirmation(id, amount, { EDP_REC_ACCOUNT: '123' }))).toBe('Wrong account');
    expect(await result({ EDP_BILL_NO: id })).not.toBe('OK');
    expect((await call('POST', '/api/payment/idram/result', { rawBody: 'garbage%%%', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200);
    expect((await row(id)).isPaymentConfirmed).toBe(false);
    expect((await call('GET', '/api/subscription/status', { token: user.token })).body.isSubscriptionActive).toBe(false);
  });

  it('two confirmations racing extend the subscription exactly once', async () => {
    const user = await createUser('manager', { subscriptionDays: null });
    const id = await order(user.token, { amount: 1 });
    const amount = String(PRICE);
    const [c1, c2, c3] = await Promise.all([confirmation(id, amount), confirmation(id, amount), confirmation(id, amount)]);
    const answers = await Promise.all([result(c1), result(c2), result(c3)]);
    expect(answers).toEqual(['OK', 'OK', 'OK']);
    const end = (await getUser(user.id))!.subscriptionEndDate!;
    const days = (end.getTime() - Date.now()) / DAY;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    expect([c1.EDP_TRANS_ID, c2.EDP_TRANS_ID, c3.EDP_TRANS_ID]).toContain((await row(id)).transId);
  });

  it('an unpaid order expires with its alarm, and the alarm is idempotent', async () => {
    const user = await createUser('manager');
    const id = await order(user.token, { amount: 1 });
    const stub = testEnv.PAYMENT_ORDER.get(testEnv.PAYMENT_ORDER.idFromName(id));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await row(id)).status).toBe('expired');
    expect(await stub.status()).toBe('expired');
    await runInDurableObject(stub, (instance) => (instance as unknown as PaymentOrder).alarm());
    expect((await row(id)).status).toBe('expired');
    expect(await result({ EDP_PRECHECK: 'YES', EDP_BILL_NO: id, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: String(PRICE) })).not.toBe('OK');
    expect((await call('GET', '/api/payment/paymentHistory', { token: user.token })).body[0].status).toBe('Canceled');
  });

  it('the simulator pays through both callbacks and returns the browser to the result page', async () => {
    const user = await createUser('manager', { subscriptionDays: -3 });
    const id = await order(user.token, { amount: 1 });
    const fields = { EDP_BILL_NO: id, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: `${PRICE}.00` };
    const sim = await call('POST', '/api/payment/idram/simulator', form({ ...fields, EDP_DESCRIPTION: 'x', EDP_LANGUAGE: 'EN' }));
    expect(sim.text).toContain('Idram payment simulator');
    const done = await call('POST', '/api/payment/idram/simulator/complete', form({ ...fields, action: 'pay' }));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/paymentResult/confirmed');
    expect((await call('GET', '/api/subscription/status', { token: user.token })).body.isSubscriptionActive).toBe(true);

    const other = await order(user.token, { amount: 1 });
    const declined = await call('POST', '/api/payment/idram/simulator/complete', form({ EDP_BILL_NO: other, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: `${PRICE}.00`, action: 'decline' }));
    expect(declined.headers.get('location')).toBe('/paymentResult/failed');
    expect((await call('GET', '/api/payment/paymentHistory', { token: user.token })).body[0]).toMatchObject({ _id: other, status: 'Declined' });
  });
});

describe('promo discount and team subscriptions', () => {
  it('prices a pending discount into the order and spends it on confirmation, once', async () => {
    const user = await createUser('manager');
    const promoId = randomId();
    const useId = randomId();
    await db.insert(promoCodes).values({ id: promoId, name: `P${promoId}`, effectType: 'discountPercent', effectValue: 25, createdBy: user.id, createdAt: new Date() });
    await db.insert(promoUses).values({ id: useId, promoId, userId: user.id, useDate: new Date() });
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body.discountPercent).toBe(25);
    const id = await order(user.token, { amount: 2 });
    const total = Math.round(2 * PRICE * 0.75);
    expect((await row(id)).priceTotal).toBe(total);
    expect(await result(await confirmation(id, String(total)))).toBe('OK');
    expect((await db.select().from(promoUses).where(eq(promoUses.id, useId)))[0]!.orderId).toBe(id);
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body.discountPercent).toBe(0);
    expect((await row(await order(user.token, { amount: 1 }))).priceTotal).toBe(PRICE);
  });

  it('childUsersSubscriptions lists a manager\'s team with their status', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const res = await call('POST', '/api/subscription/childUsersSubscriptions', { token: a.manager.token, body: { parentId: a.manager.id, includeParent: true } });
    expect(res.body).toHaveLength(3);
    expect(res.body[1]).toMatchObject({ isEmailVerified: true, isSubscriptionActive: true });
    expect((await call('POST', '/api/subscription/childUsersSubscriptions', { token: a.manager.token, body: { parentId: b.manager.id } })).status).toBe(404);
    expect((await call('POST', '/api/subscription/childUsersSubscriptions', { token: a.agents[0].token, body: { parentId: a.manager.id } })).status).toBe(403);
  });
});
