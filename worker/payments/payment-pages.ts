import { DEFAULT_LANGUAGE, type Language } from '../lib/languages';
import { idramText } from './idram-texts';

/** Under /api, whose default CSP is `default-src 'none'`, so each page sets its own. */

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

// main's width holds its padding, so 92vw is the whole card on a 390 px phone
const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6fa;color:#1b2433;display:grid;place-items:center;min-height:100vh;margin:0}
main{box-sizing:border-box;background:#fff;padding:1.75rem clamp(1rem,5vw,2.25rem);border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12),0 8px 24px rgba(15,27,51,.08);width:min(92vw,460px)}
h1{font-size:1.3rem;margin:0 0 .75rem;overflow-wrap:break-word}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:700;color:#f47b20;margin-bottom:1rem;letter-spacing:.02em}
.brand span{background:#f47b20;color:#fff;border-radius:6px;padding:.1rem .45rem}
.tag{margin-left:auto;background:#fff4e5;color:#8a4b00;border-radius:999px;padding:.1rem .6rem;font-size:.75rem;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.45rem 1rem;margin:0 0 .5rem}
dt{color:#5b6678;font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.amount{font-size:1.4rem;font-weight:700}
.row{display:flex;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;border-radius:6px;padding:.6rem 1.2rem;border:1px solid #dde3ec;cursor:pointer;background:#fff;color:#1b2433}
.pay{background:#f47b20;color:#fff;border-color:#f47b20;flex:1}
.decline{flex:1}
.note{color:#5b6678;font-size:.9rem;margin:.25rem 0 0}
`;

function page(title: string, body: string, opts: { nonce?: string; formAction?: string; lang?: string } = {}) {
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
  const html = `<!doctype html><html lang="${opts.lang ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  };
}

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');

const amd = (amount: string) => `${Number(amount).toLocaleString('en-US')} AMD`;

/** The paymentURL: shows the order and posts the Idram form at once (a button if scripts are off), in the payer's language. */
export function idramPayPage(form: { action: string; fields: Record<string, string>; language: Language | null }) {
  const nonce = crypto.randomUUID().replaceAll('-', '');
  const f = form.fields;
  const text = idramText(form.language);
  return page(
    text.title,
    `<div class="brand"><span>Idram</span> ${esc(text.payment)}</div><h1>${esc(text.heading)}</h1>
<dl><dt>${esc(text.description)}</dt><dd>${esc(f.EDP_DESCRIPTION ?? '')}</dd><dt>${esc(text.amount)}</dt><dd class="amount">${esc(text.money(Number(f.EDP_AMOUNT ?? '0')))}</dd></dl>
<form id="idram" method="post" action="${esc(form.action)}" accept-charset="UTF-8">${hidden(form.fields)}<div class="row"><button class="pay" type="submit">${esc(text.continue)}</button></div></form>
<script nonce="${nonce}">document.getElementById('idram').submit()</script>`,
    { nonce, formAction: form.action, lang: form.language ?? DEFAULT_LANGUAGE },
  );
}

/** Development only: Idram's payment page, with Pay and Decline. */
export function simulatorPage(f: Record<string, string>) {
  const fields = ['EDP_LANGUAGE', 'EDP_REC_ACCOUNT', 'EDP_DESCRIPTION', 'EDP_AMOUNT', 'EDP_BILL_NO'] as const;
  const posted = Object.fromEntries(fields.map((k) => [k, (f[k] ?? '').slice(0, 500)]));
  return page(
    'Idram payment simulator',
    `<div class="brand"><span>Idram</span> payment <em class="tag">simulator</em></div><h1>Confirm the payment</h1>
<p class="note">Development only: no money moves. Pay sends Idram's precheck and signed confirmation to the product; Decline cancels the order; Let it expire runs the order's expiry now, as if the payer had left the page until its time ran out.</p>
<dl style="margin-top:1rem"><dt>Merchant</dt><dd>${esc(posted.EDP_REC_ACCOUNT!)}</dd><dt>Description</dt><dd>${esc(posted.EDP_DESCRIPTION!)}</dd><dt>Order</dt><dd>${esc(posted.EDP_BILL_NO!)}</dd><dt>Amount</dt><dd class="amount" data-testid="sim-amount">${esc(amd(posted.EDP_AMOUNT || '0'))}</dd></dl>
<form method="post" action="/api/payment/idram/simulator/complete">${hidden(posted)}<div class="row"><button class="pay" type="submit" name="action" value="pay">Pay</button><button class="decline" type="submit" name="action" value="decline">Decline</button><button class="decline" type="submit" name="action" value="expire">Let it expire</button></div></form>`,
  );
}
