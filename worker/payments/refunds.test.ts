import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentRefunds, promoCodes, promoUses } from '../db/schema';
import { randomId } from '../lib/ids';
import { removeMonths } from '../lib/subscription';
import { call, control, countRows, createTeam, createUser, errorBody, getUser, type TestUser } from '../test/helpers';
import { confirmation, order, PRICE, pay, paymentRow, precheck, result } from '../test/idram';
import { PAYMENT_MESSAGES } from './payments.messages';
import { MAX_REFUND_REASON } from './payments.schema';

const refundsOf = (paymentId: string) => control.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
const endOf = async (who: { id: string }) => (await getUser(who.id))!.subscriptionEndDate!.getTime();
const summary = async (admin: TestUser) => (await call('GET', '/api/payment/summary', { token: admin.token })).body;
const refund = (admin: TestUser, body: object) => call('POST', '/api/payment/refund', { token: admin.token, body: { reason: 'Customer asked', ...body } });
const historyRow = async (who: TestUser, id: string) =>
  (await call('GET', '/api/payment/paymentHistory', { token: who.token })).body.find((p: { _id: string }) => p._id === id);

describe('POST /api/payment/refund (rule 0120)', () => {
  it('records money given back and the months taken back from the payee, in the totals net of refunds', async () => {
    const admin = await createUser('admin');
    const team = await createTeam();
    const [agent] = team.agents;
    const id = await order(team.manager, { amount: 3, userToBePaidId: agent.id });
    await pay(id);
    const before = await summary(admin);
    const end = await endOf(agent);

    const first = await refund(admin, { paymentId: id, amount: PRICE, monthsRemoved: 1, reason: 'One month was not used' });
    expect(first).toMatchObject({ status: 200, body: { message: 'Refund recorded', refunded: PRICE, leftToRefund: 2 * PRICE } });
    expect(await endOf(agent)).toBe(removeMonths(new Date(end), 1).getTime());
    expect(await refundsOf(id)).toMatchObject([{ amount: PRICE, monthsRemoved: 1, userId: agent.id, reason: 'One month was not used', createdBy: admin.id }]);
    const after = await summary(admin);
    expect(after.confirmedTotal).toBe(before.confirmedTotal);
    expect(after.refundedTotal - before.refundedTotal).toBe(PRICE);
    expect(after.netRevenue).toBe(before.netRevenue - PRICE);
    expect(after.netRevenue).toBe(after.confirmedTotal - after.refundedTotal);
    expect(after.monthsSold).toBe(before.monthsSold - 1);

    // in the payer's and the payee's history, and on the receipt
    expect(await historyRow(team.manager, id)).toMatchObject({
      status: 'confirmed',
      refunded: PRICE,
      refunds: [{ amount: PRICE, monthsRemoved: 1, reason: 'One month was not used', user: { _id: agent.id } }],
    });
    expect(await historyRow(agent, id)).toMatchObject({ refunded: PRICE, refunds: [{ monthsRemoved: 1 }] });
    expect((await call('GET', `/api/payment/receipt/${id}`, { token: team.manager.token })).body.refunds).toMatchObject([{ amount: PRICE, monthsRemoved: 1 }]);

    // the rest, money only: the payment reads Refunded
    expect((await refund(admin, { paymentId: id, amount: 2 * PRICE })).body).toMatchObject({ refunded: 3 * PRICE, leftToRefund: 0 });
    expect(await endOf(agent)).toBe(removeMonths(new Date(end), 1).getTime());
    expect((await historyRow(team.manager, id)).status).toBe('Refunded');
    expect((await summary(admin)).netRevenue).toBe(before.netRevenue - 3 * PRICE);
    expect(await refund(admin, { paymentId: id, amount: 1 })).toMatchObject({ status: 400, body: { message: 'At most 0 AMD is left to refund' } });
  });

  it('refuses what the payment cannot give back, with a message, and records nothing', async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const paid = await order(manager, { amount: 2 });
    await pay(paid);
    const unpaid = await order(manager, { amount: 1 });
    const rows = await countRows('payment_refunds');
    const end = await endOf(manager);
    const cases: [object, number, string][] = [
      [{ paymentId: paid, amount: 2 * PRICE + 1 }, 400, `At most ${(2 * PRICE).toLocaleString('en-US')} AMD is left to refund`],
      [{ paymentId: paid, amount: 0, monthsRemoved: 3 }, 400, 'At most 2 months can be taken back'],
      [{ paymentId: paid, amount: 0, monthsRemoved: 0 }, 400, 'Give an amount or months to take back'],
      [{ paymentId: paid, amount: -5 }, 400, 'Refund amount: a whole number of AMD, 0 or more'],
      [{ paymentId: paid, amount: 10.5 }, 400, 'Refund amount: a whole number of AMD, 0 or more'],
      [{ paymentId: paid, amount: 100, reason: '   ' }, 400, 'Give a reason for the refund'],
      [{ paymentId: paid, amount: 100, monthsRemoved: 37 }, 400, 'Months to take back: a whole number from 0 to 36'],
      [{ paymentId: paid, amount: 100, monthsRemoved: 1, userId: 'someone-else' }, 400, 'Choose whose months to take back'],
      [{ paymentId: unpaid, amount: 100 }, 400, 'Only a paid payment can be refunded'],
      [{ paymentId: 'no-such-payment', amount: 100 }, 404, 'Payment not found'],
      [{ amount: 100 }, 400, 'Payment not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await refund(admin, body);
      expect([res.status, res.body?.message], JSON.stringify(body)).toEqual([status, message]);
    }
    const long = await refund(admin, { paymentId: paid, amount: 100, reason: 'x'.repeat(MAX_REFUND_REASON + 1) });
    expect([long.status, long.body]).toEqual([400, errorBody(PAYMENT_MESSAGES.refundReasonLong, { max: MAX_REFUND_REASON })]);
    expect(long.body.message).toBe('Reason: at most 500 characters');
    expect(await countRows('payment_refunds')).toBe(rows);
    expect(await endOf(manager)).toBe(end);
    // the admin only
    for (const who of [manager, await createUser('director'), await createUser('agent'), await createUser('marketing')])
      expect((await refund(who, { paymentId: paid, amount: 100 })).status).toBe(403);
    expect((await call('POST', '/api/payment/refund', { body: { paymentId: paid, amount: 100, reason: 'x' } })).status).toBe(401);
  });

  it('30 refunds at once on one payment, 3 rounds: never more than it charged nor the months it bought', { timeout: 120_000 }, async () => {
    const admin = await createUser('admin');
    for (let round = 0; round < 3; round++) {
      const manager = await createUser('manager', { subscriptionDays: 10 });
      const id = await order(manager, { amount: 5 });
      await pay(id);
      const end = await endOf(manager);
      const answers = await Promise.all(Array.from({ length: 30 }, () => refund(admin, { paymentId: id, amount: PRICE, monthsRemoved: 1 })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
      for (const a of answers.filter((x) => x.status !== 200)) expect([a.status, a.body.message]).toEqual([400, 'At most 0 AMD is left to refund']);
      const rows = await refundsOf(id);
      expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(5 * PRICE);
      expect(rows.reduce((s, r) => s + r.monthsRemoved, 0)).toBe(5);
      expect(await endOf(manager)).toBe(removeMonths(new Date(end), 5).getTime());
    }
  });

  it('a team order: months come back from the agent named; a Needs refund payment is refunded in money and leaves the owed figure', async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager', { subscriptionDays: 20 });
    const a1 = await createUser('agent', { parentId: manager.id, subscriptionDays: 10 });
    const a2 = await createUser('agent', { parentId: manager.id, subscriptionDays: 10 });
    const team = await call('POST', '/api/payment/generateTeamLink', { token: manager.token, body: { userIds: [a1.id, a2.id], amount: 2 } });
    await pay(team.body.orderId);
    const [end1, end2] = [await endOf(a1), await endOf(a2)];
    expect(await refund(admin, { paymentId: team.body.orderId, amount: 2 * PRICE, monthsRemoved: 2 })).toMatchObject({
      status: 400,
      body: { message: 'Choose whose months to take back' },
    });
    expect((await refund(admin, { paymentId: team.body.orderId, amount: 2 * PRICE, monthsRemoved: 2, userId: a2.id })).status).toBe(200);
    expect([await endOf(a1), await endOf(a2)]).toEqual([end1, removeMonths(new Date(end2), 2).getTime()]);
    expect(await refund(admin, { paymentId: team.body.orderId, amount: 0, monthsRemoved: 1, userId: a2.id })).toMatchObject({
      status: 400,
      body: { message: 'At most 0 months can be taken back' },
    });
    // the agent whose months came back sees that refund; the other sees none
    expect((await historyRow(a2, team.body.orderId)).refunds).toMatchObject([{ monthsRemoved: 2, amount: 0 }]);
    expect((await historyRow(a1, team.body.orderId)).refunds).toEqual([]);

    // two orders paid at once with one 50% discount: the second is Needs refund
    const payer = await createUser('manager');
    const promoId = randomId();
    await control
      .insert(promoCodes)
      .values({ id: promoId, name: `N${promoId}`.toUpperCase(), effectType: 'discountPercent', effectValue: 50, createdBy: admin.id, createdAt: new Date() });
    await control.insert(promoUses).values({ id: randomId(), promoId, userId: payer.id, useDate: new Date() });
    const [x, y] = [await order(payer, { amount: 1 }), await order(payer, { amount: 1 })];
    const half = String(PRICE / 2);
    for (const o of [x, y]) expect(await precheck(o, half)).toBe('OK');
    for (const o of [x, y]) expect(await result(await confirmation(o, half))).toBe('OK');
    expect((await paymentRow(y)).status).toBe('needs_refund');
    const owedBefore = await summary(admin);
    expect(await refund(admin, { paymentId: y, amount: 0, monthsRemoved: 1 })).toMatchObject({
      status: 400,
      body: { message: 'This payment extended no subscription: no months to take back' },
    });
    expect((await refund(admin, { paymentId: y, amount: PRICE / 2, reason: 'Discount already used' })).status).toBe(200);
    const owedAfter = await summary(admin);
    expect(owedAfter.owedTotal).toBe(owedBefore.owedTotal - PRICE / 2);
    expect(owedAfter.owedCount).toBe(owedBefore.owedCount - 1);
    // not revenue: the confirmed figures do not move
    expect(owedAfter.netRevenue).toBe(owedBefore.netRevenue);
    expect((await historyRow(payer, y)).status).toBe('Refunded');
  });
});
