import { createExecutionContext, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { app } from '../app';
import { payments, promoCodes, promoUses, users } from '../db/schema';
import type { Bindings, Caller } from '../env';
import { randomId } from '../lib/ids';
import { extendByMonths } from '../lib/subscription';
import { call, control, countRows, createTeam, createUser, errorBody, getUser, type TestUser, testEnv } from '../test/helpers';
import { ACCOUNT, confirmation, form, PRICE, precheck, result } from '../test/idram';
import { USER_MESSAGES } from '../users/users.messages';
import { md5Hex } from './md5';
import { ORDER_TTL_MS, type PaymentOrder } from './payment-order';
import { PAYMENT_MESSAGES, priceFor } from './payments.schema';
import * as svc from './payments.service';

const DAY = 86_400_000;
type PaymentDtoLike = { _id: string; isPaymentConfirmed: boolean; user: { name: string } | null };

async function order(who: TestUser, body: object = { amount: 2 }) {
  const res = await call('POST', '/api/payment/generateLink', { token: who.token, body: { paymentType: 'idram', ...body } });
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body)).toEqual(['orderId']);
  return res.body.orderId as string;
}

const row = async (id: string) => (await control.select().from(payments).where(eq(payments.id, id)))[0]!;
const endOf = async (id: string) => (await getUser(id))!.subscriptionEndDate?.getTime() ?? null;
const stubOf = (id: string) => testEnv.PAYMENT_ORDER.get(testEnv.PAYMENT_ORDER.idFromName(id));
const monthsBetween = (a: Date, b: Date) => (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
/** The order row and the payee's end date, for "nothing changed" assertions. */
const snapshot = async (id: string) => {
  const r = await row(id);
  return { row: r, end: await endOf(r.userId) };
};

/** Runs the app with other settings (production, a missing merchant account). */
async function fetchWith(over: Partial<Bindings>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`, { redirect: 'manual', ...init }), { ...testEnv, ...over }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function addDiscount(user: TestUser, percent: number) {
  const promoId = randomId();
  const useId = randomId();
  const name = `P${promoId}`.toUpperCase();
  await control
    .insert(promoCodes)
    .values({ id: promoId, name, effectType: 'discountPercent', effectValue: percent, createdBy: user.id, createdAt: new Date() });
  await control.insert(promoUses).values({ id: useId, promoId, userId: user.id, useDate: new Date() });
  return { useId, name };
}
const promoUse = async (id: string) => (await control.select().from(promoUses).where(eq(promoUses.id, id)))[0]!;

describe('md5', () => {
  it('matches the RFC 1321 test vectors (workerd digests MD5 through WebCrypto)', async () => {
    expect(await md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(await md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(await md5Hex('message digest')).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(await md5Hex('12345678901234567890123456789012345678901234567890123456789012345678901234567890')).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });
});

describe('GET /api/payment/monthlyprice', () => {
  it('answers the configured price to every paying role; marketing 403, no token 401', async () => {
    for (const role of ['manager', 'agent', 'director', 'admin'] as const) {
      const res = await call('GET', '/api/payment/monthlyprice', { token: (await createUser(role)).token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ price: PRICE, currency: 'AMD', discountPercent: 0, promoName: null, upcoming: null });
    }
    const expired = await createUser('manager', { subscriptionDays: -5 });
    expect((await call('GET', '/api/payment/monthlyprice', { token: expired.token })).status).toBe(200);
    expect((await call('GET', '/api/payment/monthlyprice', { token: (await createUser('marketing')).token })).status).toBe(403);
    expect((await call('GET', '/api/payment/monthlyprice')).status).toBe(401);
  });
});

describe('POST /api/payment/generateLink', () => {
  it('records an order for whole months, opens its object with the expiry alarm, and numbers it globally', async () => {
    const user = await createUser('manager', { subscriptionDays: -3 });
    const first = await order(user, { amount: 3 });
    const second = await order(user, { amount: 1 });
    expect(await row(first)).toMatchObject({
      amount: 3,
      monthlyPrice: PRICE,
      priceTotal: 3 * PRICE,
      userId: user.id,
      payerUserId: user.id,
      type: 'idram',
      status: 'link_generated',
      isLinkGenerationFailed: false,
      isPaymentConfirmed: false,
      transId: null,
    });
    expect((await row(second)).globalIndex).toBe((await row(first)).globalIndex + 1);
    const stub = stubOf(first);
    expect(await stub.status()).toBe('link_generated');
    const alarm = await runInDurableObject(stub, (_, state) => state.storage.getAlarm());
    expect(alarm! - Date.now()).toBeGreaterThan(ORDER_TTL_MS - 60_000);
    expect(alarm! - Date.now()).toBeLessThanOrEqual(ORDER_TTL_MS);
  });

  it('gives orders created at the same moment distinct, consecutive global indexes', async () => {
    const user = await createUser('manager');
    const ids = await Promise.all(Array.from({ length: 5 }, () => order(user, { amount: 1 })));
    const indexes = (await Promise.all(ids.map(row))).map((r) => r.globalIndex).sort((a, b) => a - b);
    expect(new Set(indexes).size).toBe(5);
    expect(indexes[4]! - indexes[0]!).toBe(4);
  });

  it("refuses bad months, card payments and unknown types with the spec's messages, and records nothing", async () => {
    const user = await createUser('manager');
    const before = await countRows('payments');
    for (const amount of [0, -1, 1.5, '2', null, undefined]) {
      const res = await call('POST', '/api/payment/generateLink', { token: user.token, body: { amount, paymentType: 'idram' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(PAYMENT_MESSAGES.months));
    }
    const tooMany = await call('POST', '/api/payment/generateLink', { token: user.token, body: { amount: 37, paymentType: 'idram' } });
    expect(tooMany.body.message).toBe('Months to buy: at most 36');
    const arca = await call('POST', '/api/payment/generateLink', { token: user.token, body: { amount: 1, paymentType: 'arca' } });
    expect(arca.status).toBe(400);
    expect(arca.body.message).toMatch(/^Visa Payment Temporary not supported/);
    const other = await call('POST', '/api/payment/generateLink', { token: user.token, body: { amount: 1, paymentType: 'paypal' } });
    expect(other.body).toEqual(errorBody(PAYMENT_MESSAGES.paymentType));
    expect(await countRows('payments')).toBe(before);
  });

  it('a manager pays for its own verified agents only; other payers pay for themselves', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const unverified = await createUser('agent', { parentId: a.manager.id, isEmailVerified: false });
    const gone = await createUser('agent', { parentId: a.manager.id });
    await gone.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    const before = await countRows('payments');
    const attempt = (who: TestUser, userToBePaidId: string) =>
      call('POST', '/api/payment/generateLink', { token: who.token, body: { amount: 1, userToBePaidId, paymentType: 'idram' } });

    const notVerified = await attempt(a.manager, unverified.id);
    expect([notVerified.status, notVerified.body.message]).toEqual([400, 'Email is not verified']);
    for (const payee of [b.agents[0].id, b.manager.id, a.director.id, gone.id, 'no-such-user']) {
      const res = await attempt(a.manager, payee);
      expect([res.status, res.body.message]).toEqual([404, 'User not found']);
    }
    for (const [who, payee] of [
      [a.agents[0], a.agents[1].id],
      [a.director, a.manager.id],
      [await createUser('admin'), a.agents[0].id],
    ] as const) {
      const res = await attempt(who, payee);
      expect([res.status, res.body.message]).toEqual([403, 'Only a manager can pay for its agents']);
    }
    expect(await countRows('payments')).toBe(before);

    const forAgent = await order(a.manager, { amount: 2, userToBePaidId: a.agents[0].id });
    expect(await row(forAgent)).toMatchObject({ userId: a.agents[0].id, payerUserId: a.manager.id });
    const forSelf = await order(a.agents[0], { amount: 1, userToBePaidId: a.agents[0].id });
    expect((await row(forSelf)).userId).toBe(a.agents[0].id);
    expect((await row(await order(a.director, { amount: 1, userToBePaidId: null }))).userId).toBe(a.director.id);
  });

  it('marketing users and callers without a token cannot order', async () => {
    expect((await call('POST', '/api/payment/generateLink', { token: (await createUser('marketing')).token, body: { amount: 1 } })).status).toBe(403);
    expect((await call('POST', '/api/payment/generateLink', { body: { amount: 1 } })).status).toBe(401);
  });

  it('without the merchant settings the link fails: getPaymentLink says so and history shows redirect fail', async () => {
    const user = await createUser('manager');
    const caller: Caller = {
      id: user.id,
      name: user.name,
      email: user.email,
      userType: 'manager',
      parentId: null,
      isEmailVerified: true,
      subscriptionEndDate: null,
      isTrialPeriod: false,
      companyId: user.companyId,
      sessionId: 'none',
    };
    const { orderId } = await svc.generateLink({ ...testEnv, IDRAM_SECRET_KEY: '' }, control, user.db, caller, { amount: 1, paymentType: 'idram' });
    expect(await row(orderId)).toMatchObject({ status: 'link_failed', isLinkGenerationFailed: true });
    expect(await stubOf(orderId).status()).toBe('link_failed');
    const link = await call('POST', '/api/payment/getPaymentLink', { token: user.token, body: { orderId } });
    expect(link.body).toEqual({ isLinkGenerated: false, isLinkGenerationFailed: true, paymentURL: null, userAndPayerMatch: true });
    expect((await call('GET', '/api/payment/paymentHistory', { token: user.token })).body[0]).toMatchObject({
      _id: orderId,
      status: 'redirect fail',
      isLinkGenerationFailed: true,
    });
    expect(await precheck(orderId, String(PRICE))).not.toBe('OK');
    // the alarm leaves a failed link as it is
    await runDurableObjectAlarm(stubOf(orderId));
    expect((await row(orderId)).status).toBe('link_failed');
  });
});

describe('POST /api/payment/getPaymentLink and get_arca_status', () => {
  it('answers the payer its link on the origin it called; anyone else gets 404', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const id = await order(a.manager, { amount: 1, userToBePaidId: a.agents[0].id });
    const link = await call('POST', '/api/payment/getPaymentLink', { token: a.manager.token, body: { orderId: id } });
    expect(link.status).toBe(200);
    expect(link.body).toEqual({
      isLinkGenerated: true,
      isLinkGenerationFailed: false,
      paymentURL: `http://localhost/api/payment/idram/pay/${id}`,
      userAndPayerMatch: false,
    });
    for (const who of [a.agents[0], a.agents[1], a.director, b.manager, await createUser('admin')]) {
      const res = await call('POST', '/api/payment/getPaymentLink', { token: who.token, body: { orderId: id } });
      expect([res.status, res.body.message]).toEqual([404, 'Order not found']);
    }
    expect((await call('POST', '/api/payment/getPaymentLink', { token: a.manager.token, body: {} })).body).toEqual(errorBody(PAYMENT_MESSAGES.orderNotFound));
    expect((await call('POST', '/api/payment/getPaymentLink', { token: a.manager.token, body: { orderId: 'nope' } })).status).toBe(404);
    expect((await call('POST', '/api/payment/getPaymentLink', { body: { orderId: id } })).status).toBe(401);
  });

  it('re-drives an order whose object was never opened', async () => {
    const user = await createUser('manager');
    const id = randomId();
    await control.insert(payments).values({
      id,
      globalIndex: 900_000 + Math.floor(Math.random() * 99_999),
      type: 'idram',
      userId: user.id,
      payerUserId: user.id,
      dateCreated: new Date(),
      amount: 1,
      monthlyPrice: PRICE,
      priceTotal: PRICE,
      status: 'requested',
    });
    // open and young: the person may still pay on Idram's page (rule 0140)
    expect((await call('GET', '/api/payment/paymentHistory', { token: user.token })).body[0]).toMatchObject({ _id: id, status: 'Waiting for payment' });
    const link = await call('POST', '/api/payment/getPaymentLink', { token: user.token, body: { orderId: id } });
    expect(link.body).toMatchObject({ isLinkGenerated: true, paymentURL: `http://localhost/api/payment/idram/pay/${id}` });
    expect(await stubOf(id).status()).toBe('link_generated');
  });

  it('get_arca_status answers isPaymentConfirmed to the payer and the payee only', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const id = await order(a.manager, { amount: 1, userToBePaidId: a.agents[0].id });
    for (const who of [a.manager, a.agents[0]])
      expect((await call('POST', '/api/payment/get_arca_status', { token: who.token, body: { orderId: id } })).body).toEqual({ isPaymentConfirmed: false });
    await result(await confirmation(id, String(PRICE)));
    expect((await call('POST', '/api/payment/get_arca_status', { token: a.agents[0].token, body: { orderId: id } })).body).toEqual({
      isPaymentConfirmed: true,
    });
    for (const who of [a.agents[1], b.manager])
      expect((await call('POST', '/api/payment/get_arca_status', { token: who.token, body: { orderId: id } })).status).toBe(404);
  });
});

describe('POST /api/payment/idram/result: precheck', () => {
  it('answers exactly OK only for a known unpaid order with the same account and amount', async () => {
    const user = await createUser('manager');
    const id = await order(user, { amount: 2 });
    const amount = String(2 * PRICE);
    expect(await precheck(id, '1.00')).toBe('Wrong amount');
    expect(await precheck(id, `${amount}.01`)).toBe('Wrong amount');
    expect(await precheck(id, `0x${(2 * PRICE).toString(16)}`)).toBe('Wrong amount');
    expect(await precheck(id, '')).toBe('Wrong amount');
    expect(await precheck(id, amount, { EDP_REC_ACCOUNT: '999' })).toBe('Wrong account');
    expect(await precheck(id, amount, { EDP_REC_ACCOUNT: '' })).toBe('Wrong account');
    expect(await precheck('nope', amount)).toBe('Unknown order');
    expect(await precheck('', amount)).toBe('Unknown order');
    expect(await stubOf(id).status()).toBe('link_generated');
    expect(await precheck(id, amount)).toBe('OK');
    expect(await precheck(id, `${amount}.00`)).toBe('OK');
    expect(await stubOf(id).status()).toBe('prechecked');
    expect(await row(id)).toMatchObject({ status: 'prechecked', isPaymentConfirmed: false });
  });

  it('refuses a paid, declined or expired order', async () => {
    const user = await createUser('manager');
    const paid = await order(user, { amount: 1 });
    expect(await result(await confirmation(paid, String(PRICE)))).toBe('OK');
    expect(await precheck(paid, String(PRICE))).toBe('Order is already paid');
    const declined = await order(user, { amount: 1 });
    await stubOf(declined).decline();
    expect(await precheck(declined, String(PRICE))).toBe('Order is not open for payment');
    const expired = await order(user, { amount: 1 });
    await runDurableObjectAlarm(stubOf(expired));
    expect(await precheck(expired, String(PRICE))).toBe('Order has expired');
  });
});

describe('POST /api/payment/idram/result: confirmation', () => {
  it('a good confirmation extends the payee once, in months; replays answer OK and change nothing', async () => {
    const a = await createTeam();
    const agent = a.agents[0];
    const before = (await getUser(agent.id))!.subscriptionEndDate!;
    const managerEnd = await endOf(a.manager.id);
    const id = await order(a.manager, { amount: 2, userToBePaidId: agent.id });
    const amount = `${2 * PRICE}.00`;
    expect(await precheck(id, amount)).toBe('OK');
    const conf = await confirmation(id, amount);
    expect(await result(conf)).toBe('OK');
    const paid = await row(id);
    expect(paid).toMatchObject({
      isPaymentConfirmed: true,
      isOrderConfirmationReceived: true,
      status: 'confirmed',
      transId: conf.EDP_TRANS_ID,
      payerAccount: '100000000001',
    });
    expect(await stubOf(id).status()).toBe('confirmed');
    const after = (await getUser(agent.id))!.subscriptionEndDate!;
    expect(monthsBetween(before, after)).toBe(2);
    expect(after.getUTCDate()).toBe(before.getUTCDate() > 28 ? after.getUTCDate() : before.getUTCDate());
    expect(await endOf(a.manager.id)).toBe(managerEnd);

    const snap = await snapshot(id);
    expect(await result(conf)).toBe('OK');
    expect(await result({ ...conf, EDP_CHECKSUM: conf.EDP_CHECKSUM.toLowerCase() })).toBe('OK');
    expect(await result(await confirmation(id, amount))).toBe('OK');
    expect(await snapshot(id)).toEqual(snap);
    // the confirmed order has no alarm left
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(false);
  });

  it('a bad checksum, amount, account or missing field answers a refusal and changes nothing', async () => {
    const user = await createUser('manager', { subscriptionDays: -1 });
    const id = await order(user, { amount: 1 });
    const amount = String(PRICE);
    expect(await precheck(id, amount)).toBe('OK');
    const snap = await snapshot(id);
    expect(await result(await confirmation(id, amount, { EDP_CHECKSUM: 'deadbeef'.repeat(4) }))).toBe('Wrong checksum');
    const good = await confirmation(id, amount);
    expect(await result({ ...good, EDP_TRANS_ID: randomId(14) })).toBe('Wrong checksum');
    expect(await result({ ...good, EDP_TRANS_DATE: '23/11/2026' })).toBe('Wrong checksum');
    expect(await result(await confirmation(id, '1'))).toBe('Wrong amount');
    expect(await result(await confirmation(id, String(PRICE * 2)))).toBe('Wrong amount');
    expect(await result(await confirmation(id, amount, { EDP_REC_ACCOUNT: '123' }))).toBe('Wrong account');
    expect(await result(await confirmation('unknown-order', amount))).toBe('Unknown order');
    for (const missing of ['EDP_PAYER_ACCOUNT', 'EDP_TRANS_ID', 'EDP_TRANS_DATE', 'EDP_CHECKSUM']) {
      const f: Record<string, string> = { ...good };
      delete f[missing];
      expect(await result(f)).toBe('Missing fields');
    }
    expect(await result({ EDP_BILL_NO: id })).not.toBe('OK');
    expect(await result({})).toBe('Unknown order');
    for (const rawBody of ['garbage%%%', '%E0%A4%A', `EDP_BILL_NO=${'x'.repeat(5000)}`]) {
      const res = await call('POST', '/api/payment/idram/result', { rawBody, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status).toBe(200);
      expect(res.text).not.toBe('OK');
    }
    const json = await call('POST', '/api/payment/idram/result', { body: good });
    expect([json.status, json.text]).toEqual([200, 'Unknown order']);
    expect(await snapshot(id)).toEqual(snap);
    expect(await stubOf(id).status()).toBe('prechecked');
    expect((await call('GET', '/api/subscription/status', { token: user.token })).body.isSubscriptionActive).toBe(false);
  });

  it('a confirmation whose checksum uses another secret is refused', async () => {
    const user = await createUser('manager');
    const id = await order(user, { amount: 1 });
    const f = {
      EDP_REC_ACCOUNT: ACCOUNT,
      EDP_AMOUNT: String(PRICE),
      EDP_BILL_NO: id,
      EDP_PAYER_ACCOUNT: '1',
      EDP_TRANS_ID: randomId(14),
      EDP_TRANS_DATE: '01/01/2026',
    };
    const forged = await md5Hex(
      [f.EDP_REC_ACCOUNT, f.EDP_AMOUNT, 'guessed-secret', f.EDP_BILL_NO, f.EDP_PAYER_ACCOUNT, f.EDP_TRANS_ID, f.EDP_TRANS_DATE].join(':'),
    );
    expect(await result({ ...f, EDP_CHECKSUM: forged })).toBe('Wrong checksum');
    expect((await row(id)).isPaymentConfirmed).toBe(false);
  });

  it('three confirmations racing extend the subscription exactly once and store one transaction id', async () => {
    const user = await createUser('manager', { subscriptionDays: null });
    const id = await order(user, { amount: 1 });
    const amount = String(PRICE);
    const confs = await Promise.all([confirmation(id, amount), confirmation(id, amount), confirmation(id, amount)]);
    expect(await Promise.all(confs.map(result))).toEqual(['OK', 'OK', 'OK']);
    const days = ((await endOf(user.id))! - Date.now()) / DAY;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    expect(confs.map((c) => c.EDP_TRANS_ID)).toContain((await row(id)).transId);
  });

  it('the same confirmation replayed in parallel is applied once', async () => {
    const user = await createUser('manager', { subscriptionDays: 10 });
    const before = (await getUser(user.id))!.subscriptionEndDate!;
    const id = await order(user, { amount: 3 });
    const conf = await confirmation(id, String(3 * PRICE));
    expect(await Promise.all(Array.from({ length: 6 }, () => result(conf)))).toEqual(Array(6).fill('OK'));
    expect(monthsBetween(before, (await getUser(user.id))!.subscriptionEndDate!)).toBe(3);
  });

  it('a signed confirmation after the order expired is still applied: Idram has taken the money', async () => {
    const user = await createUser('manager', { subscriptionDays: -2 });
    const id = await order(user, { amount: 1 });
    await runDurableObjectAlarm(stubOf(id));
    expect((await row(id)).status).toBe('expired');
    expect(await result(await confirmation(id, String(PRICE)))).toBe('OK');
    expect((await row(id)).status).toBe('confirmed');
    expect((await call('GET', '/api/subscription/status', { token: user.token })).body.isSubscriptionActive).toBe(true);
  });

  it('a transaction id already stored for another order is refused for a second one', async () => {
    const user = await createUser('manager');
    const first = await order(user, { amount: 1 });
    const second = await order(user, { amount: 1 });
    const conf = await confirmation(first, String(PRICE));
    expect(await result(conf)).toBe('OK');
    const end = await endOf(user.id);
    expect(await result(await confirmation(second, String(PRICE), { EDP_TRANS_ID: conf.EDP_TRANS_ID }))).toBe('Could not process the payment');
    expect((await row(second)).isPaymentConfirmed).toBe(false);
    expect(await endOf(user.id)).toBe(end);
    // the object is not broken by the refusal: the real confirmation still lands
    expect(await stubOf(second).status()).toBe('link_generated');
    expect(await result(await confirmation(second, String(PRICE)))).toBe('OK');
    expect(await endOf(user.id)).toBeGreaterThan(end!);
  });
});

describe('the expiry alarm', () => {
  it('expires an unpaid order in D1 and in its object, idempotently', async () => {
    const user = await createUser('manager');
    const id = await order(user, { amount: 1 });
    const stub = stubOf(id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await row(id)).status).toBe('expired');
    expect(await stub.status()).toBe('expired');
    // alarms run at least once: a second run changes nothing
    await runInDurableObject(stub, (instance) => (instance as unknown as PaymentOrder).alarm());
    expect((await row(id)).status).toBe('expired');
    expect((await call('GET', '/api/payment/paymentHistory', { token: user.token })).body[0]).toMatchObject({
      _id: id,
      status: 'Expired',
      expiresAt: null,
      canCancel: false,
    });
    const link = await call('POST', '/api/payment/getPaymentLink', { token: user.token, body: { orderId: id } });
    expect(link.body).toMatchObject({ isLinkGenerated: false, isLinkGenerationFailed: true, paymentURL: null });
    // the payment page sends a browser that kept the link to the result page, which says it expired
    expect((await call('GET', `/api/payment/idram/pay/${id}`)).headers.get('location')).toBe('/paymentResult/expired');
  });

  it('leaves a confirmed order confirmed even if it fires late', async () => {
    const user = await createUser('manager');
    const id = await order(user, { amount: 1 });
    await result(await confirmation(id, String(PRICE)));
    await runInDurableObject(stubOf(id), (instance) => (instance as unknown as PaymentOrder).alarm());
    expect(await row(id)).toMatchObject({ status: 'confirmed', isPaymentConfirmed: true });
  });
});

describe('the payment page and the development simulator', () => {
  it('the paymentURL page posts the Idram form, with its own CSP allowing the form and one script', async () => {
    const a = await createTeam();
    const id = await order(a.manager, { amount: 1, userToBePaidId: a.agents[0].id });
    const page = await call('GET', `/api/payment/idram/pay/${id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    for (const field of ['EDP_LANGUAGE', 'EDP_REC_ACCOUNT', 'EDP_DESCRIPTION', 'EDP_AMOUNT', 'EDP_BILL_NO']) expect(page.text).toContain(`name="${field}"`);
    expect(page.text).toContain(`name="EDP_AMOUNT" value="${PRICE}.00"`);
    expect(page.text).toContain(`name="EDP_BILL_NO" value="${id}"`);
    expect(page.text).toContain(`name="EDP_REC_ACCOUNT" value="${ACCOUNT}"`);
    expect(page.text).toContain('action="http://localhost/api/payment/idram/simulator"');
    const csp = page.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([0-9a-f]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(page.text).toContain(`<script nonce="${nonce}">`);
    expect(csp).toContain("form-action 'self' http://localhost");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('the public payment page shows no e-mail: an order for an agent names it by initials only (decision 0061)', async () => {
    const director = await createUser('director');
    const manager = await createUser('manager', { parentId: director.id, name: 'Mara Manager' });
    const agent = await createUser('agent', { parentId: manager.id, name: 'arto  van Agent' });
    const forAgent = await order(manager, { amount: 3, userToBePaidId: agent.id });
    const page = await call('GET', `/api/payment/idram/pay/${forAgent}`);
    expect(page.status).toBe(200);
    for (const email of [manager.email, agent.email]) expect(page.text.toLowerCase()).not.toContain(email.toLowerCase());
    expect(page.text).not.toMatch(/@test\.example/);
    expect(page.text).not.toContain('EDP_EMAIL');
    expect(page.text).toContain('name="EDP_DESCRIPTION" value="FreightDesk subscription, 3 months for A. V. A."');
    // an order for oneself names nobody
    const own = await call('GET', `/api/payment/idram/pay/${await order(manager, { amount: 1 })}`);
    expect(own.text).toContain('name="EDP_DESCRIPTION" value="FreightDesk subscription, 1 month"');
    expect(own.text.toLowerCase()).not.toContain(manager.email.toLowerCase());
    // the simulator (Idram's stand-in) receives the same form and shows no e-mail either
    const fields = Object.fromEntries([...page.text.matchAll(/<input type="hidden" name="([A-Z_]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
    const sim = await call('POST', '/api/payment/idram/simulator', form(fields));
    expect(sim.text).toContain('FreightDesk subscription, 3 months for A. V. A.');
    expect(sim.text).not.toMatch(/@test\.example/);
  });

  it('in production the page posts to IDRAM_PAYMENT_URL and the simulator does not exist', async () => {
    const user = await createUser('manager');
    const id = await order(user, { amount: 1 });
    const page = await fetchWith({ ENVIRONMENT: 'production' }, `/api/payment/idram/pay/${id}`);
    const html = await page.text();
    expect(html).toContain(`action="${testEnv.IDRAM_PAYMENT_URL}"`);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://banking.idram.am");
    for (const path of ['/api/payment/idram/simulator', '/api/payment/idram/simulator/complete']) {
      const res = await fetchWith({ ENVIRONMENT: 'production' }, path, { method: 'POST', ...form({ EDP_BILL_NO: id, action: 'pay' }) });
      expect(res.status).toBe(404);
    }
    expect((await row(id)).isPaymentConfirmed).toBe(false);
  });

  it('the simulator shows the order and Pay sends both callbacks, then returns the browser to the result page', async () => {
    const user = await createUser('manager', { subscriptionDays: -3 });
    const id = await order(user, { amount: 1 });
    const fields = {
      EDP_LANGUAGE: 'EN',
      EDP_REC_ACCOUNT: ACCOUNT,
      EDP_DESCRIPTION: 'FreightDesk subscription, 1 month',
      EDP_AMOUNT: `${PRICE}.00`,
      EDP_BILL_NO: id,
    };
    const sim = await call('POST', '/api/payment/idram/simulator', form(fields));
    expect(sim.status).toBe(200);
    expect(sim.text).toContain('Idram');
    expect(sim.text).toContain('5,000 AMD');
    expect(sim.text).toContain('FreightDesk subscription, 1 month');
    expect(sim.text).toMatch(/<button[^>]*value="pay"[^>]*>Pay<\/button>/);
    expect(sim.text).toMatch(/<button[^>]*value="decline"[^>]*>Decline<\/button>/);
    expect(sim.headers.get('content-security-policy')).toContain("form-action 'self'");
    const done = await call('POST', '/api/payment/idram/simulator/complete', form({ ...fields, action: 'pay' }));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/paymentResult/confirmed');
    expect(await row(id)).toMatchObject({ isPaymentConfirmed: true, isOrderConfirmationReceived: true });
    expect((await row(id)).transId).toHaveLength(14);
    expect((await call('GET', '/api/subscription/status', { token: user.token })).body.isSubscriptionActive).toBe(true);
    // paying twice (a back button) changes nothing
    const end = await endOf(user.id);
    expect((await call('POST', '/api/payment/idram/simulator/complete', form({ ...fields, action: 'pay' }))).headers.get('location')).toBe(
      '/paymentResult/failed',
    );
    expect(await endOf(user.id)).toBe(end);
  });

  it('Decline leaves the order Declined and unpaid', async () => {
    const user = await createUser('manager', { subscriptionDays: -3 });
    const id = await order(user, { amount: 1 });
    const declined = await call(
      'POST',
      '/api/payment/idram/simulator/complete',
      form({ EDP_BILL_NO: id, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: `${PRICE}.00`, action: 'decline' }),
    );
    expect(declined.headers.get('location')).toBe('/paymentResult/failed');
    expect((await call('GET', '/api/payment/paymentHistory', { token: user.token })).body[0]).toMatchObject({
      _id: id,
      status: 'Declined',
      isPaymentConfirmed: false,
    });
    expect(await stubOf(id).status()).toBe('failed');
    expect((await call('GET', `/api/payment/idram/pay/${id}`)).status).toBe(303);
  });
});

describe('promo discount', () => {
  it('is priced into the order, shown by monthlyprice, and spent by the confirmation, once', async () => {
    const user = await createUser('manager');
    const { useId, name } = await addDiscount(user, 25);
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body).toEqual({
      price: PRICE,
      currency: 'AMD',
      discountPercent: 25,
      promoName: name,
      upcoming: null,
    });
    const id = await order(user, { amount: 2 });
    const total = Math.round(2 * PRICE * 0.75);
    expect(await row(id)).toMatchObject({ priceTotal: total, promoUseId: useId, monthlyPrice: PRICE });
    // not spent until paid
    expect((await promoUse(useId)).orderId).toBeNull();
    expect(await precheck(id, String(2 * PRICE))).toBe('Wrong amount');
    expect(await precheck(id, `${total}.00`)).toBe('OK');
    expect(await result(await confirmation(id, String(total)))).toBe('OK');
    expect((await promoUse(useId)).orderId).toBe(id);
    expect(await result(await confirmation(id, String(total)))).toBe('OK');
    expect((await promoUse(useId)).orderId).toBe(id);
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body).toMatchObject({ discountPercent: 0, promoName: null });
    expect((await row(await order(user, { amount: 1 }))).priceTotal).toBe(PRICE);
  });

  it('two orders opened with one pending discount: only the first paid spends it; the second precheck is refused', async () => {
    const user = await createUser('manager');
    const { useId } = await addDiscount(user, 50);
    const first = await order(user, { amount: 1 });
    const second = await order(user, { amount: 1 });
    const half = String(PRICE / 2);
    expect(await result(await confirmation(second, half))).toBe('OK');
    expect((await promoUse(useId)).orderId).toBe(second);
    expect(await precheck(first, half)).toBe('The promo discount was already used');
    expect((await row(first)).isPaymentConfirmed).toBe(false);
  });

  it('a 100% discount confirms the order at once, without Idram', async () => {
    const user = await createUser('manager', { subscriptionDays: -1 });
    const { useId } = await addDiscount(user, 100);
    const id = await order(user, { amount: 1 });
    expect(await row(id)).toMatchObject({ priceTotal: 0, isPaymentConfirmed: true, transId: null, status: 'confirmed' });
    expect((await promoUse(useId)).orderId).toBe(id);
    const link = await call('POST', '/api/payment/getPaymentLink', { token: user.token, body: { orderId: id } });
    expect(link.body).toMatchObject({ isLinkGenerated: true, isLinkGenerationFailed: false, paymentURL: 'http://localhost/paymentResult/confirmed' });
    expect((await call('GET', '/api/subscription/status', { token: user.token })).body.isSubscriptionActive).toBe(true);
  });

  it('the total is in whole AMD, rounded, never below zero (the one price function the screen shows too)', () => {
    expect(priceFor(5000, 2, 0)).toBe(10_000);
    expect(priceFor(5000, 3, 15)).toBe(12_750);
    expect(priceFor(999, 1, 50)).toBe(500);
    expect(priceFor(7333, 7, 33)).toBe(34_392);
    expect(priceFor(5000, 36, 100)).toBe(0);
  });
});

/** Marketing creates a named discount or free-months code with `maxUses` uses; `who` uses it through the API. */
async function applyNewCode(who: TestUser, effectType: 'discountPercent' | 'freeMonths', effectValue: number, maxUses = 5) {
  const marketing = await createUser('marketing');
  const name = `RACE${randomId(8)}`.toUpperCase();
  const made = await call('POST', '/api/promocode/create', { token: marketing.token, body: { name, effectType, effectValue, maxUses, isPublic: true } });
  expect(made.status, made.text).toBe(200);
  const used = await call('POST', '/api/promocode/usePromoCode', { token: who.token, body: { promoName: name } });
  expect(used.status, used.text).toBe(200);
  const [use] = await control.select().from(promoUses).where(eq(promoUses.userId, who.id));
  return use!.id;
}
const ordersOf = (payer: TestUser) => control.select().from(payments).where(eq(payments.payerUserId, payer.id));
/** `n` generateLink calls at once; every answer must be a 200 or the documented 409, never a 5xx. */
async function orderAtOnce(who: TestUser, n: number, amount: number) {
  const answers = await Promise.all(
    Array.from({ length: n }, () => call('POST', '/api/payment/generateLink', { token: who.token, body: { amount, paymentType: 'idram' } })),
  );
  for (const a of answers) {
    expect([200, 409], a.text).toContain(a.status);
    if (a.status === 409) expect(a.body).toEqual(errorBody(PAYMENT_MESSAGES.discountUsed));
  }
  return answers;
}

// each test runs 3 rounds of 30 requests at once: slower than one call on a busy machine
describe('one discount, many orders at once (decision 0003)', { timeout: 180_000 }, () => {
  it('a 100% code and 30 concurrent orders for 36 months: one free order, 36 months once, 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const manager = await createUser('manager', { subscriptionDays: null });
      const useId = await applyNewCode(manager, 'discountPercent', 100);
      const before = new Date();
      const answers = await orderAtOnce(manager, 30, 36);
      const after = new Date();
      const orders = await ordersOf(manager);
      // every 200 recorded one order; a 409 recorded nothing
      expect(orders).toHaveLength(answers.filter((a) => a.status === 200).length);
      const confirmed = orders.filter((o) => o.isPaymentConfirmed);
      expect(confirmed).toHaveLength(1);
      expect(confirmed[0]).toMatchObject({ priceTotal: 0, promoUseId: useId, status: 'confirmed', amount: 36 });
      for (const o of orders.filter((x) => !x.isPaymentConfirmed))
        expect(o).toMatchObject({ priceTotal: 36 * PRICE, promoUseId: null, status: 'link_generated' });
      expect((await promoUse(useId)).orderId).toBe(confirmed[0]!.id);
      const end = (await getUser(manager.id))!.subscriptionEndDate!.getTime();
      expect(end).toBeGreaterThanOrEqual(extendByMonths(null, 36, before).getTime());
      expect(end).toBeLessThanOrEqual(extendByMonths(null, 36, after).getTime());
      expect((await call('GET', '/api/payment/monthlyprice', { token: manager.token })).body).toMatchObject({ discountPercent: 0 });
    }
  });

  it('a 50% code, 30 concurrent orders and 10 of them paid at once through Idram: one gets the discount, nine need a refund, 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const manager = await createUser('manager', { subscriptionDays: null });
      const useId = await applyNewCode(manager, 'discountPercent', 50);
      const answers = await orderAtOnce(manager, 30, 2);
      expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
      const ids = answers.map((a) => a.body.orderId as string);
      for (const o of await ordersOf(manager)) expect(o).toMatchObject({ priceTotal: PRICE, promoUseId: useId, isPaymentConfirmed: false });
      const paid = ids.slice(0, 10);
      // Idram prechecks all ten (the discount is still pending), then confirms all ten at once
      expect(await Promise.all(paid.map((id) => precheck(id, String(PRICE))))).toEqual(Array(10).fill('OK'));
      const confs = await Promise.all(paid.map((id) => confirmation(id, String(PRICE))));
      const before = new Date();
      expect(await Promise.all(confs.map(result))).toEqual(Array(10).fill('OK'));
      const after = new Date();

      const rows = await Promise.all(paid.map(row));
      const winner = rows.filter((r) => r.isPaymentConfirmed);
      expect(winner).toHaveLength(1);
      expect((await promoUse(useId)).orderId).toBe(winner[0]!.id);
      const end = (await getUser(manager.id))!.subscriptionEndDate!.getTime();
      expect(end).toBeGreaterThanOrEqual(extendByMonths(null, 2, before).getTime());
      expect(end).toBeLessThanOrEqual(extendByMonths(null, 2, after).getTime());
      // the money of the other nine is recorded as received and owed back; nothing extended
      for (const [i, r] of rows.entries()) {
        if (r.isPaymentConfirmed) continue;
        expect(r).toMatchObject({ status: 'needs_refund', isOrderConfirmationReceived: true, transId: confs[i]!.EDP_TRANS_ID, payerAccount: '100000000001' });
      }
      const history = (await call('GET', '/api/payment/paymentHistory', { token: manager.token })).body as { _id: string; status: string }[];
      expect(history.filter((h) => h.status === 'Needs refund')).toHaveLength(9);
      expect(history.filter((h) => h.status === 'confirmed')).toHaveLength(1);
      // replays of the nine answer OK and change nothing; the twenty unpaid orders are refused at precheck
      expect(await Promise.all(confs.map(result))).toEqual(Array(10).fill('OK'));
      expect((await getUser(manager.id))!.subscriptionEndDate!.getTime()).toBe(end);
      expect((await Promise.all(paid.map(row))).map((r) => r.status).sort()).toEqual(rows.map((r) => r.status).sort());
      expect(new Set(await Promise.all(ids.slice(10).map((id) => precheck(id, String(PRICE)))))).toEqual(new Set(['The promo discount was already used']));
    }
  });

  it('30 concurrent confirmations of 30 orders for one payee add every month, 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const manager = await createUser('manager', { subscriptionDays: 20 });
      const start = (await getUser(manager.id))!.subscriptionEndDate!;
      const answers = await orderAtOnce(manager, 30, 1);
      expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
      const confs = await Promise.all(answers.map((a) => confirmation(a.body.orderId, String(PRICE))));
      expect(await Promise.all(confs.map(result))).toEqual(Array(30).fill('OK'));
      expect((await ordersOf(manager)).filter((o) => o.isPaymentConfirmed)).toHaveLength(30);
      expect((await getUser(manager.id))!.subscriptionEndDate!.getTime()).toBe(extendByMonths(start, 30, start).getTime());
    }
  });

  it('a free-months code used while payments land at once gives exactly its months, 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const marketing = await createUser('marketing');
      const name = `FREE${randomId(8)}`.toUpperCase();
      const made = await call('POST', '/api/promocode/create', {
        token: marketing.token,
        body: { name, effectType: 'freeMonths', effectValue: 3, maxUses: 5, isPublic: true },
      });
      expect(made.status).toBe(200);
      const user = await createUser('manager', { subscriptionDays: 20 });
      const start = (await getUser(user.id))!.subscriptionEndDate!;
      const ids = (await orderAtOnce(user, 20, 1)).map((a) => a.body.orderId as string);
      const confs = await Promise.all(ids.map((id) => confirmation(id, String(PRICE))));
      // ten uses of the code and twenty payments, all at once
      const [uses, paid] = await Promise.all([
        Promise.all(Array.from({ length: 10 }, () => call('POST', '/api/promocode/usePromoCode', { token: user.token, body: { promoName: name } }))),
        Promise.all(confs.map(result)),
      ]);
      expect(paid).toEqual(Array(20).fill('OK'));
      expect(uses.filter((u) => u.status === 200)).toHaveLength(1);
      for (const u of uses.filter((x) => x.status !== 200)) expect([u.status, u.body.message]).toEqual([400, 'Promo code is already used']);
      expect((await control.select().from(promoCodes).where(eq(promoCodes.name, name)))[0]!.usedCount).toBe(1);
      // 3 free months + 20 paid months, from the end date the user had
      expect((await getUser(user.id))!.subscriptionEndDate!.getTime()).toBe(extendByMonths(start, 23, start).getTime());
    }
  });
});

describe('GET /api/payment/paymentHistory', () => {
  it("the admin's Payments screen lists every company's payments, on every shard, with their users' names", async () => {
    const teams = [await createTeam(), await createTeam(), await createTeam()];
    // new companies go to the emptiest shard: three teams in a row land on three shards
    expect(new Set(teams.map((t) => t.manager.shard)).size).toBe(3);
    const paid: { id: string; team: (typeof teams)[number] }[] = [];
    for (const team of teams) {
      const id = await order(team.manager, { amount: 1, userToBePaidId: team.agents[0].id });
      expect(await result(await confirmation(id, String(PRICE)))).toBe('OK');
      paid.push({ id, team });
    }
    const admin = await createUser('admin');
    const list = (await call('GET', '/api/payment/paymentHistory', { token: admin.token })).body as PaymentDtoLike[];
    for (const { id, team } of paid)
      expect(list.find((p) => p._id === id)).toMatchObject({
        status: 'confirmed',
        user: { _id: team.agents[0].id, name: team.agents[0].name, email: team.agents[0].email },
        payerUser: { _id: team.manager.id, name: team.manager.name, email: team.manager.email },
      });
    const summary = (await call('GET', '/api/payment/summary', { token: admin.token })).body;
    expect(summary.confirmedCount).toBe(list.filter((p) => p.isPaymentConfirmed).length);
    // each team sees its own, named from its own shard
    for (const { id, team } of paid) {
      const own = (await call('GET', '/api/payment/paymentHistory', { token: team.manager.token })).body as PaymentDtoLike[];
      expect(own.map((p) => p._id)).toEqual([id]);
      expect(own[0]!.user).toMatchObject({ name: team.agents[0].name });
      const receipt = await call('GET', `/api/payment/receipt/${id}`, { token: admin.token });
      expect(receipt.body.payer).toEqual({ _id: team.manager.id, name: team.manager.name, email: team.manager.email });
    }
  });

  it("lists the caller's payments as payer or payee with the spec's fields; the admin sees all", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const mine = await order(a.manager, { amount: 1 });
    const forAgent = await order(a.manager, { amount: 2, userToBePaidId: a.agents[0].id });
    await result(await confirmation(forAgent, String(2 * PRICE)));
    const otherTeam = await order(b.manager, { amount: 1 });

    const list = (await call('GET', '/api/payment/paymentHistory', { token: a.manager.token })).body;
    expect(list.map((p: { _id: string }) => p._id)).toEqual([forAgent, mine]);
    // one order number everywhere: index is the product-wide number its receipt shows
    expect(list[0]).toEqual({
      _id: forAgent,
      index: (await row(forAgent)).globalIndex,
      globalIndex: (await row(forAgent)).globalIndex,
      type: 'Idram',
      user: { _id: a.agents[0].id, name: a.agents[0].name, email: a.agents[0].email },
      payerUser: { _id: a.manager.id, name: a.manager.name, email: a.manager.email },
      dateCreated: (await row(forAgent)).dateCreated.toISOString(),
      amount: 2,
      priceTotal: 2 * PRICE,
      isLinkGenerationFailed: false,
      isOrderConfirmationReceived: true,
      isPaymentConfirmed: true,
      status: 'confirmed',
      expiresAt: null,
      canCancel: false,
      kind: 'single',
      items: [],
      refunded: 0,
      refunds: [],
    });
    const waiting = await row(mine);
    expect(list[1]).toMatchObject({
      index: waiting.globalIndex,
      status: 'Waiting for payment',
      isPaymentConfirmed: false,
      expiresAt: new Date(waiting.dateCreated.getTime() + ORDER_TTL_MS).toISOString(),
      canCancel: true,
    });
    const receipt = await call('GET', `/api/payment/receipt/${forAgent}`, { token: a.manager.token });
    expect(receipt.body.orderNumber).toBe(list[0].index);
    expect((await call('GET', '/api/payment/paymentHistory', { token: a.agents[0].token })).body.map((p: { _id: string }) => p._id)).toEqual([forAgent]);
    expect((await call('GET', '/api/payment/paymentHistory', { token: a.agents[1].token })).body).toEqual([]);
    expect((await call('GET', '/api/payment/paymentHistory', { token: a.director.token })).body).toEqual([]);
    const all = (await call('GET', '/api/payment/paymentHistory', { token: (await createUser('admin')).token })).body.map((p: { _id: string }) => p._id);
    for (const id of [mine, forAgent, otherTeam]) expect(all).toContain(id);
    expect((await call('GET', '/api/payment/paymentHistory', { token: (await createUser('marketing')).token })).status).toBe(403);
    expect((await call('GET', '/api/payment/paymentHistory')).status).toBe(401);
  });
});

describe('/api/subscription', () => {
  it('status answers active, days left and end date; staff are always active', async () => {
    const active = await createUser('agent', { subscriptionDays: 10.5 });
    // days left are calendar days on Yerevan's clock (UTC+4): an end at 18:00 there, ten days on,
    // is 10 days left at any hour of today (10.5 days from now would be 10 or 11 by the hour)
    const yerevanToday = Math.floor((Date.now() + 4 * 3_600_000) / 86_400_000) * 86_400_000 - 4 * 3_600_000;
    await active.db
      .update(users)
      .set({ subscriptionEndDate: new Date(yerevanToday + 10 * 86_400_000 + 18 * 3_600_000) })
      .where(eq(users.id, active.id));
    expect((await call('GET', '/api/subscription/status', { token: active.token })).body).toMatchObject({
      isSubscriptionActive: true,
      subscriptionDaysLeft: 10,
    });
    const expired = await createUser('manager', { subscriptionDays: -1 });
    expect((await call('GET', '/api/subscription/status', { token: expired.token })).body).toMatchObject({
      isSubscriptionActive: false,
      subscriptionDaysLeft: 0,
    });
    const none = await createUser('director', { subscriptionDays: null });
    expect((await call('GET', '/api/subscription/status', { token: none.token })).body).toEqual({
      isSubscriptionActive: false,
      subscriptionDaysLeft: 0,
      subscriptionEndDate: null,
    });
    expect(
      (await call('GET', '/api/subscription/status', { token: (await createUser('marketing', { subscriptionDays: null })).token })).body.isSubscriptionActive,
    ).toBe(true);
    expect((await call('GET', '/api/subscription/status')).status).toBe(401);
  });

  it("childUsersSubscriptions lists a manager's team with their status, scoped by the tree", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const unverified = await createUser('agent', { parentId: a.manager.id, isEmailVerified: false, subscriptionDays: -2 });
    const ask = (who: TestUser, body: object) => call('POST', '/api/subscription/childUsersSubscriptions', { token: who.token, body });

    const withMe = await ask(a.manager, { parentId: a.manager.id, includeParent: true });
    expect(withMe.status).toBe(200);
    expect(withMe.body.map((u: { _id: string }) => u._id).sort()).toEqual([a.manager.id, a.agents[0].id, a.agents[1].id, unverified.id].sort());
    const agentsOnly = (await ask(a.manager, { parentId: a.manager.id, includeParent: false })).body;
    expect(agentsOnly).toHaveLength(3);
    expect(agentsOnly.find((u: { _id: string }) => u._id === unverified.id)).toEqual({
      _id: unverified.id,
      name: unverified.name,
      email: unverified.email,
      userType: 'agent',
      isEmailVerified: false,
      isSubscriptionActive: false,
      subscriptionDaysLeft: 0,
      subscriptionEndDate: (await getUser(unverified.id))!.subscriptionEndDate!.toISOString(),
    });
    expect(agentsOnly.find((u: { _id: string }) => u._id === a.agents[0].id)).toMatchObject({ isEmailVerified: true, isSubscriptionActive: true });
    // an expired manager still sees whom it can pay for
    await a.manager.db
      .update(users)
      .set({ subscriptionEndDate: new Date(Date.now() - DAY) })
      .where(eq(users.id, a.manager.id));
    expect((await ask(a.manager, { parentId: a.manager.id })).status).toBe(200);

    expect((await ask(a.director, { parentId: a.manager.id })).body).toHaveLength(3);
    expect((await ask(await createUser('admin'), { parentId: b.manager.id })).body).toHaveLength(2);
    expect((await ask(a.manager, { parentId: b.manager.id })).status).toBe(404);
    expect((await ask(a.director, { parentId: b.manager.id })).status).toBe(404);
    expect((await ask(a.agents[0], { parentId: a.manager.id })).status).toBe(403);
    expect((await ask(await createUser('marketing'), { parentId: a.manager.id })).status).toBe(403);
    expect((await ask(a.manager, {})).body).toEqual(errorBody(USER_MESSAGES.chooseManager));
    expect((await call('POST', '/api/subscription/childUsersSubscriptions', { body: { parentId: a.manager.id } })).status).toBe(401);
  });
});

describe('payment status labels', () => {
  const base = { isPaymentConfirmed: false, isLinkGenerationFailed: false, type: 'idram', priceTotal: PRICE } as const;
  it("an order still open on Idram's page waits for payment until it expires, then reads Expired; a canceled one Canceled", () => {
    const now = Date.now();
    expect(ORDER_TTL_MS).toBe(30 * 60_000);
    for (const status of ['requested', 'link_generated', 'prechecked'] as const) {
      expect(svc.label({ ...base, status, dateCreated: new Date(now - 5 * 60_000) }, 0, now)).toBe('Waiting for payment');
      expect(svc.label({ ...base, status, dateCreated: new Date(now - ORDER_TTL_MS + 1) }, 0, now)).toBe('Waiting for payment');
      // past the order's lifetime, even before its alarm has run
      expect(svc.label({ ...base, status, dateCreated: new Date(now - ORDER_TTL_MS) }, 0, now)).toBe('Expired');
    }
    expect(svc.label({ ...base, status: 'expired', dateCreated: new Date(now - 60_000) }, 0, now)).toBe('Expired');
    expect(svc.label({ ...base, status: 'canceled', dateCreated: new Date(now - 60_000) }, 0, now)).toBe('Canceled');
    expect(svc.label({ ...base, status: 'failed', dateCreated: new Date(now) }, 0, now)).toBe('Declined');
    expect(svc.label({ ...base, status: 'link_failed', isLinkGenerationFailed: true, dateCreated: new Date(now) }, 0, now)).toBe('redirect fail');
    expect(svc.label({ ...base, status: 'confirmed', isPaymentConfirmed: true, dateCreated: new Date(now) }, 0, now)).toBe('confirmed');
  });
});
