import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { paymentItems, payments, promoUses, users } from '../db/schema';
import { type Bindings, type Caller, type Db, isDevelopment } from '../env';
import { runBatch } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { idramLanguage } from '../lib/languages';
import { pendingDiscount, spendDiscount } from '../promo/promo.discount';
import { peopleByIds } from '../users/people';
import { idramText } from './idram-texts';
import { insertItems, itemsByOrder, itemsOf, type OrderItem } from './items';
import { idramConfigured, ORDER_TTL_MS, PAYABLE } from './payment-order';
import { PAYMENT_MESSAGES, type PaymentDto, type PaymentLabel, type PaymentLinkDto, type PriceInfo, priceFor } from './payments.schema';
import { pricesAt } from './prices';
import { sendReceipts } from './receipts';
import { refundsByPayment } from './refunds';
import { applyPayment, tryApply } from './settle';

export type PaymentRow = typeof payments.$inferSelect;

/** Money lives in the control plane, users in their company's shard (docs/decisions/0179-money-in-the-control-plane.md). */

export async function priceInfo(env: Bindings, control: Db, caller: Caller): Promise<PriceInfo> {
  const [discount, prices] = await Promise.all([pendingDiscount(control, caller.id), pricesAt(env, control)]);
  return { price: prices.price, currency: 'AMD', discountPercent: discount?.percent ?? 0, promoName: discount?.name ?? null, upcoming: prices.upcoming };
}

export const orderStub = (env: Bindings, orderId: string) => env.PAYMENT_ORDER.get(env.PAYMENT_ORDER.idFromName(orderId));

/** Whom the caller may pay for: itself or, for a manager, one of its agents with a verified e-mail. */
async function payeeFor(db: Db, caller: Caller, userToBePaidId: string | null | undefined): Promise<string> {
  if (!userToBePaidId || userToBePaidId === caller.id) return caller.id;
  if (caller.userType !== 'manager') throw apiError(PAYMENT_MESSAGES.onlyManager);
  const [payee] = await db.select().from(users).where(eq(users.id, userToBePaidId)).limit(1);
  // another team's user answers as if it did not exist
  if (!payee || payee.deletedAt || payee.userType !== 'agent' || payee.parentId !== caller.id) throw apiError(PAYMENT_MESSAGES.userNotFound);
  if (!payee.isEmailVerified) throw apiError(PAYMENT_MESSAGES.notVerified);
  return payee.id;
}

/** An order the discount makes free is confirmed at once (`confirmFreeOrder`). */
export async function generateLink(
  env: Bindings,
  control: Db,
  db: Db,
  caller: Caller,
  input: { amount: number; userToBePaidId?: string | null; paymentType: string },
) {
  const type = input.paymentType.toLowerCase();
  if (type === 'arca') throw apiError(PAYMENT_MESSAGES.arca);
  if (type !== 'idram') throw apiError(PAYMENT_MESSAGES.paymentType);
  const payeeId = await payeeFor(db, caller, input.userToBePaidId);
  // the price in force now: a scheduled change applies to orders made after it starts
  const { price } = await pricesAt(env, control);
  const discount = await pendingDiscount(control, caller.id);
  const priceTotal = priceFor(price, input.amount, discount?.percent ?? 0);
  const order: NewOrder = { id: randomId(), kind: 'single', userId: payeeId, payerUserId: caller.id, amount: input.amount, monthlyPrice: price };
  if (priceTotal === 0 && discount) return confirmFreeOrder(env, control, order, discount.promoUseId);
  return recordOrder(env, control, order, priceTotal, discount?.promoUseId ?? null);
}

/** The product-wide order number of a new row: max + 1, inside the INSERT itself. */
const nextGlobalIndex = sql`(select coalesce(max(${payments.globalIndex}), 0) + 1 from ${payments})`;

export interface NewOrder {
  id: string;
  kind: 'single' | 'team';
  userId: string;
  payerUserId: string;
  amount: number;
  monthlyPrice: number;
}

/**
 * One control-plane batch records the order only if its spend of the discount landed, so of two
 * orders racing for one discount the other records nothing and answers 409.
 */
export async function confirmFreeOrder(env: Bindings, db: Db, order: NewOrder, promoUseId: string, items: readonly OrderItem[] = []) {
  const now = new Date();
  const value = <T>(v: T, name: string) => sql<T>`${v}`.as(name);
  const insertIfSpent = db.insert(payments).select(
    db
      .select({
        id: value(order.id, 'id'),
        globalIndex: sql<number>`${nextGlobalIndex}`.as('global_index'),
        type: value('idram', 'type'),
        kind: value(order.kind, 'kind'),
        userId: value(order.userId, 'user_id'),
        payerUserId: value(order.payerUserId, 'payer_user_id'),
        dateCreated: value(now.getTime(), 'date_created'),
        amount: value(order.amount, 'amount'),
        monthlyPrice: value(order.monthlyPrice, 'monthly_price'),
        priceTotal: value(0, 'price_total'),
        promoUseId: value(promoUseId, 'promo_use_id'),
        status: value('confirmed', 'status'),
        isLinkGenerationFailed: value(0, 'is_link_generation_failed'),
        isOrderConfirmationReceived: value(1, 'is_order_confirmation_received'),
        isPaymentConfirmed: value(1, 'is_payment_confirmed'),
        transId: sql<null>`null`.as('trans_id'),
        payerAccount: sql<null>`null`.as('payer_account'),
        confirmedAt: value(now.getTime(), 'confirmed_at'),
        newEndDate: sql<null>`null`.as('new_end_date'),
        applyPending: value(1, 'apply_pending'),
        appliedAt: sql<null>`null`.as('applied_at'),
      })
      .from(promoUses)
      .where(and(eq(promoUses.id, promoUseId), eq(promoUses.orderId, order.id))),
  );
  const [, inserted] = await runBatch(db, [
    spendDiscount(db, promoUseId, order.id),
    insertIfSpent,
    ...(order.kind === 'team' ? [insertItems(db, order.id, items)] : []),
  ]);
  if (!(inserted as { meta: { changes: number } }).meta.changes) throw apiError(PAYMENT_MESSAGES.discountUsed);
  if ((await tryApply('payment', order.id, () => applyPayment(env, db, order.id))).ok) await sendReceipts(env, db, order.id);
  return { orderId: order.id };
}

export async function recordOrder(env: Bindings, db: Db, order: NewOrder, priceTotal: number, promoUseId: string | null, items: readonly OrderItem[] = []) {
  // one statement: the next integer is read and written at once (D1 runs statements one at a time)
  const insert = db.insert(payments).values({
    ...order,
    globalIndex: nextGlobalIndex,
    type: 'idram',
    dateCreated: new Date(),
    priceTotal,
    promoUseId,
    status: 'requested',
  });
  await runBatch(db, [insert, ...(items.length ? [insertItems(db, order.id, items)] : [])]);
  const [recorded] = await db.select({ dateCreated: payments.dateCreated }).from(payments).where(eq(payments.id, order.id)).limit(1);
  await openOrder(env, db, order.id, priceTotal, recorded?.dateCreated ?? new Date());
  return { orderId: order.id };
}

/** Opens the order's object; if the object cannot be reached, the link has failed. */
async function openOrder(env: Bindings, db: Db, orderId: string, priceTotal: number, createdAt: Date) {
  try {
    return await orderStub(env, orderId).open(orderId, priceTotal, idramConfigured(env), createdAt.getTime());
  } catch (err) {
    console.error('payment order could not be opened', err);
    await db
      .update(payments)
      .set({ status: 'link_failed', isLinkGenerationFailed: true })
      .where(and(eq(payments.id, orderId), eq(payments.status, 'requested')));
    return 'link_failed' as const;
  }
}

/** The product's origin as the browser sees it, for links it follows at once. */
const originOf = (env: Bindings, req: Request) => {
  try {
    return new URL(req.url).origin;
  } catch {
    return env.PUBLIC_URL.replace(/\/$/, '');
  }
};

export async function paymentLink(env: Bindings, db: Db, caller: Caller, req: Request, orderId: string): Promise<PaymentLinkDto> {
  let [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order || order.payerUserId !== caller.id) throw apiError(PAYMENT_MESSAGES.orderNotFound);
  // an order left in 'requested' (its object was not reached) is opened again by the poll
  if (order.status === 'requested') {
    await openOrder(env, db, order.id, order.priceTotal, order.dateCreated);
    [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  }
  const row = order!;
  const origin = originOf(env, req);
  const generated = row.isPaymentConfirmed || PAYABLE.includes(row.status);
  const failed = !generated && row.status !== 'requested';
  return {
    isLinkGenerated: generated,
    isLinkGenerationFailed: failed,
    paymentURL: row.isPaymentConfirmed ? `${origin}/paymentResult/confirmed` : generated ? `${origin}/api/payment/idram/pay/${row.id}` : null,
    userAndPayerMatch: row.kind === 'single' && row.userId === row.payerUserId,
  };
}

export async function arcaStatus(db: Db, caller: Caller, orderId: string) {
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order || (order.payerUserId !== caller.id && order.userId !== caller.id)) throw apiError(PAYMENT_MESSAGES.orderNotFound);
  return { isPaymentConfirmed: order.isPaymentConfirmed };
}

/** Orders Idram may still be paying: the link is made and the order has not expired. */
const OPEN_STATUSES: readonly PaymentRow['status'][] = ['requested', 'link_generated', 'prechecked'];

type ExpiryFields = Pick<PaymentRow, 'isPaymentConfirmed' | 'status' | 'type' | 'dateCreated'>;
/** When an unpaid Idram order stops being payable: its creation + ORDER_TTL_MS (the order's object refuses a precheck from then on). */
export const expiresAtOf = (row: Pick<PaymentRow, 'dateCreated'>) => row.dateCreated.getTime() + ORDER_TTL_MS;
/** An unpaid Idram order Idram may still be paying. */
export const isWaiting = (row: ExpiryFields, now = Date.now()) =>
  !row.isPaymentConfirmed && row.type === 'idram' && OPEN_STATUSES.includes(row.status) && now < expiresAtOf(row);
/** An unpaid Idram order whose time ran out (the alarm may not have run yet). */
const isExpired = (row: ExpiryFields, now = Date.now()) =>
  !row.isPaymentConfirmed && (row.status === 'expired' || (row.type === 'idram' && OPEN_STATUSES.includes(row.status) && now >= expiresAtOf(row)));

export function label(
  row: Pick<PaymentRow, 'isPaymentConfirmed' | 'isLinkGenerationFailed' | 'status' | 'type' | 'priceTotal' | 'dateCreated'>,
  refunded = 0,
  now = Date.now(),
): PaymentLabel {
  // every dram given back (the admin's refunds): paid, then refunded
  if ((row.isPaymentConfirmed || row.status === 'needs_refund') && row.priceTotal > 0 && refunded >= row.priceTotal) return 'Refunded';
  if (row.isPaymentConfirmed) return 'confirmed';
  // Idram took the money, but the discount it was priced with had been spent by another order
  if (row.status === 'needs_refund') return 'Needs refund';
  if (row.isLinkGenerationFailed || row.status === 'link_failed') return 'redirect fail';
  if (row.status === 'failed') return 'Declined';
  if (row.type === 'arca') return 'Waiting ...';
  // the payer canceled it (docs/rules/payments.md#0163-cancel-order)
  if (row.status === 'canceled') return 'Canceled';
  // still open on Idram's page: the person may yet pay, until the order expires (its alarm moves
  // it to 'expired' after ORDER_TTL_MS; the age check covers an alarm not yet run)
  if (isWaiting(row, now)) return 'Waiting for payment';
  if (isExpired(row, now)) return 'Expired';
  return 'Canceled';
}

/** An agent sees only its own line of a team order, and the order's months and total as that line's. */
export async function history(env: Bindings, control: Db, db: Db, caller: Caller): Promise<PaymentDto[]> {
  const query = control.select().from(payments);
  const paidForMe = control.select({ id: paymentItems.paymentId }).from(paymentItems).where(eq(paymentItems.userId, caller.id));
  const mine = or(eq(payments.payerUserId, caller.id), eq(payments.userId, caller.id), inArray(payments.id, paidForMe));
  const rows = await (caller.userType === 'admin' ? query : query.where(mine)).orderBy(desc(payments.dateCreated), desc(payments.globalIndex));
  const [items, refunds] = await Promise.all([
    itemsByOrder(
      control,
      rows.filter((r) => r.kind === 'team').map((r) => r.id),
    ),
    refundsByPayment(
      control,
      rows.filter((r) => r.isOrderConfirmationReceived).map((r) => r.id),
    ),
  ]);
  const ids = rows.flatMap((r) => [
    r.userId,
    r.payerUserId,
    ...(items.get(r.id) ?? []).map((i) => i.userId),
    ...(refunds.get(r.id) ?? []).map((g) => g.userId ?? ''),
  ]);
  // the admin's list names every company's users; a team's names its own (the caller's shard)
  const people = new Map<string, { _id: string; name: string; email: string }>();
  for (const u of (await peopleByIds(env, control, ids, caller.userType === 'admin' ? undefined : db)).values())
    people.set(u.id, { _id: u.id, name: u.name, email: u.email });
  const now = Date.now();
  return rows.map((r) => {
    const isTeam = r.kind === 'team';
    const seesAll = caller.userType === 'admin' || r.payerUserId === caller.id;
    const lines = (items.get(r.id) ?? []).filter((item) => seesAll || item.userId === caller.id);
    const given = refunds.get(r.id) ?? [];
    const refunded = given.reduce((sum, g) => sum + g.amount, 0);
    return {
      _id: r.id,
      // one order number everywhere: the history, the receipt and its mail (docs/rules/payments.md#0164-one-order-number)
      index: r.globalIndex,
      globalIndex: r.globalIndex,
      type: r.type === 'arca' ? 'Arca' : 'Idram',
      // a team order is for its items' users
      user: isTeam ? null : (people.get(r.userId) ?? null),
      payerUser: people.get(r.payerUserId) ?? null,
      dateCreated: r.dateCreated.toISOString(),
      amount: isTeam && !seesAll ? lines.reduce((sum, l) => sum + l.months, 0) : r.amount,
      priceTotal: isTeam && !seesAll ? lines.reduce((sum, l) => sum + l.price, 0) : r.priceTotal,
      isLinkGenerationFailed: r.isLinkGenerationFailed,
      isOrderConfirmationReceived: r.isOrderConfirmationReceived,
      isPaymentConfirmed: r.isPaymentConfirmed,
      status: label(r, refunded, now),
      expiresAt: isWaiting(r, now) ? new Date(expiresAtOf(r)).toISOString() : null,
      canCancel: r.payerUserId === caller.id && isWaiting(r, now),
      kind: r.kind,
      items: lines.map((l) => ({ user: people.get(l.userId) ?? null, months: l.months, days: l.days, price: l.price })),
      // the payer and the admin see every refund; a payee the ones that took its months back
      refunded: seesAll || !isTeam ? refunded : 0,
      refunds: given
        .filter((g) => seesAll || !isTeam || g.userId === caller.id)
        .map((g) => ({
          _id: g.id,
          amount: seesAll || !isTeam ? g.amount : 0,
          reason: g.reason,
          monthsRemoved: g.monthsRemoved,
          user: g.userId ? (people.get(g.userId) ?? null) : null,
          date: g.createdAt.toISOString(),
        })),
    };
  });
}

/** Anyone else but the payer: 404, as for getPaymentLink. Canceling twice answers the same. */
export async function cancelOrder(env: Bindings, db: Db, caller: Caller, orderId: string): Promise<{ orderId: string; status: PaymentLabel }> {
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order || order.payerUserId !== caller.id) throw apiError(PAYMENT_MESSAGES.orderNotFound);
  if (order.isPaymentConfirmed || order.status === 'needs_refund') throw apiError(PAYMENT_MESSAGES.cannotCancelPaid);
  if (order.type !== 'idram' || (order.status !== 'canceled' && !isWaiting(order))) throw apiError(PAYMENT_MESSAGES.cannotCancelClosed);
  let outcome: Awaited<ReturnType<ReturnType<typeof orderStub>['cancel']>>;
  try {
    outcome = await orderStub(env, order.id).cancel(order.id);
  } catch (err) {
    console.error('payment order could not be canceled', err);
    outcome = 'error';
  }
  if (outcome === 'paid') throw apiError(PAYMENT_MESSAGES.cannotCancelPaid);
  if (outcome === 'closed') throw apiError(PAYMENT_MESSAGES.cannotCancelClosed);
  if (outcome === 'unknown') throw apiError(PAYMENT_MESSAGES.orderNotFound);
  if (outcome === 'error') throw apiError(PAYMENT_MESSAGES.cancelFailed);
  return { orderId: order.id, status: 'Canceled' };
}

/** "Arto Agent" → "A. A.": enough for a payer to tell its agents apart, not a contact detail. */
export const initialsOf = (name: string) =>
  name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3)
    .map((word) => `${Array.from(word)[0]!.toLocaleUpperCase()}.`)
    .join(' ');

/** The page is public, so it carries no e-mail and names an agent by initials. */
export async function payForm(env: Bindings, control: Db, req: Request, orderId: string) {
  const [order] = await control.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order || order.isPaymentConfirmed || !PAYABLE.includes(order.status)) return null;
  // past its time: Idram's precheck would refuse it, so the payer is not sent there
  if (!isWaiting(order)) return null;
  const people = await peopleByIds(env, control, [order.payerUserId, order.userId]);
  const payee = order.userId === order.payerUserId || order.kind === 'team' ? undefined : people.get(order.userId);
  const action = isDevelopment(env) ? `${originOf(env, req)}/api/payment/idram/simulator` : env.IDRAM_PAYMENT_URL;
  // Idram's page speaks the payer's language (docs/decisions/0023-languages.md)
  const payer = people.get(order.payerUserId);
  const texts = idramText(payer?.language);
  const forWhom = payee ? initialsOf(payee.name) : '';
  const description = order.kind === 'team' ? await teamDescription(control, order.id, texts) : texts.subscription(order.amount, forWhom);
  return {
    action,
    language: payer?.language ?? null,
    fields: {
      EDP_LANGUAGE: idramLanguage(payer?.language),
      EDP_REC_ACCOUNT: env.IDRAM_REC_ACCOUNT,
      EDP_DESCRIPTION: description,
      EDP_AMOUNT: order.priceTotal.toFixed(2),
      EDP_BILL_NO: order.id,
    },
  };
}

/** A team order on the public payment page: how many agents and for how long, no names. */
async function teamDescription(db: Db, orderId: string, texts: ReturnType<typeof idramText>) {
  const items = await itemsOf(db, orderId);
  const months = new Set(items.map((i) => i.months));
  return texts.team(items.length, items.every((i) => i.months > 0) && months.size === 1 ? items[0]!.months : null);
}

/**
 * Where the payment page sends a browser when the order cannot be paid: the result page says
 * why (an expired or canceled order reads so; anything else is the failure page).
 */
export async function closedOrderPath(db: Db, orderId: string) {
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (order?.isPaymentConfirmed) return '/paymentResult/confirmed';
  if (order && order.status === 'canceled') return '/paymentResult/canceled';
  if (order && isExpired(order)) return '/paymentResult/expired';
  return '/paymentResult/failed';
}
