import { and, eq, inArray, sql } from 'drizzle-orm';
import type * as z from 'zod';
import { paymentRefunds, payments } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { inJson } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { itemsOf } from './items';
import { PAYMENT_MESSAGES, type PaymentSummaryDto, type refundSchema } from './payments.schema';
import { applyRefund, tryApply } from './settle';

type RefundInput = z.output<typeof refundSchema>;

/** What a payment's refunds add up to, and the months already taken back from each user. */
async function refundedSoFar(db: Db, paymentId: string) {
  const rows = await db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
  const months = new Map<string, number>();
  for (const r of rows) if (r.userId) months.set(r.userId, (months.get(r.userId) ?? 0) + r.monthsRemoved);
  return { amount: rows.reduce((sum, r) => sum + r.amount, 0), months };
}

/**
 * Sums are read inside the INSERT … SELECT, so two refunds at once cannot both pass the limits; the
 * months are then taken back in the user's shard (or by the sweep). The money moves in Idram's tools.
 */
export async function refund(env: Bindings, db: Db, caller: Caller, input: RefundInput) {
  const [payment] = await db.select().from(payments).where(eq(payments.id, input.paymentId)).limit(1);
  if (!payment) throw apiError(PAYMENT_MESSAGES.paymentNotFound);
  const moneyTaken = payment.isPaymentConfirmed || payment.status === 'needs_refund';
  if (!moneyTaken) throw apiError(PAYMENT_MESSAGES.notPaid);

  // whose months, and how many the payment bought for them
  let target: { userId: string; bought: number } | null = null;
  if (input.monthsRemoved > 0) {
    if (!payment.isPaymentConfirmed) throw apiError(PAYMENT_MESSAGES.nothingExtended);
    if (payment.kind === 'team') {
      const item = (await itemsOf(db, payment.id)).find((i) => i.userId === input.userId);
      if (!item) throw apiError(PAYMENT_MESSAGES.chooseRefundUser);
      target = { userId: item.userId, bought: item.months };
    } else {
      if (input.userId && input.userId !== payment.userId) throw apiError(PAYMENT_MESSAGES.chooseRefundUser);
      target = { userId: payment.userId, bought: payment.amount };
    }
  }

  const id = randomId();
  const monthsSoFar = target
    ? sql`(select coalesce(sum(${paymentRefunds.monthsRemoved}), 0) from ${paymentRefunds} where ${paymentRefunds.paymentId} = ${payment.id} and ${paymentRefunds.userId} = ${target.userId})`
    : sql`0`;
  const insert = db.insert(paymentRefunds).select(
    db
      .select({
        // every column, in the table's order
        id: sql<string>`${id}`.as('id'),
        paymentId: sql<string>`${payment.id}`.as('payment_id'),
        amount: sql<number>`${input.amount}`.as('amount'),
        reason: sql<string>`${input.reason}`.as('reason'),
        monthsRemoved: sql<number>`${input.monthsRemoved}`.as('months_removed'),
        userId: sql<string | null>`${target?.userId ?? null}`.as('user_id'),
        createdBy: sql<string>`${caller.id}`.as('created_by'),
        createdAt: sql<number>`${Date.now()}`.as('created_at'),
        applyPending: sql<number>`${target ? 1 : 0}`.as('apply_pending'),
        appliedAt: sql<null>`null`.as('applied_at'),
      })
      .from(payments)
      .where(
        and(
          eq(payments.id, payment.id),
          sql`(select coalesce(sum(${paymentRefunds.amount}), 0) from ${paymentRefunds} where ${paymentRefunds.paymentId} = ${payment.id}) + ${input.amount} <= ${payments.priceTotal}`,
          sql`${monthsSoFar} + ${input.monthsRemoved} <= ${target?.bought ?? 0}`,
        ),
      ),
  );
  const inserted = await insert;
  if (!inserted.meta.changes) {
    // over the limits (perhaps because another refund landed first): say what is left
    const so = await refundedSoFar(db, payment.id);
    const left = payment.priceTotal - so.amount;
    if (input.amount > left) throw apiError(PAYMENT_MESSAGES.refundAmountLeft, { amount: left });
    const monthsLeft = (target?.bought ?? 0) - (target ? (so.months.get(target.userId) ?? 0) : 0);
    throw monthsLeft === 1 ? apiError(PAYMENT_MESSAGES.refundMonthLeft) : apiError(PAYMENT_MESSAGES.refundMonthsLeft, { months: monthsLeft });
  }
  if (target) await tryApply('refund', id, () => applyRefund(env, db, id));
  const so = await refundedSoFar(db, payment.id);
  return { message: 'Refund recorded', _id: id, refunded: so.amount, leftToRefund: payment.priceTotal - so.amount };
}

export async function refundsByPayment(db: Db, paymentIds: string[]) {
  const byPayment = new Map<string, (typeof paymentRefunds.$inferSelect)[]>();
  if (!paymentIds.length) return byPayment;
  const rows = await db.select().from(paymentRefunds).where(inJson(paymentRefunds.paymentId, paymentIds)).orderBy(paymentRefunds.createdAt);
  for (const r of rows) byPayment.set(r.paymentId, [...(byPayment.get(r.paymentId) ?? []), r]);
  return byPayment;
}

/** Computed in SQL over every payment, net of refunds and months taken back. */
export async function paymentSummary(db: Db): Promise<PaymentSummaryDto> {
  const refundedOf = sql`(select coalesce(sum(${paymentRefunds.amount}), 0) from ${paymentRefunds} where ${paymentRefunds.paymentId} = ${payments.id})`;
  const monthsBackOf = sql`(select coalesce(sum(${paymentRefunds.monthsRemoved}), 0) from ${paymentRefunds} where ${paymentRefunds.paymentId} = ${payments.id})`;
  const [[confirmed], [owed]] = await Promise.all([
    db
      .select({
        count: sql<number>`count(*)`,
        total: sql<number>`coalesce(sum(${payments.priceTotal}), 0)`,
        refunded: sql<number>`coalesce(sum(${refundedOf}), 0)`,
        months: sql<number>`coalesce(sum(${payments.amount} - ${monthsBackOf}), 0)`,
      })
      .from(payments)
      .where(eq(payments.isPaymentConfirmed, true)),
    db
      .select({ count: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${payments.priceTotal} - ${refundedOf}), 0)` })
      .from(payments)
      .where(and(inArray(payments.status, ['needs_refund']), sql`${payments.priceTotal} > ${refundedOf}`)),
  ]);
  return {
    confirmedTotal: confirmed!.total,
    confirmedCount: confirmed!.count,
    refundedTotal: confirmed!.refunded,
    netRevenue: confirmed!.total - confirmed!.refunded,
    owedTotal: owed!.total,
    owedCount: owed!.count,
    monthsSold: confirmed!.months,
  };
}
