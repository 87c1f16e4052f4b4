import { DurableObject } from 'cloudflare:workers';
import { and, eq, ne, not, sql } from 'drizzle-orm';
import { payments } from '../db/schema';
import { type Bindings, isDevelopment } from '../env';
import { controlDb } from '../lib/d1';
import { runBatch } from '../lib/db';
import { discountSpentOn, spendDiscount } from '../promo/promo.discount';
import { ORDER_TTL_MS, type OrderStatus } from './payments.schema';
import { sendReceipts } from './receipts';
import { applyPayment, tryApply } from './settle';

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

export type PrecheckResult = 'ok' | 'expired' | 'canceled' | 'closed';
export type CancelResult = 'canceled' | 'paid' | 'closed' | 'unknown' | 'error';

/** States in which Idram may still take the money (the payment page and the precheck). */
export const PAYABLE: readonly OrderStatus[] = ['link_generated', 'prechecked'];

interface OrderState {
  orderId: string;
  status: OrderStatus;
  priceTotal: number;
  /** Creation + ORDER_TTL_MS; absent in objects opened before it was kept. */
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

export const idramConfigured = (env: Bindings) => Boolean(env.IDRAM_REC_ACCOUNT && env.IDRAM_SECRET_KEY && (isDevelopment(env) || env.IDRAM_PAYMENT_URL));

/** Doubles per retry up to APPLY_RETRY_MAX_MS. */
export const APPLY_RETRY_MS = 5_000;
const APPLY_RETRY_MAX_MS = 5 * 60_000;

/**
 * One object per order: every change runs under `blockConcurrencyWhile`, so of two racing
 * confirmations the second is a replay. The alarm expires an unpaid order and retries `settle`.
 */
export class PaymentOrder extends DurableObject<Bindings> {
  /** A throw inside blockConcurrencyWhile resets the object, so a failure answers `fallback`; storage follows its D1 write. */
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
    await controlDb(this.env)
      .update(payments)
      .set({ status: to, ...d1 })
      .where(and(eq(payments.id, order.orderId), eq(payments.isPaymentConfirmed, false), ne(payments.status, 'needs_refund')));
    order.status = to;
    await this.ctx.storage.put('order', order);
    return true;
  }

  /** Idempotent: the Payment screen's poll re-drives an order. */
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

  /** The expiry is checked under the alarm's lock, so a late precheck is refused even before the alarm runs. */
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

  /** A paid order is never canceled; a confirmation after a Cancel still applies (docs/decisions/0020-order-expiry.md). */
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
   * Applied exactly once whatever the state (the money was taken). `confirmed` once the control plane
   * holds it; if the payee's company is moving, the alarm writes the months.
   */
  async confirm(orderId: string, payment: IdramPayment): Promise<ConfirmResult> {
    return this.serial<ConfirmResult>('error', async () => {
      const order = (await this.state()) ?? (await orderFromD1(this.env, orderId));
      if (!order) return 'unknown';
      if (SETTLED.includes(order.status)) {
        // a replay also finishes what an earlier call left (its months, its receipts)
        if (order.status === 'confirmed') await this.settle(order.orderId);
        return 'replay';
      }
      const outcome = await confirmInControl(this.env, order.orderId, payment);
      if (outcome.result === 'unknown') return 'unknown';
      order.status = outcome.status;
      await this.ctx.storage.put('order', order);
      if (outcome.status === 'confirmed') await this.settle(order.orderId);
      else await this.ctx.storage.deleteAlarm();
      return outcome.result;
    });
  }

  /** The alarm is armed before the write, so an object cut off in between finishes it. True once written. */
  private async settle(orderId: string): Promise<boolean> {
    const tries = (await this.ctx.storage.get<number>('applyTries')) ?? 0;
    await this.ctx.storage.setAlarm(Date.now() + Math.min(APPLY_RETRY_MS * 2 ** tries, APPLY_RETRY_MAX_MS));
    const done = await tryApply('payment', orderId, () => applyPayment(this.env, controlDb(this.env), orderId));
    if (!done.ok) {
      await this.ctx.storage.put('applyTries', tries + 1);
      return false;
    }
    await this.ctx.storage.delete('applyTries');
    await this.ctx.storage.deleteAlarm();
    return true;
  }

  async decline(): Promise<boolean> {
    return this.serial(false, async () => {
      const order = await this.state();
      if (!order || !(await this.move(order, 'failed'))) return false;
      await this.ctx.storage.deleteAlarm();
      return true;
    });
  }

  /** Alarms run at least once and may retry: a second run, or a paid order, changes nothing. */
  async alarm(): Promise<void> {
    const confirmed = await this.serial<{ orderId: string; settled: boolean } | null>(null, async () => {
      const order = await this.state();
      if (order?.status !== 'confirmed') return null;
      return { orderId: order.orderId, settled: await this.settle(order.orderId) };
    });
    if (confirmed) {
      // outside the lock, as after a confirmation (decision 0012)
      if (confirmed.settled) await sendReceipts(this.env, controlDb(this.env), confirmed.orderId);
      return;
    }
    const expired = await this.expire();
    // throwing from alarm() makes the runtime retry it later
    if (expired === 'retry') throw new Error('order expiry failed; the alarm will retry');
  }

  async expire(): Promise<boolean | 'retry'> {
    return this.serial<boolean | 'retry'>('retry', async () => {
      const order = await this.state();
      if (!order || !(await this.move(order, 'expired'))) return false;
      await this.ctx.storage.deleteAlarm();
      return true;
    });
  }
}

async function orderFromD1(env: Bindings, orderId: string): Promise<OrderState | undefined> {
  const [row] = await controlDb(env).select().from(payments).where(eq(payments.id, orderId)).limit(1);
  return row ? { orderId: row.id, priceTotal: row.priceTotal, status: row.isPaymentConfirmed ? 'confirmed' : row.status } : undefined;
}

/**
 * The confirmation's control-plane half: one D1 batch (one transaction), no read before it:
 *  1. the order's pending promo discount is spent on this order, if nobody spent it yet;
 *  2. the payment becomes confirmed, with its subscription change due (`applyPending`), only while
 *     it is unconfirmed and its discount (if any) is spent on it;
 *  3. otherwise, if its discount went to another order, the money is recorded as received and the
 *     order as `needs_refund`: nothing is due (docs/rules/payments.md#0056-needs-refund).
 * A replay (already confirmed or recorded) changes nothing. The months are written in the payees'
 * shards after it (`applyPayment`, docs/decisions/0179-money-in-the-control-plane.md).
 */
export async function confirmInControl(
  env: Bindings,
  orderId: string,
  payment: IdramPayment,
): Promise<{ result: Exclude<ConfirmResult, 'error'>; status: OrderStatus }> {
  const db = controlDb(env);
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order) return { result: 'unknown', status: 'requested' };
  if (order.isPaymentConfirmed || order.status === 'needs_refund') return { result: 'replay', status: order.isPaymentConfirmed ? 'confirmed' : 'needs_refund' };
  const open = and(eq(payments.id, orderId), eq(payments.isPaymentConfirmed, false), ne(payments.status, 'needs_refund'));
  const ours = order.promoUseId ? discountSpentOn(order.promoUseId, orderId) : sql`1`;
  const received = { isOrderConfirmationReceived: true, transId: payment.transId, payerAccount: payment.payerAccount, confirmedAt: new Date() };
  const statements = [
    ...(order.promoUseId ? [spendDiscount(db, order.promoUseId, orderId)] : []),
    db
      .update(payments)
      .set({ ...received, isPaymentConfirmed: true, status: 'confirmed', applyPending: true })
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
  const confirmStatement = order.promoUseId ? 1 : 0;
  if (changed(confirmStatement)) return { result: 'confirmed', status: 'confirmed' };
  if (changed(confirmStatement + 1)) return { result: 'refund', status: 'needs_refund' };
  // another batch settled it first (a confirmation outside this object's lock): a replay
  const [after] = await db.select({ confirmed: payments.isPaymentConfirmed }).from(payments).where(eq(payments.id, orderId)).limit(1);
  return { result: 'replay', status: after?.confirmed === false ? 'needs_refund' : 'confirmed' };
}
