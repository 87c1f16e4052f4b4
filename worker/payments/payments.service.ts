import { desc, eq, inArray, or, sql } from 'drizzle-orm';
import { payments, users } from '../db/schema';
import { type Bindings, type Caller, type Db, isDevelopment } from '../env';
import { badRequest, notFound } from '../lib/errors';
import { randomId } from '../lib/ids';
import { discountedTotal, pendingDiscount } from '../promo/promo.discount';
import { md5Hex } from './md5';
import { confirmInD1 } from './payment-order';
import { PAYMENT_MESSAGES, type PaymentDto, type PaymentLabel, type PriceInfo } from './payments.schema';

type PaymentRow = typeof payments.$inferSelect;

export const monthlyPrice = (env: Bindings) => {
  const price = Number.parseInt(env.MONTHLY_PRICE_AMD, 10);
  return Number.isFinite(price) && price > 0 ? price : 5000;
};

export async function priceInfo(env: Bindings, db: Db, caller: Caller): Promise<PriceInfo> {
  const discount = await pendingDiscount(db, caller.id);
  return { price: monthlyPrice(env), currency: 'AMD', discountPercent: discount?.percent ?? 0, promoName: discount?.name ?? null };
}

const orderStub = (env: Bindings, orderId: string) => env.PAYMENT_ORDER.get(env.PAYMENT_ORDER.idFromName(orderId));

/**
 * Creates an order for `months` months for the caller or, for a manager, one of its agents with
 * a verified e-mail, priced with the caller's pending promo discount. Answers the orderId.
 */
export async function generateLink(env: Bindings, db: Db, caller: Caller, input: { amount: number; userToBePaidId?: string | null; paymentType: string }) {
  if (input.paymentType.toLowerCase() === 'arca') throw badRequest(PAYMENT_MESSAGES.arca);
  if (input.paymentType.toLowerCase() !== 'idram') throw badRequest('Choose a payment type');
  const payeeId = input.userToBePaidId || caller.id;
  if (payeeId !== caller.id) {
    const [payee] = await db.select().from(users).where(eq(users.id, payeeId)).limit(1);
    if (!payee || payee.deletedAt || caller.userType !== 'manager' || payee.parentId !== caller.id) throw notFound('User not found');
    if (!payee.isEmailVerified) throw badRequest(PAYMENT_MESSAGES.notVerified);
  }
  const price = monthlyPrice(env);
  const discount = await pendingDiscount(db, caller.id);
  const priceTotal = discountedTotal(price, input.amount, discount?.percent ?? 0);
  const id = randomId();
  const status = !env.IDRAM_REC_ACCOUNT ? 'link_failed' : 'link_generated';
  for (let attempt = 0; ; attempt++) {
    try {
      await db.insert(payments).values({
        id,
        globalIndex: sql`(select coalesce(max(${payments.globalIndex}), 0) + 1 from ${payments})`,
        type: 'idram',
        userId: payeeId,
        payerUserId: caller.id,
        dateCreated: new Date(),
        amount: input.amount,
        monthlyPrice: price,
        priceTotal,
        promoUseId: discount?.promoUseId ?? null,
        status,
        isLinkGenerationFailed: status === 'link_failed',
      });
      break;
    } catch (err) {
      if (attempt >= 4) throw err; // two orders drew the same global index: draw again
    }
  }
  await orderStub(env, id).open(id, priceTotal, status);
  // a 100% discount is paid in full already: confirm at once, without Idram
  if (priceTotal === 0) await orderStub(env, id).confirm({ transId: null, payerAccount: null });
  return { orderId: id };
}

async function payerOrder(db: Db, caller: Caller, orderId: string): Promise<PaymentRow> {
  const [row] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!row || (row.payerUserId !== caller.id && caller.userType !== 'admin')) throw notFound('Order not found');
  return row;
}

const origin = (env: Bindings, req: Request) => (env.PUBLIC_URL || new URL(req.url).origin).replace(/\/$/, '');

export async function paymentLink(env: Bindings, db: Db, caller: Caller, req: Request, orderId: string) {
  const order = await payerOrder(db, caller, orderId);
  const failed = order.isLinkGenerationFailed;
  const paymentURL = failed ? null : order.isPaymentConfirmed ? `${origin(env, req)}/paymentResult/confirmed` : `${origin(env, req)}/api/payment/idram/pay/${order.id}`;
  return { isLinkGenerated: !failed, isLinkGenerationFailed: failed, paymentURL, userAndPayerMatch: order.userId === order.payerUserId };
}

export async function arcaStatus(db: Db, caller: Caller, orderId: string) {
  const order = await payerOrder(db, caller, orderId);
  return { isPaymentConfirmed: order.isPaymentConfirmed };
}

export function label(row: PaymentRow): PaymentLabel {
  if (row.isPaymentConfirmed) return 'confirmed';
  if (row.isLinkGenerationFailed) return 'redirect fail';
  if (row.status === 'failed') return 'Declined';
  if (row.type === 'arca') return 'Waiting ...';
  return 'Canceled';
}

/** The caller's payments as payer or payee; the admin's: all. Newest first. */
export async function history(db: Db, caller: Caller): Promise<PaymentDto[]> {
  const query = db.select().from(payments);
  const rows = await (caller.userType === 'admin' ? query : query.where(or(eq(payments.payerUserId, caller.id), eq(payments.userId, caller.id)))).orderBy(
    desc(payments.dateCreated),
  );
  const ids = [...new Set(rows.flatMap((r) => [r.userId, r.payerUserId]))];
  const people = new Map<string, { _id: string; name: string; email: string }>();
  for (let i = 0; i < ids.length; i += 90) {
    for (const u of await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ids.slice(i, i + 90))))
      people.set(u.id, { _id: u.id, name: u.name, email: u.email });
  }
  return rows.map((r, i) => ({
    _id: r.id,
    index: rows.length - i,
    globalIndex: r.globalIndex,
    type: r.type === 'arca' ? 'Arca' : 'Idram',
    user: people.get(r.userId) ?? null,
    payerUser: people.get(r.payerUserId) ?? null,
    dateCreated: r.dateCreated.toISOString(),
    amount: r.amount,
    priceTotal: r.priceTotal,
    isLinkGenerationFailed: r.isLinkGenerationFailed,
    isOrderConfirmationReceived: r.isOrderConfirmationReceived,
    isPaymentConfirmed: r.isPaymentConfirmed,
    status: label(r),
  }));
}

/**
 * Idram's result URL, both calls. Answers the bare text `OK` when the precheck passes or the
 * confirmation is applied (or replayed); anything else is a refusal text. Never throws.
 */
export async function idramResult(env: Bindings, db: Db, form: Record<string, string>): Promise<string> {
  try {
    const billNo = form.EDP_BILL_NO ?? '';
    const amountText = form.EDP_AMOUNT ?? '';
    const amount = Number(amountText);
    const [order] = billNo ? await db.select().from(payments).where(eq(payments.id, billNo.slice(0, 64))).limit(1) : [];
    if (!order) return 'Unknown order';
    if ((form.EDP_REC_ACCOUNT ?? '') !== env.IDRAM_REC_ACCOUNT) return 'Wrong account';
    if (!Number.isFinite(amount) || amount !== order.priceTotal) return 'Wrong amount';
    const stub = orderStub(env, order.id);
    if ((form.EDP_PRECHECK ?? '').toUpperCase() === 'YES') {
      if (order.isPaymentConfirmed) return 'Order is already paid';
      return (await stub.precheck(amount)) ? 'OK' : 'Order is not open for payment';
    }
    const secret = env.IDRAM_SECRET_KEY ?? '';
    const fields = [form.EDP_REC_ACCOUNT, amountText, secret, billNo, form.EDP_PAYER_ACCOUNT, form.EDP_TRANS_ID, form.EDP_TRANS_DATE];
    if (!secret || fields.some((f) => f === undefined)) return 'Missing fields';
    const expected = await md5Hex(fields.join(':'));
    if (expected.toLowerCase() !== (form.EDP_CHECKSUM ?? '').toLowerCase()) return 'Wrong checksum';
    const result = await stub.confirm({ transId: (form.EDP_TRANS_ID ?? '').slice(0, 64), payerAccount: (form.EDP_PAYER_ACCOUNT ?? '').slice(0, 64) });
    // an order whose object was never opened (it failed mid-way) is still confirmed, once, in D1
    if (result === 'unknown') await confirmInD1(env, order.id, { transId: (form.EDP_TRANS_ID ?? '').slice(0, 64), payerAccount: (form.EDP_PAYER_ACCOUNT ?? '').slice(0, 64) });
    return 'OK';
  } catch (err) {
    console.error('idram result failed', err);
    return 'Could not process the payment';
  }
}

/** The page the Payment screen redirects to: posts the Idram form (the simulator in development). */
export async function payPage(env: Bindings, db: Db, req: Request, orderId: string) {
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order || order.isPaymentConfirmed || (order.status !== 'link_generated' && order.status !== 'prechecked')) return null;
  const [payer] = await db.select({ email: users.email }).from(users).where(eq(users.id, order.payerUserId));
  const action = isDevelopment(env) ? `${origin(env, req)}/api/payment/idram/simulator` : env.IDRAM_PAYMENT_URL;
  return {
    action,
    fields: {
      EDP_LANGUAGE: 'EN',
      EDP_REC_ACCOUNT: env.IDRAM_REC_ACCOUNT,
      EDP_DESCRIPTION: `FreightDesk subscription, ${order.amount} month${order.amount === 1 ? '' : 's'}`,
      EDP_AMOUNT: order.priceTotal.toFixed(2),
      EDP_BILL_NO: order.id,
      EDP_EMAIL: payer?.email ?? '',
    },
  };
}

/** The development simulator's Pay: Idram's two calls with a correct checksum. */
export async function simulatePay(env: Bindings, db: Db, form: Record<string, string>) {
  const base = { EDP_BILL_NO: form.EDP_BILL_NO ?? '', EDP_REC_ACCOUNT: form.EDP_REC_ACCOUNT ?? '', EDP_AMOUNT: form.EDP_AMOUNT ?? '' };
  const precheck = await idramResult(env, db, { ...base, EDP_PRECHECK: 'YES' });
  if (precheck !== 'OK') return false;
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const confirmation = {
    ...base,
    EDP_PAYER_ACCOUNT: '100000000001',
    EDP_TRANS_ID: randomId(14),
    EDP_TRANS_DATE: `${pad(now.getUTCDate())}/${pad(now.getUTCMonth() + 1)}/${now.getUTCFullYear()}`,
  };
  const checksum = await md5Hex(
    [confirmation.EDP_REC_ACCOUNT, confirmation.EDP_AMOUNT, env.IDRAM_SECRET_KEY ?? '', confirmation.EDP_BILL_NO, confirmation.EDP_PAYER_ACCOUNT, confirmation.EDP_TRANS_ID, confirmation.EDP_TRANS_DATE].join(':'),
  );
  return (await idramResult(env, db, { ...confirmation, EDP_CHECKSUM: checksum })) === 'OK';
}

export async function simulateDecline(env: Bindings, billNo: string) {
  await orderStub(env, billNo).decline();
}

