import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { payments } from '../db/schema';
import { randomId } from '../lib/ids';
import { md5Hex } from '../payments/md5';
import { call, control, outboxRowsTo, type TestUser, testEnv } from './helpers';

/** Idram as the tests play it: orders, prechecks and signed confirmations against the real result URL. */
export const PRICE = Number(testEnv.MONTHLY_PRICE_AMD);
export const ACCOUNT = testEnv.IDRAM_REC_ACCOUNT;

export async function order(who: TestUser, body: object = { amount: 2 }) {
  const res = await call('POST', '/api/payment/generateLink', { token: who.token, body: { paymentType: 'idram', ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body.orderId as string;
}

export const form = (fields: Record<string, string>) => ({
  rawBody: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/** Posts to the result URL as Idram does; every answer must be a 200 with bare text. */
export async function result(fields: Record<string, string>) {
  const res = await call('POST', '/api/payment/idram/result', form(fields));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text;
}

export const precheck = (id: string, amount: string, over: Record<string, string> = {}) =>
  result({ EDP_PRECHECK: 'YES', EDP_BILL_NO: id, EDP_REC_ACCOUNT: ACCOUNT, EDP_AMOUNT: amount, ...over });

/** Idram's confirmation, signed with the test secret over the fields as sent (`over` may also replace the checksum). */
export async function confirmation(orderId: string, amount: string, over: Record<string, string> = {}) {
  const f = {
    EDP_REC_ACCOUNT: ACCOUNT,
    EDP_AMOUNT: amount,
    EDP_BILL_NO: orderId,
    EDP_PAYER_ACCOUNT: '100000000001',
    EDP_TRANS_ID: randomId(14),
    EDP_TRANS_DATE: '22/11/2026',
    ...over,
  };
  const checksum = await md5Hex(
    [f.EDP_REC_ACCOUNT, f.EDP_AMOUNT, testEnv.IDRAM_SECRET_KEY, f.EDP_BILL_NO, f.EDP_PAYER_ACCOUNT, f.EDP_TRANS_ID, f.EDP_TRANS_DATE].join(':'),
  );
  return { ...f, EDP_CHECKSUM: over.EDP_CHECKSUM ?? checksum.toUpperCase() };
}

export async function pay(orderId: string) {
  const [row] = await control.select().from(payments).where(eq(payments.id, orderId));
  const amount = String(row!.priceTotal);
  expect(await precheck(orderId, amount)).toBe('OK');
  const conf = await confirmation(orderId, amount);
  expect(await result(conf)).toBe('OK');
  return conf;
}

export const paymentRow = async (id: string) => (await control.select().from(payments).where(eq(payments.id, id)))[0]!;

/** The mails kept for one address in every database's outbox, newest first. */
export const mailsTo = async (email: string) => (await outboxRowsTo(email)).reverse();
