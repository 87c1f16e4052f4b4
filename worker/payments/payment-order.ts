import { DurableObject } from 'cloudflare:workers';
import { and, eq, ne, not, sql } from 'drizzle-orm';
import { payments, users } from '../db/schema';
import { ORDER_TTL_MS, type OrderStatus } from './payments.schema';
import { type Bindings, isDevelopment } from '../env';
import { createDb, runBatch } from '../lib/db';
import { extendByMonthsSql } from '../lib/subscription';
import { discountSpentOn, spendDiscount } from '../promo/promo.discount';
import { extendItems, recordItemEndDates } from './items';

export { ORDER_TTL_MS } from './payments.schema';

/**
 * The order's state machine. A signed confirmation is not in this table: it confirms an order in
 * any state but `confirmed`, because by then Idram has taken the money (docs/rules/payments.md#0058-late-confirmations).
 */
export const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  requested: ['link_generated', 'link_failed', 'expired', 'canceled'],
  link_generated: ['prechecked', 'failed', 'expired', 'canceled'],
  link_failed: [],
  prechecked: ['prechecked', 'failed', 'expired', 'canceled'],
  confirmed: [],
  failed: [],
  expired: [],
  canceled: [],
  needs_refund: [],
};

/** What Idram's precheck is told: `ok`, or why the order is not open for payment. */
export type PrecheckResult = 'ok' | 'expired' | 'canceled' | 'closed';
/** What the payer's Cancel did: `canceled` (now, or already), or why not. */
export type CancelResult = 'canceled' | 'paid' | 'closed' | 'unknown' | 'error';

/** States in which Idram may still take the money (the payment page and the precheck). */
export const PAYABLE: readonly OrderStatus[] = ['link_generated', 'prechecked'];

interface OrderState {
  orderId: string;
  status: OrderStatus;
  priceTotal: number;
  /** When the order stops being payable (its creation + ORDER_TTL_MS); absent in objects opened before it was kept. */
  expiresAt?: number;
}

export interface IdramPayment {
  transId: string | null;
  payerAccount: string | null;
}

/** `refund`: the money was taken, but the order's discount had gone to another order: recorded, nothing extended. */
export type ConfirmResult = 'confirmed' | 'refund' | 'replay' | 'unknown' | 'error';

/** Terminal states a signed confirmation leaves an order in; a second confirmation is a replay. */
const SETTLED: readonly OrderStatus[] = ['confirmed', 'needs_refund'];

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

  /** GET /api/health: answers once the namespace could start an object (the health check's own, named "health"). */
  ping(): 'ok' {
    return 'ok';
  }

  private state(): Promise<OrderState | undefined> {
    return this.ctx.storage.get<OrderState>('order');
  }

  private async move(order: OrderState, to: OrderStatus, d1: Partial<typeof payments.$inferInsert> = {}): Promise<boolean> {
    if (!TRANSITIONS[order.status].includes(to)) return false;
    // D1 first, so a failed write leaves the object where it was; D1 never un-confirms a payment
    // nor forgets that one is owed back
    await createDb(this.env.DB)
      .update(payments)
      .set({ status: to, ...d1 })
      .where(and(eq(payments.id, order.orderId), eq(payments.isPaymentConfirmed, false), ne(payments.status, 'needs_refund')));
    order.status = to;
    await this.ctx.storage.put('order', order);
    return true;
  }

  /**
   * requested → link_generated | link_failed, and arms the expiry alarm. Idempotent: a second
   * call (the Payment screen's poll re-driving an order) answers the state it is in.
   */
  async open(orderId: string, priceTotal: number, linkOk: boolean, createdAt = Date.now()): Promise<OrderStatus> {
    return this.serial<OrderStatus>('requested', async () => {
      let order = await this.state();
      if (!order) {
        // the order's own clock (its row's dateCreated), so the history's label and this object agree
        order = { orderId, priceTotal, status: 'requested', expiresAt: createdAt + ORDER_TTL_MS };
        await this.ctx.storage.put('order', order);
        await this.ctx.storage.setAlarm(order.expiresAt!);
      }
      if (order.status === 'requested') await this.move(order, linkOk ? 'link_generated' : 'link_failed', { isLinkGenerationFailed: !linkOk });
      return order.status;
    });
  }

  async status(): Promise<OrderStatus | null> {
    return (await this.state())?.status ?? null;
  }

  /**
   * Idram's precheck: only an open, unpaid order for the same amount, before it expires. The
   * expiry time is checked here, under the same lock as the alarm, so a precheck that arrives
   * after the order's time is refused (and expires the order) even if the alarm has not run yet.
   */
  async precheck(amount: number): Promise<PrecheckResult> {
    return this.serial<PrecheckResult>('closed', async () => {
      const order = await this.state();
      if (!order) return 'closed';
      if (PAYABLE.includes(order.status) && order.expiresAt !== undefined && Date.now() >= order.expiresAt) {
        await this.move(order, 'expired');
        await this.ctx.storage.deleteAlarm();
      }
      if (order.status === 'expired') return 'expired';
      if (order.status === 'canceled') return 'canceled';
      if (!PAYABLE.includes(order.status) || order.priceTotal !== amount) return 'closed';
      return (await this.move(order, 'prechecked')) ? 'ok' : 'closed';
    });
  }

  /**
   * The payer's Cancel: a waiting order becomes `canceled` (a second Cancel answers the same).
   * A paid order is never canceled; a signed confirmation that arrives after the Cancel is still
   * applied, because Idram took the money (docs/decisions/0020-order-expiry.md).
   */
  async cancel(orderId: string): Promise<CancelResult> {
    return this.serial<CancelResult>('error', async () => {
      const order = (await this.state()) ?? (await orderFromD1(this.env, orderId));
      if (!order) return 'unknown';
      if (order.status === 'canceled') return 'canceled';
      if (SETTLED.includes(order.status)) return 'paid';
      if (!(await this.move(order, 'canceled'))) return 'closed';
      await this.ctx.storage.deleteAlarm();
      return 'canceled';
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
      if (SETTLED.includes(order.status)) return 'replay';
      const outcome = await confirmInD1(this.env, order.orderId, payment);
      if (outcome.result === 'unknown') return 'unknown';
      order.status = outcome.status;
      await this.ctx.storage.put('order', order);
      await this.ctx.storage.deleteAlarm();
      return outcome.result;
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
    const expired = await this.expire();
    // throwing from alarm() makes the runtime retry it later
    if (expired === 'retry') throw new Error('order expiry failed; the alarm will retry');
  }

  /** The alarm's work: an order still open becomes `expired` (also the development simulator's Let it expire). */
  async expire(): Promise<boolean | 'retry'> {
    return this.serial<boolean | 'retry'>('retry', async () => {
      const order = await this.state();
      if (!order || !(await this.move(order, 'expired'))) return false;
      await this.ctx.storage.deleteAlarm();
      return true;
    });
  }
}

/** SQL: a user's stored end date, read inside the statement (after the batch's earlier statements). */
export const endDateOf = (userId: string) => sql<Date | null>`(select subscription_end_date from users where id = ${userId})`;

async function orderFromD1(env: Bindings, orderId: string): Promise<OrderState | undefined> {
  const [row] = await createDb(env.DB).select().from(payments).where(eq(payments.id, orderId)).limit(1);
  return row ? { orderId: row.id, priceTotal: row.priceTotal, status: row.isPaymentConfirmed ? 'confirmed' : row.status } : undefined;
}

/**
 * One D1 batch (D1 runs a batch as one transaction, one batch at a time), no read before it:
 *  1. the order's pending promo discount is spent on this order, if nobody spent it yet;
 *  2. the payee's subscription grows by the months bought, computed in SQL from the end date the
 *     row holds, only while this order is unconfirmed and its discount (if any) is spent on it (a
 *     team order: every item's user by its own months or days, in one UPDATE … FROM payment_items,
 *     and each item records the end date it left);
 *  3. the payment becomes confirmed, under the very same condition (nothing in between changes it),
 *     with the end date statement 2 left (the receipt's new end date);
 *  4. otherwise, if its discount went to another order, the money is recorded as received and the
 *     order as `needs_refund`: nothing is extended (docs/rules/payments.md#0056-needs-refund).
 * A replay (already confirmed or recorded) changes nothing.
 */
export async function confirmInD1(
  env: Bindings,
  orderId: string,
  payment: IdramPayment,
): Promise<{ result: Exclude<ConfirmResult, 'error'>; status: OrderStatus }> {
  const db = createDb(env.DB);
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order) return { result: 'unknown', status: 'requested' };
  if (order.isPaymentConfirmed || order.status === 'needs_refund') return { result: 'replay', status: order.isPaymentConfirmed ? 'confirmed' : 'needs_refund' };
  const open = and(eq(payments.id, orderId), eq(payments.isPaymentConfirmed, false), ne(payments.status, 'needs_refund'));
  const ours = order.promoUseId ? discountSpentOn(order.promoUseId, orderId) : sql`1`;
  const confirmable = sql`exists (select 1 from ${payments} where ${and(open, ours)})`;
  const received = { isOrderConfirmationReceived: true, transId: payment.transId, payerAccount: payment.payerAccount, confirmedAt: new Date() };
  // a team order extends each of its items' users, a single one its payee; both under `confirmable`
  const extend =
    order.kind === 'team'
      ? [extendItems(db, orderId, confirmable), recordItemEndDates(db, orderId, confirmable)]
      : [
          db
            .update(users)
            .set({ subscriptionEndDate: sql`${extendByMonthsSql(users.subscriptionEndDate, order.amount)}`, isTrialPeriod: false })
            .where(and(eq(users.id, order.userId), confirmable)),
        ];
  const statements = [
    ...(order.promoUseId ? [spendDiscount(db, order.promoUseId, orderId)] : []),
    ...extend,
    db
      .update(payments)
      // the end date the extension just wrote: the receipt's "new end date", exact whatever lands later
      .set({ ...received, isPaymentConfirmed: true, status: 'confirmed', newEndDate: order.kind === 'team' ? null : endDateOf(order.userId) })
      .where(and(open, ours)),
    ...(order.promoUseId
      ? [
          db
            .update(payments)
            .set({ ...received, status: 'needs_refund' })
            .where(and(open, not(ours))),
        ]
      : []),
  ];
  const results = await runBatch(db, statements);
  const changed = (i: number) => ((results[i] as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0) > 0;
  const confirmStatement = (order.promoUseId ? 1 : 0) + extend.length;
  if (changed(confirmStatement)) return { result: 'confirmed', status: 'confirmed' };
  if (changed(confirmStatement + 1)) return { result: 'refund', status: 'needs_refund' };
  // another batch settled it first (a confirmation outside this object's lock): a replay
  const [after] = await db.select({ confirmed: payments.isPaymentConfirmed }).from(payments).where(eq(payments.id, orderId)).limit(1);
  return { result: 'replay', status: after?.confirmed === false ? 'needs_refund' : 'confirmed' };
}
