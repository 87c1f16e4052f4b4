import { and, eq, sql } from 'drizzle-orm';
import { paymentItems, paymentRefunds, payments, promoCodes, promoUses } from '../db/schema';
import type { Bindings, Db } from '../env';
import { runBatch } from '../lib/db';
import { log } from '../lib/observe';
import { applyChanges, changeId } from '../subscriptions/changes';
import { itemsOf } from './items';

/**
 * The second half of every money change (docs/decisions/0179-money-in-the-control-plane.md): once
 * however often they run; the PaymentOrder's alarm and the sweep rerun them until they land.
 */

/** A confirmed payment's months in its payees' shards (its receipts follow: `sendReceipts`, outside the order's lock). */
export async function applyPayment(env: Bindings, control: Db, paymentId: string): Promise<void> {
  const [p] = await control.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  if (p?.isPaymentConfirmed && p.applyPending) {
    const lines = p.kind === 'team' ? await itemsOf(control, p.id) : [{ userId: p.userId, months: p.amount, days: 0 }];
    const ends = await applyChanges(
      env,
      control,
      lines.map((l) => ({ id: changeId.payment(p.id, l.userId), userId: l.userId, months: l.months, days: l.days })),
      { at: p.confirmedAt ?? p.dateCreated, endTrial: true },
    );
    const endsJson = JSON.stringify([...ends].map(([u, e]) => ({ u, e: e?.getTime() ?? null })));
    const done = and(eq(payments.id, p.id), eq(payments.applyPending, true));
    await runBatch(control, [
      ...(p.kind === 'team'
        ? [
            control
              .update(paymentItems)
              .set({ newEndDate: sql`(select value ->> 'e' from json_each(${endsJson}) where value ->> 'u' = "payment_items"."user_id")` })
              .where(and(eq(paymentItems.paymentId, p.id), sql`exists (select 1 from ${payments} where ${done})`)),
          ]
        : []),
      control
        .update(payments)
        .set({ applyPending: false, appliedAt: new Date(), ...(p.kind === 'team' ? {} : { newEndDate: ends.get(p.userId) ?? null }) })
        .where(done),
    ]);
  }
}

/**
 * A free-months code's months in its user's shard; answers the end date it left (null: the user is
 * unknown). The request that used the code names the use and the caller's home, sparing two reads.
 */
export async function applyPromoUse(
  env: Bindings,
  control: Db,
  useId: string,
  known?: { userId: string; months: number; useDate: Date; home: { companyId: string; shard: string } },
): Promise<Date | null> {
  let use: { userId: string; months: number; useDate: Date } | undefined = known;
  if (!use) {
    const [row] = await control
      .select({ userId: promoUses.userId, useDate: promoUses.useDate, type: promoCodes.effectType, months: promoCodes.effectValue })
      .from(promoUses)
      .innerJoin(promoCodes, eq(promoCodes.id, promoUses.promoId))
      .where(eq(promoUses.id, useId))
      .limit(1);
    // a discount changes no end date: its payment does
    if (row?.type !== 'freeMonths') return null;
    use = row;
  }
  // written already: the shard's row answers the end date it left, and nothing moves
  const ends = await applyChanges(env, control, [{ id: changeId.promo(useId), userId: use.userId, months: use.months, days: 0 }], {
    at: use.useDate,
    endTrial: false,
    known: known ? new Map([[known.userId, known.home]]) : undefined,
  });
  await control
    .update(promoUses)
    .set({ applyPending: false, appliedAt: new Date() })
    .where(and(eq(promoUses.id, useId), eq(promoUses.applyPending, true)));
  return ends.get(use.userId) ?? null;
}

export async function applyRefund(env: Bindings, control: Db, refundId: string): Promise<void> {
  const [r] = await control.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId)).limit(1);
  if (!r?.applyPending) return;
  if (r.userId && r.monthsRemoved > 0)
    await applyChanges(env, control, [{ id: changeId.refund(r.id), userId: r.userId, months: -r.monthsRemoved, days: 0 }], {
      at: r.createdAt,
      endTrial: false,
    });
  await control
    .update(paymentRefunds)
    .set({ applyPending: false, appliedAt: new Date() })
    .where(and(eq(paymentRefunds.id, r.id), eq(paymentRefunds.applyPending, true)));
}

/** Runs an apply; a failure (a company moving, a shard out of reach) is logged and left to the next try. */
export async function tryApply<T>(what: string, id: string, apply: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await apply() };
  } catch (err) {
    log('warn', { event: 'money.apply_deferred', what, id, error: err instanceof Error ? err.message : String(err) });
    return { ok: false };
  }
}
