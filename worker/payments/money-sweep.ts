import { and, eq, lt } from 'drizzle-orm';
import { paymentRefunds, payments, promoUses } from '../db/schema';
import type { Bindings } from '../env';
import { controlDb } from '../lib/d1';
import { sendReceipts } from './receipts';
import { applyPayment, applyPromoUse, applyRefund, tryApply } from './settle';

/** Changes younger than this are still with the request or object that made them. */
const SWEEP_AFTER_MS = 60_000;
const SWEEP_BATCH = 100;

/** For a Worker cut off between the two writes, or a company that was moving. Running it twice writes nothing twice. */
export async function sweepMoneyChanges(env: Bindings, now = new Date()): Promise<{ applied: number; deferred: number }> {
  const control = controlDb(env);
  const before = new Date(now.getTime() - SWEEP_AFTER_MS);
  const [paid, uses, refunds] = await Promise.all([
    control
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.applyPending, true), lt(payments.confirmedAt, before)))
      .limit(SWEEP_BATCH),
    control
      .select({ id: promoUses.id })
      .from(promoUses)
      .where(and(eq(promoUses.applyPending, true), lt(promoUses.useDate, before)))
      .limit(SWEEP_BATCH),
    control
      .select({ id: paymentRefunds.id })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.applyPending, true), lt(paymentRefunds.createdAt, before)))
      .limit(SWEEP_BATCH),
  ]);
  const outcomes = await Promise.all([
    ...paid.map((p) =>
      tryApply('payment', p.id, async () => {
        await applyPayment(env, control, p.id);
        await sendReceipts(env, control, p.id);
      }),
    ),
    ...uses.map((u) => tryApply('promo', u.id, () => applyPromoUse(env, control, u.id))),
    ...refunds.map((r) => tryApply('refund', r.id, () => applyRefund(env, control, r.id))),
  ]);
  const applied = outcomes.filter((o) => o.ok).length;
  return { applied, deferred: outcomes.length - applied };
}
