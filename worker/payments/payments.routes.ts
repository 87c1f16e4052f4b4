import { Hono } from 'hono';
import { type AppEnv, isDevelopment } from '../env';
import { requireArea, requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { validate } from '../lib/validate';
import { generateLinkSchema, orderIdSchema } from './payments.schema';
import * as svc from './payments.service';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function htmlPage(title: string, body: string, opts: { nonce?: string; formAction?: string } = {}) {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    opts.nonce ? `script-src 'nonce-${opts.nonce}'` : '',
    `form-action 'self'${opts.formAction ? ` ${new URL(opts.formAction).origin}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]
    .filter(Boolean)
    .join('; ');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;background:#f4f6fa;color:#1b2433;display:grid;place-items:center;min-height:100vh;margin:0}main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12);min-width:320px;max-width:480px}h1{font-size:1.3rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{color:#5b6678;font-weight:600}dd{margin:0}.row{display:flex;gap:.75rem;margin-top:1.25rem}button{font:inherit;font-weight:600;border-radius:6px;padding:.55rem 1.1rem;border:1px solid #dde3ec;cursor:pointer;background:#fff}.pay{background:#f47b20;color:#fff;border-color:#f47b20}.note{color:#5b6678;font-size:.9rem}</style></head><body><main>${body}</main></body></html>`;
  return { html, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': csp, 'x-content-type-options': 'nosniff' } };
}

const hidden = (fields: Record<string, string>) => Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('');

const formBody = async (req: Request) => {
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
};

/** /api/payment (docs/api/payments.md). */
export const paymentRoutes = new Hono<AppEnv>()
  // Idram's result URL: public (Idram calls it), form-encoded, answers bare text, never a 5xx.
  .post('/idram/result', async (c) => c.text(await svc.idramResult(c.env, c.var.db, await formBody(c.req.raw)), 200))
  // The page the Payment screen sends the browser to: posts the Idram form.
  .get('/idram/pay/:orderId', async (c) => {
    const form = await svc.payPage(c.env, c.var.db, c.req.raw, c.req.param('orderId').slice(0, 64));
    if (!form) return c.redirect('/paymentResult/failed', 303);
    const nonce = crypto.randomUUID().replaceAll('-', '');
    const page = htmlPage(
      'Redirecting to Idram',
      `<h1>Redirecting to Idram…</h1><form id="idram" method="post" action="${esc(form.action)}" accept-charset="UTF-8">${hidden(form.fields)}<p class="note">${esc(form.fields.EDP_DESCRIPTION)}: ${esc(form.fields.EDP_AMOUNT)} AMD</p><div class="row"><button class="pay" type="submit">Continue to Idram</button></div></form><script nonce="${nonce}">document.getElementById('idram').submit()</script>`,
      { nonce, formAction: form.action },
    );
    return c.body(page.html, 200, page.headers);
  })
  // Development only: a stand-in for Idram's payment page that sends the same two callbacks.
  .post('/idram/simulator', async (c) => {
    if (!isDevelopment(c.env)) throw notFound();
    const f = await formBody(c.req.raw);
    const page = htmlPage(
      'Idram (simulator)',
      `<h1>Idram payment simulator</h1><p class="note">Development only: no money moves. Pay sends Idram's precheck and confirmation to the product.</p><dl><dt>Merchant account</dt><dd>${esc(f.EDP_REC_ACCOUNT ?? '')}</dd><dt>Description</dt><dd>${esc(f.EDP_DESCRIPTION ?? '')}</dd><dt>Amount</dt><dd data-testid="sim-amount">${esc(f.EDP_AMOUNT ?? '')} AMD</dd><dt>Bill</dt><dd>${esc(f.EDP_BILL_NO ?? '')}</dd><dt>Payer e-mail</dt><dd>${esc(f.EDP_EMAIL ?? '')}</dd></dl><form method="post" action="/api/payment/idram/simulator/complete">${hidden({ EDP_BILL_NO: f.EDP_BILL_NO ?? '', EDP_REC_ACCOUNT: f.EDP_REC_ACCOUNT ?? '', EDP_AMOUNT: f.EDP_AMOUNT ?? '' })}<div class="row"><button class="pay" type="submit" name="action" value="pay">Pay</button><button type="submit" name="action" value="decline">Decline</button></div></form>`,
    );
    return c.body(page.html, 200, page.headers);
  })
  .post('/idram/simulator/complete', async (c) => {
    if (!isDevelopment(c.env)) throw notFound();
    const f = await formBody(c.req.raw);
    if (f.action === 'pay' && (await svc.simulatePay(c.env, c.var.db, f))) return c.redirect('/paymentResult/confirmed', 303);
    if (f.EDP_BILL_NO) await svc.simulateDecline(c.env, f.EDP_BILL_NO.slice(0, 64));
    return c.redirect('/paymentResult/failed', 303);
  })
  .use(requireAuth, requireArea('payment'))
  .get('/monthlyprice', async (c) => c.json(await svc.priceInfo(c.env, c.var.db, c.var.caller), 200))
  .get('/paymentHistory', async (c) => c.json(await svc.history(c.var.db, c.var.caller), 200))
  .post('/generateLink', validate('json', generateLinkSchema), async (c) => c.json(await svc.generateLink(c.env, c.var.db, c.var.caller, c.req.valid('json')), 200))
  .post('/getPaymentLink', validate('json', orderIdSchema), async (c) =>
    c.json(await svc.paymentLink(c.env, c.var.db, c.var.caller, c.req.raw, c.req.valid('json').orderId), 200),
  )
  .post('/get_arca_status', validate('json', orderIdSchema), async (c) => c.json(await svc.arcaStatus(c.var.db, c.var.caller, c.req.valid('json').orderId), 200));
