import { DurableObject } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { payments, users } from '../db/schema';
import type { OrderStatus } from '../db/schema/payments';
import type { Bindings } from '../env';
import { createDb } from '../lib/db';
import { extendByMonths } from '../lib/subscription';
import { spendDiscount } from '../promo/promo.discount';

/** Unpaid orders expire after this long. */
export const ORDER_TTL_MS = 60 * 60_000;

interface OrderState {
  orderId: string;
  status: OrderStatus;
  priceTotal: number;
}

export type ConfirmResult = 'confirmed' | 'replay' | 'unknown';

/**
 * One object per payment order: its state machine (link generated → prechecked → confirmed,
 * or failed / expired) and the expiry alarm. Confirmation runs under `blockConcurrencyWhile`,
 * so two confirmations racing are applied one after the other and the second is a replay.
 * D1 holds the record; the batch that confirms also extends the payee's subscription.
 */
export class PaymentOrder extends DurableObject<Bindings> {
  private async state(): Promise<OrderState | undefined> {
    return this.ctx.storage.get<OrderState>('order');
  }

  async open(orderId: string, priceTotal: number, status: OrderStatus): Promise<void> {
    await this.ctx.storage.put('order', { orderId, priceTotal, status } satisfies OrderState);
    if (status !== 'confirmed') await this.ctx.storage.setAlarm(Date.now() + ORDER_TTL_MS);
  }

  async status(): Promise<OrderStatus | null> {
    return (await this.state())?.status ?? null;
  }

  /** Idram's precheck: only an open, unpaid order for the same amount. */
  async precheck(amount: number): Promise<boolean> {
    const order = await this.state();
    if (!order || !['link_generated', 'prechecked'].includes(order.status) || order.priceTotal !== amount) return false;
    order.status = 'prechecked';
    await this.ctx.storage.put('order', order);
    return true;
  }

  /** The confirmation: applied exactly once, whatever the order's state (the money was taken). */
  async confirm(payment: { transId: string | null; payerAccount: string | null }): Promise<ConfirmResult> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const order = await this.state();
      if (!order) return 'unknown';
      if (order.status === 'confirmed') return 'replay';
      const applied = await confirmInD1(this.env, order.orderId, payment);
      order.status = 'confirmed';
      await this.ctx.storage.put('order', order);
      await this.ctx.storage.deleteAlarm();
      return applied ? 'confirmed' : 'replay';
    });
  }

  async decline(): Promise<void> {
    await this.ctx.blockConcurrencyWhile(async () => {
      const order = await this.state();
      if (!order || order.status === 'confirmed') return;
      order.status = 'failed';
      await this.ctx.storage.put('order', order);
      await createDb(this.env.DB).update(payments).set({ status: 'failed' }).where(and(eq(payments.id, order.orderId), eq(payments.isPaymentConfirmed, false)));
    });
  }

  /** Expiry: idempotent (alarms run at least once); a confirmed order is left alone. */
  async alarm(): Promise<void> {
    const order = await this.state();
    if (!order || order.status === 'confirmed' || order.status === 'failed' || order.status === 'expired') return;
    order.status = 'expired';
    await this.ctx.storage.put('order', order);
    await createDb(this.env.DB).update(payments).set({ status: 'expired' }).where(and(eq(payments.id, order.orderId), eq(payments.isPaymentConfirmed, false)));
  }
}

/**
 * One D1 batch: the payment becomes confirmed (only if it was not), the payee's subscription
 * grows by the months bought (only if this very confirmation landed), and a promo discount is
 * spent. Answers whether this call confirmed it.
 */
export async function confirmInD1(env: Bindings, orderId: string, payment: { transId: string | null; payerAccount: string | null }) {
  const db = createDb(env.DB);
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order || order.isPaymentConfirmed) return false;
  const [payee] = await db.select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, order.userId)).limit(1);
  const confirmedAt = new Date();
  const newEnd = extendByMonths(payee?.end ?? null, order.amount, confirmedAt);
  const marker = sql`exists (select 1 from ${payments} where ${payments.id} = ${orderId} and ${payments.confirmedAt} = ${confirmedAt.getTime()})`;
  const statements = [
    db
      .update(payments)
      .set({ isPaymentConfirmed: true, isOrderConfirmationReceived: true, status: 'confirmed', transId: payment.transId, payerAccount: payment.payerAccount, confirmedAt })
      .where(and(eq(payments.id, orderId), eq(payments.isPaymentConfirmed, false))),
    db.update(users).set({ subscriptionEndDate: newEnd, isTrialPeriod: false }).where(and(eq(users.id, order.userId), marker)),
    ...(order.promoUseId ? [spendDiscount(db, order.promoUseId, orderId)] : []),
  ];
  await db.batch(statements as [(typeof statements)[0], ...(typeof statements)[number][]]);
  const [after] = await db.select({ confirmedAt: payments.confirmedAt }).from(payments).where(eq(payments.id, orderId));
  return after?.confirmedAt?.getTime() === confirmedAt.getTime();
}
