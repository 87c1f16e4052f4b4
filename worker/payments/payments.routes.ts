import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import * as idram from './idram-callback';
import { idramPayPage, simulatorPage } from './payment-pages';
import { generateLinkSchema, generateTeamLinkSchema, orderIdSchema, priceScheduleSchema, receiptParam, refundSchema, scheduleParam } from './payments.schema';
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

/** /api/payment (docs/api/payments.md). */
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
  .get('/monthlyprice', allow('payment'), async (c) => c.json(await svc.priceInfo(c.env, c.var.control, c.var.caller), 200))
  .get('/paymentHistory', allow('payment'), async (c) => c.json(await svc.history(c.env, c.var.control, c.var.db, c.var.caller), 200))
  .post('/generateLink', allow('payment'), validate('json', generateLinkSchema), async (c) =>
    c.json(await svc.generateLink(c.env, c.var.control, c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  // one order for several agents: a manager only, not behind its own subscription (like Pay for Team's list)
  .post('/generateTeamLink', allow('teamOrder'), validate('json', generateTeamLinkSchema), async (c) =>
    c.json(await generateTeamLink(c.env, c.var.control, c.var.db, c.var.caller, c.req.valid('json')), 200),
  )
  .post('/getPaymentLink', allow('payment'), validate('json', orderIdSchema), async (c) =>
    c.json(await svc.paymentLink(c.env, c.var.control, c.var.caller, c.req.raw, c.req.valid('json').orderId), 200),
  )
  // the payer cancels its own order while it waits for payment (docs/rules/payments.md#0163-cancel-order)
  .post('/cancelOrder', allow('payment'), validate('json', orderIdSchema), async (c) =>
    c.json(await svc.cancelOrder(c.env, c.var.control, c.var.caller, c.req.valid('json').orderId), 200),
  )
  .get('/receipt/:id', allow('payment'), validate('param', receiptParam), async (c) =>
    c.json(await receiptFor(c.env, c.var.control, c.var.db, c.var.caller, c.req.valid('param').id), 200),
  )
  // Admin payments: refunds, the net totals, the price schedule
  .post('/refund', allow('adminPayments'), validate('json', refundSchema), async (c) =>
    c.json(await refund(c.env, c.var.control, c.var.caller, c.req.valid('json')), 200),
  )
  .get('/summary', allow('adminPayments'), async (c) => c.json(await paymentSummary(c.var.control), 200))
  .get('/priceSchedule', allow('adminPayments'), async (c) => c.json(await listPriceChanges(c.env, c.var.control), 200))
  .post('/priceSchedule', allow('adminPayments'), validate('json', priceScheduleSchema), async (c) =>
    c.json(await schedulePrice(c.var.control, c.var.caller, c.req.valid('json')), 200),
  )
  .delete('/priceSchedule/:id', allow('adminPayments'), validate('param', scheduleParam), async (c) =>
    c.json(await cancelPriceChange(c.var.control, c.req.valid('param').id), 200),
  )
  .post('/get_arca_status', allow('payment'), validate('json', orderIdSchema), async (c) =>
    c.json(await svc.arcaStatus(c.var.control, c.var.caller, c.req.valid('json').orderId), 200),
  );

export type PaymentRoutes = typeof paymentRoutes;
