import { createExecutionContext, createScheduledController, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies, companyHomes, paymentItems, paymentReceipts, promoCodes, promoUses, subscriptionChanges, users } from '../db/schema';
import worker from '../index';
import { CRONS } from '../jobs';
import { shardDb } from '../lib/d1';
import { randomId } from '../lib/ids';
import { extendByMonths, removeMonths } from '../lib/subscription';
import { applyChanges, changeId } from '../subscriptions/changes';
import { call, control, createTeam, createUser, everyDb, getUser, type TestUser, testEnv } from '../test/helpers';
import { confirmation, mailsTo, order, PRICE, paymentRow, precheck, result } from '../test/idram';
import { APPLY_RETRY_MS, confirmInControl } from './payment-order';

/**
 * Money in the control plane, end dates in the shards, no transaction across the two
 * (docs/decisions/0179-money-in-the-control-plane.md): a confirmation cut off between its two
 * writes, or refused by a moving company's fence, ends with the months written exactly once.
 */

const stubOf = (id: string) => testEnv.PAYMENT_ORDER.get(testEnv.PAYMENT_ORDER.idFromName(id));
const endOf = async (who: { id: string }) => (await getUser(who.id))!.subscriptionEndDate!.getTime();
const monthsOn = (end: number, months: number) => extendByMonths(new Date(end), months, new Date(end)).getTime();
const changesOf = (who: TestUser) => who.db.select().from(subscriptionChanges).where(eq(subscriptionChanges.userId, who.id));
const receiptsOf = (orderId: string) => control.select().from(paymentReceipts).where(eq(paymentReceipts.paymentId, orderId));
const receiptMails = async (who: TestUser, orderId: string) => {
  const number = (await paymentRow(orderId)).globalIndex;
  return (await mailsTo(who.email)).filter((m) => m.subject === `Receipt for your FreightDesk order #${number}`);
};

/** The every-five-minutes job (mail sweeper and money sweep), as its Cron Trigger runs it, at `time`. */
async function sweep(time = Date.now() + 2 * 60_000) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: time, cron: CRONS.mailSweep }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

/** A company's fence in its shard, as the mover sets it: `moving` refuses every write of the company there. */
const setHome = (who: TestUser, state: 'active' | 'moving') =>
  shardDb(testEnv, who.shard).update(companyHomes).set({ state, changedAt: new Date() }).where(eq(companyHomes.companyId, who.companyId));

/** Idram's signed confirmation, precheck first; answers its fields. */
async function idramPays(orderId: string, amount = String(PRICE)) {
  expect(await precheck(orderId, amount)).toBe('OK');
  return confirmation(orderId, amount);
}

describe("Idram's callbacks racing for payees on three shards", { timeout: 240_000 }, () => {
  it('45 callbacks at once for six orders on three shards, half cut off before the shard write, with the sweeps and the alarms, 3 rounds: each payee extended once, in its own shard', async () => {
    for (let round = 0; round < 3; round++) {
      // three companies in a row land on three shards (the emptiest wins)
      const teams = [await createTeam(), await createTeam(), await createTeam()];
      expect(new Set(teams.map((t) => t.manager.shard)).size).toBe(3);
      const payerEnds = await Promise.all(teams.map((t) => endOf(t.manager)));
      const paid = (
        await Promise.all(
          teams.map(async ({ manager, agents }) =>
            Promise.all(
              agents.map(async (agent, i) => {
                const months = i + 1;
                const start = await endOf(agent);
                const id = await order(manager, { amount: months, userToBePaidId: agent.id });
                const conf = await idramPays(id, String(months * PRICE));
                // the second agent's order: confirmed in the control plane, its object killed before the shard write
                if (i === 1) await confirmInControl(testEnv, id, { transId: conf.EDP_TRANS_ID, payerAccount: conf.EDP_PAYER_ACCOUNT });
                // Idram's own retries of this confirmation, and confirmations under other transaction ids
                const calls = [
                  ...Array.from({ length: 5 + i }, () => conf),
                  await confirmation(id, String(months * PRICE)),
                  await confirmation(id, String(months * PRICE)),
                ];
                return { manager, agent, months, start, id, conf, calls };
              }),
            ),
          ),
        )
      ).flat();
      const answers = await Promise.all([
        ...paid.flatMap((p) => p.calls.map(result)),
        sweep().then(() => 'swept'),
        sweep().then(() => 'swept'),
        ...paid.map((p) => runDurableObjectAlarm(stubOf(p.id)).then(() => 'alarm')),
      ]);
      expect(answers.slice(0, 45)).toEqual(Array(45).fill('OK'));

      for (const p of paid) {
        const end = monthsOn(p.start, p.months);
        // the payee's row in its own shard moved once
        const [there] = await p.agent.db.select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, p.agent.id));
        expect(there!.end!.getTime()).toBe(end);
        // the change is recorded once, in the payee's shard and nowhere else
        const rows = await Promise.all(
          everyDb().map(async ({ shard, db }) => ({
            shard,
            n: (
              await db
                .select()
                .from(subscriptionChanges)
                .where(eq(subscriptionChanges.id, changeId.payment(p.id, p.agent.id)))
            ).length,
          })),
        );
        expect(rows.filter((r) => r.n > 0)).toEqual([{ shard: p.agent.shard, n: 1 }]);
        // the control plane: confirmed once, under one of the transaction ids, with the end date the shard left
        const row = await paymentRow(p.id);
        expect(row).toMatchObject({ isPaymentConfirmed: true, status: 'confirmed', applyPending: false, newEndDate: new Date(end) });
        expect(p.calls.map((c) => c.EDP_TRANS_ID)).toContain(row.transId);
        expect((await receiptsOf(p.id)).map((r) => r.userId).sort()).toEqual([p.manager.id, p.agent.id].sort());
        expect(await receiptMails(p.agent, p.id)).toHaveLength(1);
        expect(await receiptMails(p.manager, p.id)).toHaveLength(1);
      }
      // the payers paid for others: their own end dates did not move
      expect(await Promise.all(teams.map((t) => endOf(t.manager)))).toEqual(payerEnds);
      // the admin's Payments screen lists each once, named from whichever shard its users are on
      const admin = await createUser('admin');
      const list = (await call('GET', '/api/payment/paymentHistory', { token: admin.token })).body as { _id: string }[];
      for (const p of paid) expect(list.filter((l) => l._id === p.id)).toMatchObject([{ user: { _id: p.agent.id, name: p.agent.name } }]);

      // a late replay of each, and another sweep: nothing moves
      await Promise.all([...paid.map((p) => result(p.conf)), sweep()]);
      for (const p of paid) expect(await endOf(p.agent)).toBe(monthsOn(p.start, p.months));
    }
  });
});

describe('a confirmation cut off between the control plane and the shard', { timeout: 120_000 }, () => {
  it('Idram replays, the sweep and the alarm all at once write the months exactly once, 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const admin = await createUser('admin');
      const manager = await createUser('manager', { subscriptionDays: 12 });
      const agent = await createUser('agent', { parentId: manager.id, subscriptionDays: 4 });
      expect(agent.shard).toBe(manager.shard);
      const start = await endOf(agent);
      const id = await order(manager, { amount: 2, userToBePaidId: agent.id });
      const conf = await idramPays(id, String(2 * PRICE));
      // the object confirmed the order in the control plane and was killed before the shard write
      expect((await confirmInControl(testEnv, id, { transId: conf.EDP_TRANS_ID, payerAccount: conf.EDP_PAYER_ACCOUNT })).result).toBe('confirmed');
      expect(await paymentRow(id)).toMatchObject({ isPaymentConfirmed: true, status: 'confirmed', applyPending: true, appliedAt: null, newEndDate: null });
      expect(await endOf(agent)).toBe(start);
      expect(await changesOf(agent)).toEqual([]);
      expect(await receiptsOf(id)).toEqual([]);
      // the payment is confirmed for the admin and the payer meanwhile
      const listed = (await call('GET', '/api/payment/paymentHistory', { token: admin.token })).body.find((p: { _id: string }) => p._id === id);
      expect(listed).toMatchObject({ status: 'confirmed', user: { _id: agent.id, name: agent.name }, payerUser: { _id: manager.id } });

      // Idram did not get its OK: it sends the confirmation again, five times at once, while the
      // sweep runs twice and the object's alarm fires
      const retries = await Promise.all([
        ...Array.from({ length: 5 }, () => result(conf)),
        sweep().then(() => 'swept'),
        sweep().then(() => 'swept'),
        runDurableObjectAlarm(stubOf(id)).then(() => 'alarm'),
      ]);
      expect(retries.slice(0, 5)).toEqual(Array(5).fill('OK'));
      const end = monthsOn(start, 2);
      expect(await endOf(agent)).toBe(end);
      expect(await paymentRow(id)).toMatchObject({ applyPending: false, newEndDate: new Date(end) });
      expect((await paymentRow(id)).appliedAt).toBeInstanceOf(Date);
      expect(await changesOf(agent)).toMatchObject([{ id: changeId.payment(id, agent.id), months: 2, days: 0, newEndDate: new Date(end) }]);
      expect((await receiptsOf(id)).map((r) => r.userId).sort()).toEqual([manager.id, agent.id].sort());
      expect(await receiptMails(agent, id)).toHaveLength(1);
      expect(await receiptMails(manager, id)).toHaveLength(1);
      expect((await call('GET', `/api/payment/receipt/${id}`, { token: agent.token })).body.lines).toMatchObject([
        { user: { _id: agent.id }, months: 2, newEndDate: new Date(end).toISOString() },
      ]);

      // and again, later: nothing moves
      expect(await result(conf)).toBe('OK');
      await sweep();
      expect(await endOf(agent)).toBe(end);
      expect(await receiptMails(agent, id)).toHaveLength(1);
    }
  });

  it('a shard write that landed before the control plane recorded it is not written again', async () => {
    const manager = await createUser('manager', { subscriptionDays: 3 });
    const start = await endOf(manager);
    const id = await order(manager, { amount: 1 });
    const conf = await idramPays(id);
    await confirmInControl(testEnv, id, { transId: conf.EDP_TRANS_ID, payerAccount: conf.EDP_PAYER_ACCOUNT });
    const at = (await paymentRow(id)).confirmedAt!;
    // killed after the shard batch, before the control plane's mark
    await applyChanges(testEnv, control, [{ id: changeId.payment(id, manager.id), userId: manager.id, months: 1, days: 0 }], { at, endTrial: true });
    expect(await endOf(manager)).toBe(monthsOn(start, 1));
    expect((await paymentRow(id)).applyPending).toBe(true);
    await Promise.all([result(conf), sweep(), result(conf)]);
    expect(await endOf(manager)).toBe(monthsOn(start, 1));
    expect(await paymentRow(id)).toMatchObject({ applyPending: false, newEndDate: new Date(monthsOn(start, 1)) });
  });

  it('a team order cut off between the two writes extends every agent once, with its own end date on the receipt', async () => {
    const manager = await createUser('manager', { subscriptionDays: 40 });
    const agents = await Promise.all([5, 15, 25].map((days) => createUser('agent', { parentId: manager.id, subscriptionDays: days })));
    const starts = await Promise.all(agents.map(endOf));
    const res = await call('POST', '/api/payment/generateTeamLink', {
      token: manager.token,
      body: { paymentType: 'idram', userIds: agents.map((a) => a.id), amount: 1 },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.body.orderId as string;
    const conf = await idramPays(id, String(3 * PRICE));
    await confirmInControl(testEnv, id, { transId: conf.EDP_TRANS_ID, payerAccount: conf.EDP_PAYER_ACCOUNT });
    expect(await Promise.all(agents.map(endOf))).toEqual(starts);
    await Promise.all([sweep(), sweep(), result(conf), result(conf)]);
    const ends = starts.map((s) => monthsOn(s, 1));
    expect(await Promise.all(agents.map(endOf))).toEqual(ends);
    const items = await control.select().from(paymentItems).where(eq(paymentItems.paymentId, id));
    for (const [i, a] of agents.entries()) expect(items.find((it) => it.userId === a.id)!.newEndDate).toEqual(new Date(ends[i]!));
    expect((await paymentRow(id)).applyPending).toBe(false);
  });
});

describe('a confirmation while the payee company is moving', { timeout: 120_000 }, () => {
  it('is answered OK and recorded; the months wait behind the fence and land once it opens, never lost, never twice', async () => {
    const manager = await createUser('manager', { subscriptionDays: 9 });
    const agent = await createUser('agent', { parentId: manager.id, subscriptionDays: 2 });
    const start = await endOf(agent);
    const id = await order(manager, { amount: 3, userToBePaidId: agent.id });
    const conf = await idramPays(id, String(3 * PRICE));
    await setHome(manager, 'moving');
    try {
      expect(await result(conf)).toBe('OK');
      expect(await paymentRow(id)).toMatchObject({ isPaymentConfirmed: true, status: 'confirmed', applyPending: true });
      expect(await endOf(agent)).toBe(start);
      expect(await receiptsOf(id)).toEqual([]);
      // the object keeps an alarm to try again
      const alarm = await runInDurableObject(stubOf(id), (_, state) => state.storage.getAlarm());
      expect(alarm).not.toBeNull();
      expect(alarm! - Date.now()).toBeLessThanOrEqual(APPLY_RETRY_MS);
      // replays, the sweep and the alarm while the company moves: refused by the fence, nothing written
      expect(await Promise.all([result(conf), result(conf)])).toEqual(['OK', 'OK']);
      await sweep();
      expect(await runDurableObjectAlarm(stubOf(id))).toBe(true);
      expect(await endOf(agent)).toBe(start);
      expect(await changesOf(agent)).toEqual([]);
      expect((await paymentRow(id)).applyPending).toBe(true);
    } finally {
      await setHome(manager, 'active');
    }
    // the move is over: the object's next alarm writes the months, once (it may have fired on its own already)
    await runDurableObjectAlarm(stubOf(id));
    expect(await endOf(agent)).toBe(monthsOn(start, 3));
    expect((await paymentRow(id)).applyPending).toBe(false);
    expect(await receiptMails(agent, id)).toHaveLength(1);
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(false);
    await Promise.all([sweep(), result(conf)]);
    expect(await endOf(agent)).toBe(monthsOn(start, 3));
  });

  it('lands in the shard the company moved to', async () => {
    const manager = await createUser('manager', { subscriptionDays: 6 });
    const start = await endOf(manager);
    const id = await order(manager, { amount: 1 });
    const conf = await idramPays(id);
    await setHome(manager, 'moving');
    expect(await result(conf)).toBe('OK');
    expect(await endOf(manager)).toBe(start);
    // the mover copies the company to another shard and flips it there (worker/shards/move.ts does this for real)
    const to = ['SHARD_1', 'SHARD_2', 'SHARD_3'].find((s) => s !== manager.shard)!;
    const [row] = await shardDb(testEnv, manager.shard).select().from(users).where(eq(users.id, manager.id));
    await shardDb(testEnv, to).insert(users).values(row!);
    await shardDb(testEnv, to).insert(companyHomes).values({ companyId: manager.companyId, state: 'active', changedAt: new Date() });
    await control.update(companies).set({ shard: to }).where(eq(companies.id, manager.companyId));
    await shardDb(testEnv, manager.shard).update(companyHomes).set({ state: 'moved' }).where(eq(companyHomes.companyId, manager.companyId));

    await sweep();
    const moved = shardDb(testEnv, to);
    const [there] = await moved.select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, manager.id));
    expect(there!.end!.getTime()).toBe(monthsOn(start, 1));
    const [left] = await shardDb(testEnv, manager.shard).select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, manager.id));
    expect(left!.end!.getTime()).toBe(start);
    expect((await paymentRow(id)).applyPending).toBe(false);
    await Promise.all([runDurableObjectAlarm(stubOf(id)), result(conf), sweep()]);
    const [again] = await moved.select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, manager.id));
    expect(again!.end!.getTime()).toBe(monthsOn(start, 1));
    expect(await moved.select().from(subscriptionChanges).where(eq(subscriptionChanges.userId, manager.id))).toHaveLength(1);
  });
});

describe('free months and refunds left behind by a cut-off request', { timeout: 120_000 }, () => {
  it('a free-months use recorded in the control plane alone is written once by the sweep', async () => {
    const user = await createUser('manager', { subscriptionDays: 10 });
    const start = await endOf(user);
    const promoId = randomId();
    const useId = randomId();
    await control.insert(promoCodes).values({
      id: promoId,
      name: `CUT${promoId}`.toUpperCase(),
      effectType: 'freeMonths',
      effectValue: 2,
      usedCount: 1,
      createdBy: user.id,
      createdAt: new Date(),
    });
    // what the use's control-plane batch leaves when the request dies before the shard write
    await control.insert(promoUses).values({ id: useId, promoId, userId: user.id, useDate: new Date(), applyPending: true });
    await Promise.all([sweep(), sweep(), sweep()]);
    expect(await endOf(user)).toBe(monthsOn(start, 2));
    expect((await control.select().from(promoUses).where(eq(promoUses.id, useId)))[0]).toMatchObject({ applyPending: false });
    await sweep();
    expect(await endOf(user)).toBe(monthsOn(start, 2));
  });

  it('a refund whose payee company is moving is recorded at once; its months come off once the company is back', async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager', { subscriptionDays: 20 });
    const id = await order(manager, { amount: 3 });
    expect(await result(await idramPays(id, String(3 * PRICE)))).toBe('OK');
    const paidEnd = await endOf(manager);
    await setHome(manager, 'moving');
    const refunded = await call('POST', '/api/payment/refund', {
      token: admin.token,
      body: { paymentId: id, amount: PRICE, monthsRemoved: 1, reason: 'One month unused' },
    });
    expect(refunded).toMatchObject({ status: 200, body: { message: 'Refund recorded', refunded: PRICE, leftToRefund: 2 * PRICE } });
    await sweep();
    expect(await endOf(manager)).toBe(paidEnd);
    await setHome(manager, 'active');
    await Promise.all([sweep(), sweep()]);
    expect(await endOf(manager)).toBe(removeMonths(new Date(paidEnd), 1).getTime());
    await sweep();
    expect(await endOf(manager)).toBe(removeMonths(new Date(paidEnd), 1).getTime());
    const rows = await manager.db
      .select()
      .from(subscriptionChanges)
      .where(and(eq(subscriptionChanges.userId, manager.id), sql`${subscriptionChanges.id} like 'refund:%'`));
    expect(rows).toMatchObject([{ months: -1 }]);
  });
});
