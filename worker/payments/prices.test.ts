import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { priceSchedule } from '../db/schema';
import { call, control, countRows, createUser, type TestUser } from '../test/helpers';
import { order, PRICE, pay, paymentRow } from '../test/idram';

const DAY = 86_400_000;
const schedule = (who: TestUser, body: object) => call('POST', '/api/payment/priceSchedule', { token: who.token, body });
const priceInfo = async (who: TestUser) => (await call('GET', '/api/payment/monthlyprice', { token: who.token })).body;
/** A change whose start has passed, as if time had moved on (the API only schedules the future). */
const startNow = (id: string) =>
  control
    .update(priceSchedule)
    .set({ effectiveFrom: new Date(Date.now() - 1000) })
    .where(eq(priceSchedule.id, id));

// this file's database only: the scheduled prices would change every other test's price
afterEach(async () => {
  await control.delete(priceSchedule);
});

describe('scheduled price changes (rule 0121)', () => {
  it('users see the next price before it applies; orders are priced with the price in force when they are made', async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const from = new Date(Date.now() + 7 * DAY);
    const made = await schedule(admin, { price: 6000, effectiveFrom: from.toISOString() });
    expect(made).toMatchObject({
      status: 200,
      body: { message: 'Price change scheduled', change: { price: 6000, effectiveFrom: from.toISOString(), started: false } },
    });
    expect(await priceInfo(manager)).toMatchObject({ price: PRICE, upcoming: { price: 6000, effectiveFrom: from.toISOString() } });
    // an order made before the change keeps its price, even when paid after it
    const before = await order(manager, { amount: 2 });
    expect((await paymentRow(before)).priceTotal).toBe(2 * PRICE);

    await startNow(made.body.change._id);
    expect(await priceInfo(manager)).toMatchObject({ price: 6000, upcoming: null });
    const after = await order(manager, { amount: 2 });
    expect(await paymentRow(after)).toMatchObject({ monthlyPrice: 6000, priceTotal: 12000 });
    await pay(before);
    expect(await paymentRow(before)).toMatchObject({ isPaymentConfirmed: true, priceTotal: 2 * PRICE, monthlyPrice: PRICE });
    // a team order too
    const agent = await createUser('agent', { parentId: manager.id });
    const team = await call('POST', '/api/payment/generateTeamLink', { token: manager.token, body: { userIds: [agent.id], amount: 1 } });
    expect((await paymentRow(team.body.orderId)).priceTotal).toBe(6000);
    // the admin's list: in force, and not cancellable
    const list = (await call('GET', '/api/payment/priceSchedule', { token: admin.token })).body;
    expect(list).toMatchObject({ price: 6000, basePrice: PRICE, changes: [{ price: 6000, started: true }] });
    expect(await call('DELETE', `/api/payment/priceSchedule/${made.body.change._id}`, { token: admin.token })).toMatchObject({
      status: 400,
      body: { message: 'This price is already in force' },
    });
  });

  it('the latest started change is in force; the nearest future one is shown; an upcoming one can be cancelled', async () => {
    const admin = await createUser('admin');
    const user = await createUser('agent');
    const a = await schedule(admin, { price: 5500, effectiveFrom: new Date(Date.now() + DAY).toISOString() });
    const b = await schedule(admin, { price: 7000, effectiveFrom: new Date(Date.now() + 30 * DAY).toISOString() });
    const c = await schedule(admin, { price: 6500, effectiveFrom: new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10) });
    expect(c.body.change.effectiveFrom).toMatch(/T00:00:00\.000Z$/);
    expect((await priceInfo(user)).upcoming.price).toBe(5500);
    await startNow(a.body.change._id);
    expect(await priceInfo(user)).toMatchObject({ price: 5500, upcoming: { price: 6500 } });
    expect(await call('DELETE', `/api/payment/priceSchedule/${c.body.change._id}`, { token: admin.token })).toMatchObject({
      status: 200,
      body: { message: 'Price change cancelled' },
    });
    expect(await priceInfo(user)).toMatchObject({ price: 5500, upcoming: { price: 7000 } });
    expect((await call('DELETE', `/api/payment/priceSchedule/${c.body.change._id}`, { token: admin.token })).status).toBe(404);
    expect(b.status).toBe(200);
  });

  it('refuses a past moment, a bad price or date, two changes at one moment; the admin only', async () => {
    const admin = await createUser('admin');
    const at = new Date(Date.now() + 5 * DAY).toISOString();
    expect((await schedule(admin, { price: 6000, effectiveFrom: at })).status).toBe(200);
    const rows = await countRows('price_schedule');
    const cases: [object, number, string][] = [
      [{ price: 6100, effectiveFrom: at }, 409, 'A price change is already scheduled for that moment'],
      [{ price: 6000, effectiveFrom: new Date(Date.now() - DAY).toISOString() }, 400, 'The new price must start in the future'],
      [{ price: 0, effectiveFrom: at }, 400, 'Price: a whole number of AMD from 1 to 10,000,000'],
      [{ price: 5000.5, effectiveFrom: at }, 400, 'Price: a whole number of AMD from 1 to 10,000,000'],
      [{ price: '6000', effectiveFrom: at }, 400, 'Price: a whole number of AMD from 1 to 10,000,000'],
      [{ price: 6000, effectiveFrom: 'next monday' }, 400, 'Choose a valid date'],
      [{ price: 6000, effectiveFrom: '2026-02-30' }, 400, 'Choose a valid date'],
      [{ price: 6000 }, 400, 'Choose a valid date'],
    ];
    for (const [body, status, message] of cases) {
      const res = await schedule(admin, body);
      expect([res.status, res.body?.message], JSON.stringify(body)).toEqual([status, message]);
    }
    expect(await countRows('price_schedule')).toBe(rows);
    for (const role of ['manager', 'director', 'agent', 'marketing'] as const) {
      const who = await createUser(role);
      expect((await schedule(who, { price: 1, effectiveFrom: new Date(Date.now() + 9 * DAY).toISOString() })).status).toBe(403);
      expect((await call('GET', '/api/payment/priceSchedule', { token: who.token })).status).toBe(403);
    }
    expect(await countRows('price_schedule')).toBe(rows);
  });
});
