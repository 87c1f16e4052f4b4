import { DurableObject } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { payments, users } from '../db/schema';
import type { OrderStatus } from './payments.schema';
import { type Bindings, isDevelopment } from '../env';
import { createDb, runBatch } from '../lib/db';
import { extendByMonths } from '../lib/subscription';
import { spendDiscount } from '../promo/promo.discount';

/** Unpaid orders expire after this long (the alarm). */
export const ORDER_TTL_MS = 60 * 60_000;

/**
 * The order's state machine. A signed confirmation is not in this table: it confirms an order in
 * any state but `confirmed`, because by then Idram has taken the money (docs/decisions/0003-payments.md).
 */
export const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  requested: ['link_generated', 'link_failed', 'expired'],
  link_generated: ['prechecked', 'failed', 'expired'],
  link_failed: [],
  prechecked: ['prechecked', 'failed', 'expired'],
  confirmed: [],
  failed: [],
  expired: [],
};

/** States in which Idram may still take the money (the payment page and the precheck). */
export const PAYABLE: readonly OrderStatus[] = ['link_generated', 'prechecked'];

interface OrderState {
  orderId: string;
  status: OrderStatus;
  priceTotal: number;
}

export interface IdramPayment {
  transId: string | null;
  payerAccount: string | null;
}

export type ConfirmResult = 'confirmed' | 'replay' | 'unknown' | 'error';

/** Whether the merchant settings let us build an Idram payment form (the link is our own page). */
export const idramConfigured = (env: Bindings) => Boolean(env.IDRAM_REC_ACCOUNT && env.IDRAM_SECRET_KEY && (isDevelopment(env) || env.IDRAM_PAYMENT_URL));

/**
 * One object per payment order (idFromName(orderId)): the state machine above, and the alarm
 * that expires an unpaid order. Every change runs under `blockConcurrencyWhile`, so two
 * confirmations racing are applied one after the other and the second is a replay. D1 holds
 * the record; the batch that confirms it also extends the payee's subscription.
 */
export class PaymentOrder extends DurableObject<Bindings> {
  /**
   * Runs one change at a time. A callback that throws inside blockConcurrencyWhile resets the
   * object, so a failure (D1 unreachable, a duplicate transaction id) answers `fallback` instead;
   * storage is only written after the D1 write it follows, so nothing is half-applied.
   */
  private serial<T>(fallback: T, fn: () => Promise<T>): Promise<T> {
    return this.ctx.blockConcurrencyWhile(async () => {
      try {
        return await fn();
      } catch (err) {
        console.error('payment order change failed', err);
        return fallback;
      }
    });
  }

  private state(): Promise<OrderState | undefined> {
    return this.ctx.storage.get<OrderState>('order');
  }

  private async move(order: OrderState, to: OrderStatus, d1: Partial<typeof payments.$inferInsert> = {}): Promise<boolean> {
    if (!TRANSITIONS[order.status].includes(to)) return false;
    // D1 first, so a failed write leaves the object where it was; D1 never un-confirms a payment
    await createDb(this.env.DB)
      .update(payments)
      .set({ status: to, ...d1 })
      .where(and(eq(payments.id, order.orderId), eq(payments.isPaymentConfirmed, false)));
    order.status = to;
    await this.ctx.storage.put('order', order);
    return true;
  }

  /**
   * requested → link_generated | link_failed, and arms the expiry alarm. Idempotent: a second
   * call (the Payment screen's poll re-driving an order) answers the state it is in.
   */
  async open(orderId: string, priceTotal: number, linkOk: boolean): Promise<OrderStatus> {
    return this.serial<OrderStatus>('requested', async () => {
      let order = await this.state();
      if (!order) {
        order = { orderId, priceTotal, status: 'requested' };
        await this.ctx.storage.put('order', order);
        await this.ctx.storage.setAlarm(Date.now() + ORDER_TTL_MS);
      }
      if (order.status === 'requested') await this.move(order, linkOk ? 'link_generated' : 'link_failed', { isLinkGenerationFailed: !linkOk });
      return order.status;
    });
  }

  async status(): Promise<OrderStatus | null> {
    return (await this.state())?.status ?? null;
  }

  /** Idram's precheck: only an open, unpaid order for the same amount. */
  async precheck(amount: number): Promise<boolean> {
    return this.serial(false, async () => {
      const order = await this.state();
      if (!order || !PAYABLE.includes(order.status) || order.priceTotal !== amount) return false;
      return this.move(order, 'prechecked');
    });
  }

  /**
   * A checksum-verified confirmation: applied exactly once, whatever state the order is in
   * (the money was taken). An order whose object was never opened is confirmed from D1.
   */
  async confirm(orderId: string, payment: IdramPayment): Promise<ConfirmResult> {
    return this.serial<ConfirmResult>('error', async () => {
      const order = (await this.state()) ?? (await orderFromD1(this.env, orderId));
      if (!order) return 'unknown';
      if (order.status === 'confirmed') return 'replay';
      const applied = await confirmInD1(this.env, order.orderId, payment);
      order.status = 'confirmed';
      await this.ctx.storage.put('order', order);
      await this.ctx.storage.deleteAlarm();
      return applied ? 'confirmed' : 'replay';
    });
  }

  /** The payer declined (the development simulator's Decline). */
  async decline(): Promise<boolean> {
    return this.serial(false, async () => {
      const order = await this.state();
      if (!order || !(await this.move(order, 'failed'))) return false;
      await this.ctx.storage.deleteAlarm();
      return true;
    });
  }

  /** Expiry. Alarms run at least once and may retry: a second run, or a paid order, changes nothing. */
  async alarm(): Promise<void> {
    const expired = await this.serial<boolean | 'retry'>('retry', async () => {
      const order = await this.state();
      return order ? this.move(order, 'expired') : false;
    });
    // throwing from alarm() makes the runtime retry it later
    if (expired === 'retry') throw new Error('order expiry failed; the alarm will retry');
  }
}

async function orderFromD1(env: Bindings, orderId: string): Promise<OrderState | undefined> {
  const [row] = await createDb(env.DB).select().from(payments).where(eq(payments.id, orderId)).limit(1);
  return row ? { orderId: row.id, priceTotal: row.priceTotal, status: row.isPaymentConfirmed ? 'confirmed' : row.status } : undefined;
}

/**
 * One D1 batch: the payment becomes confirmed (only if it was not), the payee's subscription
 * grows by the months bought (only if this very confirmation landed: the marker below), and a
 * pending promo discount is spent. Answers whether this call confirmed it.
 */
export async function confirmInD1(env: Bindings, orderId: string, payment: IdramPayment): Promise<boolean> {
  const db = createDb(env.DB);
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order || order.isPaymentConfirmed) return false;
  const [payee] = await db.select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, order.userId)).limit(1);
  const confirmedAt = new Date();
  const readEnd = payee?.end ?? null;
  const newEnd = extendByMonths(readEnd, order.amount, confirmedAt);
  const landed = sql`exists (select 1 from ${payments} where ${payments.id} = ${orderId} and ${payments.confirmedAt} = ${confirmedAt.getTime()})`;
  // compare-and-set: the end date is only moved from the value this extension was computed from
  const unchanged = sql`${users.subscriptionEndDate} is ${readEnd ? readEnd.getTime() : null}`;
  const statements = [
    db
      .update(payments)
      .set({
        isPaymentConfirmed: true,
        isOrderConfirmationReceived: true,
        status: 'confirmed',
        transId: payment.transId,
        payerAccount: payment.payerAccount,
        confirmedAt,
      })
      .where(and(eq(payments.id, orderId), eq(payments.isPaymentConfirmed, false))),
    db
      .update(users)
      .set({ subscriptionEndDate: newEnd, isTrialPeriod: false })
      .where(and(eq(users.id, order.userId), landed, unchanged)),
    ...(order.promoUseId ? [spendDiscount(db, order.promoUseId, orderId)] : []),
  ];
  const results = await runBatch(db, statements);
  const [after] = await db.select({ confirmedAt: payments.confirmedAt }).from(payments).where(eq(payments.id, orderId));
  const mine = after?.confirmedAt?.getTime() === confirmedAt.getTime();
  const extended = ((results[1] as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0) > 0;
  if (mine && !extended) await settleExtension(db, order.userId, order.amount);
  return mine;
}

/**
 * If the payee's end date moved between the read and the batch (another payment or a free-months
 * promo landed at the same moment), the batch's guarded update did nothing: apply this payment's
 * months again on top of the new date, compare-and-set, so no extension is ever lost.
 */
async function settleExtension(db: ReturnType<typeof createDb>, userId: string, months: number) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [row] = await db.select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, userId)).limit(1);
    if (!row) return;
    const current = row.end ?? null;
    const next = extendByMonths(current, months, new Date());
    const res = await db
      .update(users)
      .set({ subscriptionEndDate: next, isTrialPeriod: false })
      .where(and(eq(users.id, userId), sql`${users.subscriptionEndDate} is ${current ? current.getTime() : null}`))
      .returning({ id: users.id });
    if (res.length) return;
  }
}
