import { and, eq, isNull, or } from 'drizzle-orm';
import { payments, promoUses } from '../db/schema';
import type { Bindings, Db } from '../env';
import { randomId } from '../lib/ids';
import { md5Hex } from './md5';
import { orderStub, type PaymentRow } from './payments.service';
import { sendReceipts } from './receipts';

/** Idram's amounts are decimals with a point ("10000.00"); anything else is no amount. */
const parseAmount = (text: string | undefined) => (text !== undefined && /^\s*\d{1,12}(\.\d{1,6})?\s*$/.test(text) ? Number(text) : Number.NaN);

/** Idram's checksum: MD5 of the fields as received and our secret, joined by ':'. */
export const idramChecksum = (f: Record<string, string | undefined>, secret: string) =>
  md5Hex([f.EDP_REC_ACCOUNT, f.EDP_AMOUNT, secret, f.EDP_BILL_NO, f.EDP_PAYER_ACCOUNT, f.EDP_TRANS_ID, f.EDP_TRANS_DATE].join(':'));

/** Two orders opened while one discount was pending: only the first one paid may spend it. */
async function discountStillOurs(db: Db, order: PaymentRow) {
  if (!order.promoUseId) return true;
  const [use] = await db
    .select({ id: promoUses.id })
    .from(promoUses)
    .where(and(eq(promoUses.id, order.promoUseId), or(isNull(promoUses.orderId), eq(promoUses.orderId, order.id))))
    .limit(1);
  return Boolean(use);
}

/** What Idram's precheck is answered when the order's object refuses it (any text but OK refuses). */
const PRECHECK_REFUSALS = { expired: 'Order has expired', canceled: 'Order was canceled', closed: 'Order is not open for payment' } as const;

/** Answers the bare text `OK` or a refusal text. Never throws: Idram reads an error status as "paid". */
export async function idramResult(env: Bindings, control: Db, form: Record<string, string>): Promise<string> {
  try {
    const billNo = (form.EDP_BILL_NO ?? '').slice(0, 64);
    const [order] = billNo ? await control.select().from(payments).where(eq(payments.id, billNo)).limit(1) : [];
    if (!order) return 'Unknown order';
    if (!env.IDRAM_REC_ACCOUNT || form.EDP_REC_ACCOUNT !== env.IDRAM_REC_ACCOUNT) return 'Wrong account';
    const amount = parseAmount(form.EDP_AMOUNT);
    if (amount !== order.priceTotal) return 'Wrong amount';
    const stub = orderStub(env, order.id);

    if ((form.EDP_PRECHECK ?? '').toUpperCase() === 'YES') {
      if (order.isPaymentConfirmed || order.status === 'needs_refund') return 'Order is already paid';
      if (!(await discountStillOurs(control, order))) return 'The promo discount was already used';
      const checked = await stub.precheck(amount);
      return checked === 'ok' ? 'OK' : PRECHECK_REFUSALS[checked];
    }

    const secret = env.IDRAM_SECRET_KEY ?? '';
    const signed = ['EDP_PAYER_ACCOUNT', 'EDP_TRANS_ID', 'EDP_TRANS_DATE', 'EDP_CHECKSUM'] as const;
    if (!secret || signed.some((f) => !form[f])) return 'Missing fields';
    const expected = await idramChecksum(form, secret);
    if (expected.toLowerCase() !== form.EDP_CHECKSUM!.trim().toLowerCase()) return 'Wrong checksum';
    // the object confirms it in the control plane and writes the months in the payees' shards; a
    // replay finishes what an earlier call left
    const result = await stub.confirm(order.id, { transId: form.EDP_TRANS_ID!.slice(0, 64), payerAccount: form.EDP_PAYER_ACCOUNT!.slice(0, 64) });
    if (result === 'unknown') return 'Unknown order';
    // a replay sends too: only receipts no earlier call recorded go out (one per payment and
    // recipient), and none while the months wait to be written
    if (result === 'confirmed' || result === 'replay') await sendReceipts(env, control, order.id);
    // 'refund': the payment is recorded as received (Needs refund) and acknowledged, like a replay
    return result === 'error' ? 'Could not process the payment' : 'OK';
  } catch (err) {
    console.error('idram result failed', err);
    return 'Could not process the payment';
  }
}

/** dd/mm/yyyy, as Idram writes EDP_TRANS_DATE. */
export const idramDate = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;

/** The development simulator's Pay: Idram's precheck then confirmation, correctly signed. */
export async function simulatedCallbacks(env: Bindings, form: Record<string, string>) {
  const base = { EDP_BILL_NO: form.EDP_BILL_NO ?? '', EDP_REC_ACCOUNT: form.EDP_REC_ACCOUNT ?? '', EDP_AMOUNT: form.EDP_AMOUNT ?? '' };
  const confirmation: Record<string, string> = {
    ...base,
    EDP_PAYER_ACCOUNT: '100000000001',
    // Idram's transaction ids are 14 characters
    EDP_TRANS_ID: randomId(14),
    EDP_TRANS_DATE: idramDate(new Date()),
  };
  confirmation.EDP_CHECKSUM = await idramChecksum(confirmation, env.IDRAM_SECRET_KEY ?? '');
  return { precheck: { ...base, EDP_PRECHECK: 'YES' }, confirmation };
}

/** The development simulator's Let it expire: the order's expiry (its alarm's work) runs now. */
export async function simulateExpiry(env: Bindings, billNo: string) {
  await orderStub(env, billNo).expire();
}

export async function simulateDecline(env: Bindings, billNo: string) {
  await orderStub(env, billNo).decline();
}
