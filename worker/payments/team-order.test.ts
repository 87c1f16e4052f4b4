import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentItems, paymentReceipts, promoCodes, promoUses, users } from '../db/schema';
import { randomId } from '../lib/ids';
import { extendByMonths } from '../lib/subscription';
import { call, control, countRows, createUser, getUser, type TestUser } from '../test/helpers';
import { confirmation, mailsTo, PRICE, pay, paymentRow, precheck, result } from '../test/idram';
import { daysPrice } from './payments.schema';

const DAY = 86_400_000;

async function teamOrder(who: TestUser, body: object) {
  return call('POST', '/api/payment/generateTeamLink', { token: who.token, body: { paymentType: 'idram', ...body } });
}
async function orderFor(who: TestUser, body: object) {
  const res = await teamOrder(who, body);
  expect(res.status, res.text).toBe(200);
  return res.body.orderId as string;
}
/** A manager (ending in `managerDays`) with agents ending in the given days (null: never paid). */
async function teamWith(managerDays: number | null, ...agentDays: (number | null)[]) {
  const manager = await createUser('manager', { subscriptionDays: managerDays });
  const agents = await Promise.all(agentDays.map((days) => createUser('agent', { parentId: manager.id, subscriptionDays: days })));
  return { manager, agents };
}
const endOf = async (who: TestUser) => (await getUser(who.id))!.subscriptionEndDate?.getTime() ?? null;
const itemsOf = (orderId: string) => control.select().from(paymentItems).where(eq(paymentItems.paymentId, orderId));
const receiptMails = async (who: TestUser, orderNumber: number) =>
  (await mailsTo(who.email)).filter((m) => m.subject === `Receipt for your FreightDesk order #${orderNumber}`);

async function addDiscount(user: TestUser, percent: number) {
  const promoId = randomId();
  await control
    .insert(promoCodes)
    .values({ id: promoId, name: `T${promoId}`.toUpperCase(), effectType: 'discountPercent', effectValue: percent, createdBy: user.id, createdAt: new Date() });
  await control.insert(promoUses).values({ id: randomId(), promoId, userId: user.id, useDate: new Date() });
}

describe('POST /api/payment/generateTeamLink (rule 0118)', () => {
  it('one order for three agents: the confirmation extends each by the months, once; the manager is not extended', async () => {
    const { manager, agents } = await teamWith(20, 10, 25, 3);
    const starts = await Promise.all(agents.map(endOf));
    const managerEnd = await endOf(manager);
    const id = await orderFor(manager, { userIds: agents.map((a) => a.id), amount: 2 });
    expect(await paymentRow(id)).toMatchObject({
      kind: 'team',
      userId: manager.id,
      payerUserId: manager.id,
      amount: 6,
      priceTotal: 6 * PRICE,
      status: 'link_generated',
    });
    expect((await itemsOf(id)).map((i) => [i.userId, i.months, i.days, i.price]).sort()).toEqual(agents.map((a) => [a.id, 2, 0, 2 * PRICE]).sort());
    const page = await call('GET', `/api/payment/idram/pay/${id}`);
    expect(page.text).toContain('FreightDesk subscription for 3 agents, 2 months each');
    for (const a of agents) expect(page.text).not.toContain(a.email);

    await pay(id);
    for (const [i, a] of agents.entries()) expect(await endOf(a)).toBe(extendByMonths(new Date(starts[i]!), 2, new Date(starts[i]!)).getTime());
    expect(await endOf(manager)).toBe(managerEnd);
    for (const item of await itemsOf(id)) expect(item.newEndDate?.getTime()).toBe((await getUser(item.userId))!.subscriptionEndDate!.getTime());
    // a receipt for the manager (every line) and one for each agent (its own)
    const row = await paymentRow(id);
    const managerMail = await receiptMails(manager, row.globalIndex);
    expect(managerMail).toHaveLength(1);
    for (const a of agents) expect(managerMail[0]!.text).toContain(`${a.name} (${a.email}), 2 months`);
    expect(managerMail[0]!.text).toContain(`Total paid: ${(6 * PRICE).toLocaleString('en-US')} AMD`);
    for (const a of agents) {
      const [mail, ...more] = await receiptMails(a, row.globalIndex);
      expect(more).toEqual([]);
      expect(mail!.text).toContain(`${a.name} (${a.email}), 2 months`);
      for (const other of agents.filter((o) => o.id !== a.id)) expect(mail!.text).not.toContain(other.email);
    }
  });

  it('the confirmation of a 3-agent order replayed 30 times at once, 3 rounds: each agent extended once, one receipt per recipient', {
    timeout: 180_000,
  }, async () => {
    for (let round = 0; round < 3; round++) {
      const { manager, agents } = await teamWith(20, 12, 40, 5);
      const starts = await Promise.all(agents.map(endOf));
      const id = await orderFor(manager, { userIds: agents.map((a) => a.id), amount: 3 });
      const amount = String(9 * PRICE);
      expect(await precheck(id, amount)).toBe('OK');
      const conf = await confirmation(id, amount);
      const others = await Promise.all(Array.from({ length: 10 }, () => confirmation(id, amount)));
      const answers = await Promise.all([...Array.from({ length: 20 }, () => result(conf)), ...others.map(result)]);
      expect(answers).toEqual(Array(30).fill('OK'));
      for (const [i, a] of agents.entries()) expect(await endOf(a)).toBe(extendByMonths(new Date(starts[i]!), 3, new Date(starts[i]!)).getTime());
      const row = await paymentRow(id);
      expect(row).toMatchObject({ isPaymentConfirmed: true, status: 'confirmed' });
      expect(await control.select().from(paymentReceipts).where(eq(paymentReceipts.paymentId, id))).toHaveLength(4);
      for (const who of [manager, ...agents]) expect(await receiptMails(who, row.globalIndex)).toHaveLength(1);
      // and a late replay still changes nothing
      expect(await result(others[0]!)).toBe('OK');
      for (const [i, a] of agents.entries()) expect(await endOf(a)).toBe(extendByMonths(new Date(starts[i]!), 3, new Date(starts[i]!)).getTime());
    }
  });

  it('aligned: each agent paid by the day up to the manager end date, priced pro rata; an agent already there is refused', async () => {
    const { manager, agents } = await teamWith(40, 10, null, -5);
    const managerEnd = (await endOf(manager))!;
    const before = Date.now();
    const id = await orderFor(manager, { userIds: agents.map((a) => a.id), align: true });
    const items = new Map((await itemsOf(id)).map((i) => [i.userId, i]));
    // 30, 40 and 40 days (an expired agent starts from now), rounded up to whole days
    expect(agents.map((a) => items.get(a.id)!.days)).toEqual([30, 40, 40]);
    for (const i of items.values()) expect(i).toMatchObject({ months: 0, price: daysPrice(PRICE, i.days) });
    expect(daysPrice(5000, 40)).toBe(6667);
    const row = await paymentRow(id);
    expect(row).toMatchObject({ amount: 0, priceTotal: [...items.values()].reduce((s, i) => s + i.price, 0) });
    expect((await call('GET', `/api/payment/idram/pay/${id}`)).text).toContain('FreightDesk subscription for 3 agents, up to your end date');
    await pay(id);
    for (const a of agents) {
      const end = (await endOf(a))!;
      // never before the manager's end, and within the day rounded up
      expect(end).toBeGreaterThanOrEqual(managerEnd);
      expect(end).toBeLessThan(managerEnd + DAY + (Date.now() - before));
    }

    const further = await createUser('agent', { parentId: manager.id, subscriptionDays: 45 });
    const refused = await teamOrder(manager, { userIds: [further.id], align: true });
    expect(refused).toMatchObject({ status: 400, body: { message: `${further.name} already runs until your end date` } });
    const expiredManager = await teamWith(-1, 10);
    expect(await teamOrder(expiredManager.manager, { userIds: [expiredManager.agents[0]!.id], align: true })).toMatchObject({
      status: 400,
      body: { message: 'Your subscription has no end date to align to' },
    });
  });

  it('only the manager own live, verified agents; bad input answers 4xx with a message and records nothing', async () => {
    const { manager, agents } = await teamWith(20, 10, 10);
    const other = await teamWith(20, 10);
    const unverified = await createUser('agent', { parentId: manager.id, isEmailVerified: false });
    const deleted = await createUser('agent', { parentId: manager.id });
    await deleted.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));
    const director = await createUser('director');
    const ids = agents.map((a) => a.id);
    const before = [await countRows('payments'), await countRows('payment_items')];
    const cases: [object, number, string][] = [
      [{ userIds: [...ids, other.agents[0]!.id], amount: 1 }, 404, 'User not found'],
      [{ userIds: [...ids, deleted.id], amount: 1 }, 404, 'User not found'],
      [{ userIds: [...ids, manager.id], amount: 1 }, 404, 'User not found'],
      [{ userIds: [...ids, director.id], amount: 1 }, 404, 'User not found'],
      [{ userIds: ['no-such-user'], amount: 1 }, 404, 'User not found'],
      [{ userIds: [...ids, unverified.id], amount: 1 }, 400, 'Email is not verified'],
      [{ userIds: [], amount: 1 }, 400, 'Choose the agents to pay for'],
      [{ amount: 1 }, 400, 'Choose the agents to pay for'],
      [{ userIds: Array.from({ length: 51 }, () => agents[0]!.id), amount: 1 }, 400, 'At most 50 agents in one order'],
      [{ userIds: ids }, 400, 'Months to buy: minimum 1'],
      [{ userIds: ids, amount: 0 }, 400, 'Months to buy: minimum 1'],
      [{ userIds: ids, amount: 1.5 }, 400, 'Months to buy: minimum 1'],
      [{ userIds: ids, amount: 37 }, 400, 'Months to buy: at most 36'],
      [{ userIds: ids, amount: 1, paymentType: 'arca' }, 400, 'Visa Payment Temporary not supported. Please pay with Idram.'],
      [{ userIds: ids, align: 'yes' }, 400, 'align must be true or false'],
    ];
    for (const [body, status, message] of cases) {
      const res = await call('POST', '/api/payment/generateTeamLink', { token: manager.token, body });
      expect([res.status, res.body?.message], JSON.stringify(body)).toEqual([status, message]);
    }
    expect([await countRows('payments'), await countRows('payment_items')]).toEqual(before);
    // the same agent twice is one line
    const id = await orderFor(manager, { userIds: [ids[0], ids[0], ids[1]], amount: 1 });
    expect(await itemsOf(id)).toHaveLength(2);
    // managers only; an expired manager may still pay for its agents
    for (const who of [agents[0]!, director, await createUser('admin'), await createUser('marketing')])
      expect((await teamOrder(who, { userIds: ids, amount: 1 })).status).toBe(403);
    await manager.db
      .update(users)
      .set({ subscriptionEndDate: new Date(Date.now() - DAY) })
      .where(eq(users.id, manager.id));
    expect((await teamOrder(manager, { userIds: ids, amount: 1 })).status).toBe(200);
    expect((await call('POST', '/api/payment/generateTeamLink', { body: { userIds: ids, amount: 1 } })).status).toBe(401);
  });

  it("the payer's promo discount applies to the total; a 100% discount confirms the team order at once", async () => {
    const { manager, agents } = await teamWith(20, 10, 10);
    await addDiscount(manager, 25);
    const id = await orderFor(manager, { userIds: agents.map((a) => a.id), amount: 2 });
    expect((await paymentRow(id)).priceTotal).toBe(0.75 * 4 * PRICE);
    await pay(id);
    const receipt = (await call('GET', `/api/payment/receipt/${id}`, { token: manager.token })).body;
    expect(receipt).toMatchObject({ subtotal: 4 * PRICE, discount: PRICE, total: 3 * PRICE });
    expect(receipt.lines).toHaveLength(2);

    const free = await teamWith(20, 10, null);
    const starts = await Promise.all(free.agents.map(endOf));
    await addDiscount(free.manager, 100);
    const before = new Date();
    const freeId = await orderFor(free.manager, { userIds: free.agents.map((a) => a.id), amount: 1 });
    const after = new Date();
    expect(await paymentRow(freeId)).toMatchObject({ isPaymentConfirmed: true, priceTotal: 0, kind: 'team' });
    expect(await endOf(free.agents[0]!)).toBe(extendByMonths(new Date(starts[0]!), 1, new Date(starts[0]!)).getTime());
    const fromNow = (await endOf(free.agents[1]!))!;
    expect(fromNow).toBeGreaterThanOrEqual(extendByMonths(null, 1, before).getTime());
    expect(fromNow).toBeLessThanOrEqual(extendByMonths(null, 1, after).getTime());
    expect((await itemsOf(freeId)).every((i) => i.newEndDate !== null)).toBe(true);
    expect(await receiptMails(free.agents[1]!, (await paymentRow(freeId)).globalIndex)).toHaveLength(1);
  });

  it('Payment History: the manager sees the order with its agents; an agent sees its own line only', async () => {
    const { manager, agents } = await teamWith(20, 10, 10, 10);
    const id = await orderFor(manager, { userIds: [agents[0]!.id, agents[1]!.id], amount: 2 });
    await pay(id);
    const mine = (await call('GET', '/api/payment/paymentHistory', { token: manager.token })).body.find((p: { _id: string }) => p._id === id);
    expect(mine).toMatchObject({ kind: 'team', user: null, amount: 4, priceTotal: 4 * PRICE, status: 'confirmed' });
    expect(mine.items.map((i: { user: { _id: string } }) => i.user._id).sort()).toEqual([agents[0]!.id, agents[1]!.id].sort());
    const theirs = (await call('GET', '/api/payment/paymentHistory', { token: agents[0]!.token })).body;
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({
      _id: id,
      kind: 'team',
      amount: 2,
      priceTotal: 2 * PRICE,
      items: [{ user: { _id: agents[0]!.id }, months: 2, days: 0, price: 2 * PRICE }],
    });
    expect((await call('GET', '/api/payment/paymentHistory', { token: agents[2]!.token })).body).toEqual([]);
    const all = (await call('GET', '/api/payment/paymentHistory', { token: (await createUser('admin')).token })).body.find(
      (p: { _id: string }) => p._id === id,
    );
    expect(all.items).toHaveLength(2);
  });
});
