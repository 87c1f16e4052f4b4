import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentReceipts, promoCodes, promoUses } from '../db/schema';
import { randomId } from '../lib/ids';
import { mailDay } from '../lib/mailer';
import { call, control, createTeam, createUser, getUser, type TestUser } from '../test/helpers';
import { confirmation, mailsTo, order, PRICE, pay, paymentRow, precheck, result } from '../test/idram';

const receiptsOf = (orderId: string) => control.select().from(paymentReceipts).where(eq(paymentReceipts.paymentId, orderId));
const receiptMails = async (who: TestUser, orderNumber: number) =>
  (await mailsTo(who.email)).filter((m) => m.subject === `Receipt for your FreightDesk order #${orderNumber}`);
const getReceipt = (who: TestUser | null, id: string) => call('GET', `/api/payment/receipt/${id}`, who ? { token: who.token } : {});

async function addDiscount(user: TestUser, percent: number) {
  const promoId = randomId();
  const name = `R${promoId}`.toUpperCase();
  await control
    .insert(promoCodes)
    .values({ id: promoId, name, effectType: 'discountPercent', effectValue: percent, createdBy: user.id, createdAt: new Date() });
  await control.insert(promoUses).values({ id: randomId(), promoId, userId: user.id, useDate: new Date() });
  return name;
}

describe('receipts (decision 0012)', () => {
  it('a confirmed payment mails the payer one receipt with the order number, months, price, transaction id and new end date', async () => {
    const manager = await createUser('manager', { subscriptionDays: 3 });
    const id = await order(manager, { amount: 2 });
    const conf = await pay(id);
    const row = await paymentRow(id);
    const end = (await getUser(manager.id))!.subscriptionEndDate!;
    expect(row.newEndDate?.getTime()).toBe(end.getTime());

    const mails = await receiptMails(manager, row.globalIndex);
    expect(mails).toHaveLength(1);
    const text = mails[0]!.text;
    expect(text).toContain(`Order: #${row.globalIndex}`);
    expect(text).toContain(`Idram transaction: ${conf.EDP_TRANS_ID}`);
    expect(text).toContain(`${manager.name} (${manager.email}), 2 months, ${(2 * PRICE).toLocaleString('en-US')} AMD, subscription now ends ${mailDay(end)}`);
    expect(text).toContain(`Total paid: ${(2 * PRICE).toLocaleString('en-US')} AMD`);
    expect(text).toContain(`/payment/receipt/${id}`);
    expect(mails[0]!.html).toContain(conf.EDP_TRANS_ID);

    const res = await getReceipt(manager, id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: id,
      orderNumber: row.globalIndex,
      dateCreated: row.dateCreated.toISOString(),
      confirmedAt: row.confirmedAt!.toISOString(),
      payer: { _id: manager.id, name: manager.name, email: manager.email },
      lines: [{ user: { _id: manager.id, name: manager.name, email: manager.email }, months: 2, days: 0, price: 2 * PRICE, newEndDate: end.toISOString() }],
      monthlyPrice: PRICE,
      subtotal: 2 * PRICE,
      promo: null,
      discount: 0,
      total: 2 * PRICE,
      transactionId: conf.EDP_TRANS_ID,
      isPartial: false,
      refunds: [],
    });
  });

  it("a manager paying for an agent: both get one receipt; the agent sees what was bought for it, not the order's total", async () => {
    const team = await createTeam();
    const [agent] = team.agents;
    const id = await order(team.manager, { amount: 3, userToBePaidId: agent.id });
    await pay(id);
    const row = await paymentRow(id);
    expect(await receiptMails(team.manager, row.globalIndex)).toHaveLength(1);
    const agentMails = await receiptMails(agent, row.globalIndex);
    expect(agentMails).toHaveLength(1);
    expect(agentMails[0]!.text).toContain(`${team.manager.name} paid for your FreightDesk subscription.`);
    expect(agentMails[0]!.text).toContain(`${agent.name} (${agent.email}), 3 months, ${(3 * PRICE).toLocaleString('en-US')} AMD, subscription now ends`);
    expect(agentMails[0]!.text).not.toContain('Total paid');
    expect((await receiptsOf(id)).map((r) => r.userId).sort()).toEqual([team.manager.id, agent.id].sort());

    expect((await getReceipt(team.manager, id)).body).toMatchObject({ isPartial: false, total: 3 * PRICE });
    expect((await getReceipt(agent, id)).body).toMatchObject({ isPartial: true, total: 0, subtotal: 0, lines: [{ months: 3, price: 3 * PRICE }] });
    expect((await getReceipt(await createUser('admin'), id)).body).toMatchObject({ isPartial: false, total: 3 * PRICE });
  });

  it('the receipt call answers 404 to anyone else and for an unpaid order, 403 to marketing, 401 without a token', async () => {
    const team = await createTeam();
    const other = await createTeam();
    const id = await order(team.manager, { amount: 1, userToBePaidId: team.agents[0].id });
    const unpaid = await order(team.manager, { amount: 1 });
    await pay(id);
    for (const who of [team.agents[1], team.director, other.manager, other.agents[0]]) {
      expect(await getReceipt(who, id)).toMatchObject({ status: 404, body: { message: 'Receipt not found' } });
    }
    expect(await getReceipt(team.manager, unpaid)).toMatchObject({ status: 404, body: { message: 'Receipt not found' } });
    expect(await getReceipt(team.manager, 'no-such-order')).toMatchObject({ status: 404, body: { message: 'Receipt not found' } });
    expect((await getReceipt(await createUser('marketing'), id)).status).toBe(403);
    expect((await getReceipt(null, id)).status).toBe(401);
  });

  it('the confirmation replayed 30 times at once, 3 rounds: each recipient gets exactly one receipt', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const team = await createTeam();
      const [agent] = team.agents;
      const id = await order(team.manager, { amount: 1, userToBePaidId: agent.id });
      expect(await precheck(id, String(PRICE))).toBe('OK');
      const conf = await confirmation(id, String(PRICE));
      // the same confirmation and others with their own transaction ids, all at once
      const others = await Promise.all(Array.from({ length: 9 }, () => confirmation(id, String(PRICE))));
      const answers = await Promise.all([...Array.from({ length: 21 }, () => result(conf)), ...others.map(result)]);
      expect(answers).toEqual(Array(30).fill('OK'));
      const row = await paymentRow(id);
      expect(await receiptMails(team.manager, row.globalIndex)).toHaveLength(1);
      expect(await receiptMails(agent, row.globalIndex)).toHaveLength(1);
      expect(await receiptsOf(id)).toHaveLength(2);
      // and later replays still send nothing
      expect(await result(conf)).toBe('OK');
      expect(await receiptMails(team.manager, row.globalIndex)).toHaveLength(1);
    }
  });

  it('a replay sends the receipts an earlier call did not record (the first call failed after the confirmation)', async () => {
    const manager = await createUser('manager');
    const id = await order(manager, { amount: 1 });
    const conf = await pay(id);
    const row = await paymentRow(id);
    // as if the first call had confirmed the payment and then died before mailing
    await control.delete(paymentReceipts).where(eq(paymentReceipts.paymentId, id));
    expect(await result(conf)).toBe('OK');
    expect(await receiptMails(manager, row.globalIndex)).toHaveLength(2);
    expect(await receiptsOf(id)).toHaveLength(1);
  });

  it('a promo discount shows on the receipt; a 100% promo order gets a receipt with no Idram transaction', async () => {
    const user = await createUser('agent');
    const name = await addDiscount(user, 20);
    const id = await order(user, { amount: 2 });
    await pay(id);
    const row = await paymentRow(id);
    const receipt = (await getReceipt(user, id)).body;
    expect(receipt).toMatchObject({ subtotal: 2 * PRICE, promo: { name, percent: 20 }, discount: 0.4 * PRICE, total: 1.6 * PRICE });
    const [mail] = await receiptMails(user, row.globalIndex);
    expect(mail!.text).toContain(`Promo code ${name} (20% off): -${(0.4 * PRICE).toLocaleString('en-US')} AMD`);

    const free = await createUser('manager');
    await addDiscount(free, 100);
    const freeId = await order(free, { amount: 1 });
    const freeRow = await paymentRow(freeId);
    expect(freeRow.isPaymentConfirmed).toBe(true);
    expect(freeRow.newEndDate?.getTime()).toBe((await getUser(free.id))!.subscriptionEndDate!.getTime());
    const [freeMail] = await receiptMails(free, freeRow.globalIndex);
    expect(freeMail!.text).toContain('Idram transaction: none: the promo code paid the whole order');
    expect(freeMail!.text).toContain('Total paid: 0 AMD');
  });

  it('no receipt for a payment recorded as Needs refund (nothing was extended)', async () => {
    const user = await createUser('manager');
    await addDiscount(user, 50);
    const [first, second] = [await order(user, { amount: 1 }), await order(user, { amount: 1 })];
    const amount = String(PRICE / 2);
    expect(await precheck(first, amount)).toBe('OK');
    expect(await precheck(second, amount)).toBe('OK');
    expect(await result(await confirmation(first, amount))).toBe('OK');
    expect(await result(await confirmation(second, amount))).toBe('OK');
    const row = await paymentRow(second);
    expect(row.status).toBe('needs_refund');
    expect(await receiptsOf(second)).toEqual([]);
    expect(await receiptMails(user, row.globalIndex)).toEqual([]);
  });
});
