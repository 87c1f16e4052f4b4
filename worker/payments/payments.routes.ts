import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import { answers, because, messageSchema, withMessage } from '../lib/answer';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import * as idram from './idram-callback';
import { idramPayPage, simulatorPage } from './payment-pages';
import { PAYMENT_MESSAGES as PAY } from './payments.messages';
import {
  generateLinkSchema,
  generateTeamLinkSchema,
  orderIdSchema,
  PAYMENT_LABELS,
  paymentLinkSchema,
  paymentSchema,
  paymentSummarySchema,
  priceChangeSchema,
  priceInfoSchema,
  priceScheduleListSchema,
  priceScheduleSchema,
  receiptParam,
  receiptSchema,
  refundSchema,
  scheduleParam,
} from './payments.schema';
import * as svc from './payments.service';
import { cancelPriceChange, listPriceChanges, schedulePrice } from './prices';
import { receiptFor } from './receipts';
import { paymentSummary, refund } from './refunds';
import { generateTeamLink } from './team-order';

/** A form-encoded body as strings; anything unreadable is an empty form (Idram's calls never fail). */
async function formBody(req: Request): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  try {
    const data = await req.formData();
    data.forEach((v, k) => {
      if (typeof v === 'string') out[k] = v;
    });
  } catch {
    // not a form: every field is missing
  }
  return out;
}

const orderAnswer = z.strictObject({ orderId: z.string() });

export const paymentRoutes = new Hono<AppEnv>()
  // Idram's result URL: public (Idram calls it), form-encoded, answers bare text, never a 5xx.
  .post('/idram/result', allow('public'), async (c) => c.text(await idram.idramResult(c.env, c.var.control, await formBody(c.req.raw)), 200))
  // The paymentURL: a page that posts the Idram form (to the simulator in development).
  .get('/idram/pay/:orderId', allow('public'), async (c) => {
    const form = await svc.payForm(c.env, c.var.control, c.req.raw, c.req.param('orderId').slice(0, 64));
    if (!form) return c.redirect(await svc.closedOrderPath(c.var.control, c.req.param('orderId').slice(0, 64)), 303);
    const page = idramPayPage(form);
    return c.body(page.html, 200, page.headers);
  })
  // Development only: a stand-in for Idram's payment page, which sends the same two callbacks.
  .post('/idram/simulator', allow('development'), async (c) => {
    const page = simulatorPage(await formBody(c.req.raw));
    return c.body(page.html, 200, page.headers);
  })
  .post('/idram/simulator/complete', allow('development'), async (c) => {
    const form = await formBody(c.req.raw);
    const billNo = (form.EDP_BILL_NO ?? '').slice(0, 64);
    if (form.action === 'pay') {
      const calls = await idram.simulatedCallbacks(c.env, form);
      // the same two calls Idram makes to the result URL, straight to the handler's service (no network)
      const paid =
        (await idram.idramResult(c.env, c.var.control, calls.precheck)) === 'OK' &&
        (await idram.idramResult(c.env, c.var.control, calls.confirmation)) === 'OK';
      return c.redirect(paid ? '/paymentResult/confirmed' : '/paymentResult/failed', 303);
    }
    if (billNo && form.action === 'expire') {
      // the payer walked away: the order's expiry runs now instead of when its time is up
      await idram.simulateExpiry(c.env, billNo);
      return c.redirect(await svc.closedOrderPath(c.var.control, billNo), 303);
    }
    if (billNo) await idram.simulateDecline(c.env, billNo);
    return c.redirect('/paymentResult/failed', 303);
  })
  .get('/monthlyprice', allow('payment'), answers(priceInfoSchema), async (c) => c.var.answer(await svc.priceInfo(c.env, c.var.control, c.var.caller)))
  .get('/paymentHistory', allow('payment'), answers(z.array(paymentSchema)), async (c) =>
    c.var.answer(await svc.history(c.env, c.var.control, c.var.db, c.var.caller)),
  )
  .post(
    '/generateLink',
    allow('payment'),
    validate('json', generateLinkSchema),
    answers(orderAnswer, [
      PAY.months,
      PAY.maxMonths,
      PAY.arca,
      PAY.paymentType,
      PAY.onlyManager,
      because(PAY.userNotFound, "a manager names a user who is not one of its live agents (another team's, its director, a deleted agent, an unknown id)"),
      because(PAY.notVerified, "the manager's agent has not verified its e-mail"),
      because(PAY.discountUsed, 'a free (100%) order lost its discount to another order made at the same moment'),
    ]),
    async (c) => c.var.answer(await svc.generateLink(c.env, c.var.control, c.var.db, c.var.caller, c.req.valid('json'))),
  )
  // one order for several agents: a manager only, not behind its own subscription (like Pay for Team's list)
  .post(
    '/generateTeamLink',
    allow('teamOrder'),
    validate('json', generateTeamLinkSchema),
    answers(orderAnswer, [
      PAY.chooseAgents,
      PAY.tooManyAgents,
      PAY.align,
      because(PAY.notVerified, 'an agent has not verified its e-mail'),
      because(PAY.noEndToAlign, "`align` and the caller's subscription has ended or has no end date"),
      because(PAY.alignTooLong, '`align` and a line would exceed 1,116 days'),
      because(PAY.userNotFound, "an id that is not one of the caller's live agents (another team's, itself, unknown, deleted)"),
      because(PAY.discountUsed, 'as for generateLink'),
    ]),
    async (c) => c.var.answer(await generateTeamLink(c.env, c.var.control, c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post('/getPaymentLink', allow('payment'), validate('json', orderIdSchema), answers(paymentLinkSchema, [PAY.orderNotFound]), async (c) =>
    c.var.answer(await svc.paymentLink(c.env, c.var.control, c.var.caller, c.req.raw, c.req.valid('json').orderId)),
  )
  // the payer cancels its own order while it waits for payment (docs/rules/payments.md#0163-cancel-order)
  .post(
    '/cancelOrder',
    allow('payment'),
    validate('json', orderIdSchema),
    answers(z.strictObject({ orderId: z.string(), status: z.enum(PAYMENT_LABELS) }), [PAY.orderNotFound, PAY.cannotCancelPaid, PAY.cannotCancelClosed]),
    async (c) => c.var.answer(await svc.cancelOrder(c.env, c.var.control, c.var.caller, c.req.valid('json').orderId)),
  )
  .get('/receipt/:id', allow('payment'), validate('param', receiptParam), answers(receiptSchema, [PAY.receiptNotFound]), async (c) =>
    c.var.answer(await receiptFor(c.env, c.var.control, c.var.db, c.var.caller, c.req.valid('param').id)),
  )
  .post(
    '/refund',
    allow('adminPayments'),
    validate('json', refundSchema),
    answers(withMessage({ _id: z.string(), refunded: z.number(), leftToRefund: z.number() }), [
      because({ ...PAY.paymentNotFound, status: 400 }, 'no `paymentId`'),
      because(PAY.refundAmount, '`amount` missing, negative or fractional'),
      because(PAY.refundReason, '`reason` missing or blank'),
      because(PAY.refundReasonLong, '`reason` over 500 characters'),
      because(PAY.refundMonths, 'bad `monthsRemoved`'),
      because(PAY.refundNothing, 'both 0'),
      because(PAY.notPaid, 'an unpaid order'),
      because(PAY.nothingExtended, 'months on a *Needs refund* payment'),
      because(PAY.chooseRefundUser, 'months on a team order without one of its agents, or another user on a single payment'),
      because(PAY.paymentNotFound, 'unknown payment'),
    ]),
    async (c) => c.var.answer(await refund(c.env, c.var.control, c.var.caller, c.req.valid('json'))),
  )
  .get('/summary', allow('adminPayments'), answers(paymentSummarySchema), async (c) => c.var.answer(await paymentSummary(c.var.control)))
  .get('/priceSchedule', allow('adminPayments'), answers(priceScheduleListSchema), async (c) => c.var.answer(await listPriceChanges(c.env, c.var.control)))
  .post('/priceSchedule', allow('adminPayments'), validate('json', priceScheduleSchema), answers(withMessage({ change: priceChangeSchema })), async (c) =>
    c.var.answer(await schedulePrice(c.var.control, c.var.caller, c.req.valid('json'))),
  )
  .delete('/priceSchedule/:id', allow('adminPayments'), validate('param', scheduleParam), answers(messageSchema), async (c) =>
    c.var.answer(await cancelPriceChange(c.var.control, c.req.valid('param').id)),
  )
  .post('/get_arca_status', allow('payment'), validate('json', orderIdSchema), answers(z.strictObject({ isPaymentConfirmed: z.boolean() })), async (c) =>
    c.var.answer(await svc.arcaStatus(c.var.control, c.var.caller, c.req.valid('json').orderId)),
  );

export type PaymentRoutes = typeof paymentRoutes;
