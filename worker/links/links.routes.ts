import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv, Bindings } from '../env';
import { answers, okSchema, refuses } from '../lib/answer';
import { allow } from '../lib/auth';
import { COMMON_MESSAGES as COMMON } from '../lib/common-messages';
import { readOnly } from '../lib/db';
import { validate } from '../lib/validate';
import { claimClick, describeVisit, recordClick } from './clicks';
import { toCsv } from './csv';
import * as keys from './keys.service';
import { LINK_MESSAGES as LINK } from './links.messages';
import {
  apiKeySchema,
  CODE_RE,
  canonicalHostname,
  createdApiKeySchema,
  editSchema,
  generateSchema,
  keyCreateSchema,
  keyIdParam,
  linkIdParam,
  linkPageQuerySchema,
  linkSchema,
  linksPageSchema,
  linkWithStatsSchema,
} from './links.schema';
import * as svc from './links.service';
import { type CachedLink, cachedCode, resolveCode } from './links.service';
import { linksPage } from './links-page.service';

/** The caller's company: its links, and the control plane where their codes are claimed. */
const scopeOf = (c: { var: Pick<AppEnv['Variables'], 'control' | 'db' | 'companyId'> }): svc.LinkScope => ({
  control: c.var.control,
  db: c.var.db,
  companyId: c.var.companyId,
});

const csvHeaders = (filename: string) => ({
  'content-type': 'text/csv; charset=utf-8',
  'content-disposition': `attachment; filename="${filename}"`,
  'cache-control': 'no-store',
});

/** /api/link: the caller's own links (the admin may ask for all with ?all=1), and the caller's API keys. */
export const linkRoutes = new Hono<AppEnv>()
  .get('/', allow('links'), readOnly(), answers(z.array(linkSchema)), async (c) =>
    c.var.answer(await svc.listLinks(c.env, c.var.db, c.var.caller, c.req.query('all') === '1')),
  )
  .get('/page', allow('links'), readOnly(), validate('query', linkPageQuerySchema), answers(linksPageSchema, [COMMON.badCursor]), async (c) =>
    c.var.answer(await linksPage(c.env, c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/generate',
    allow('links'),
    validate('json', generateSchema),
    answers(linkSchema, [
      LINK.empty,
      LINK.scheme,
      LINK.invalid,
      LINK.tooLong,
      LINK.credentials,
      LINK.ownSite,
      LINK.alias,
      LINK.aliasTaken,
      COMMON.tooManyLinks,
    ]),
    async (c) => c.var.answer(await svc.createLink(c.env, scopeOf(c), c.var.caller, c.req.raw, c.req.valid('json'))),
  )
  .get('/export.csv', allow('links'), readOnly(), async (c) => {
    const rows = await svc.listLinks(c.env, c.var.db, c.var.caller, c.req.query('all') === '1');
    const csv = toCsv(
      ['Number', 'Short link', 'Target', 'Clicks', 'Created', 'Status', 'Expires', 'Click limit', ...(rows.some((r) => r.owner) ? ['Owner'] : [])],
      rows.map((r, i) => [i + 1, r.to, r.from, r.clicks, r.date, r.status, r.expiresAt ?? '', r.maxClicks ?? '', ...(r.owner ? [r.owner.email] : [])]),
    );
    return c.body(csv, 200, csvHeaders('links.csv'));
  })
  .get('/keys', allow('linkKeys'), readOnly(), answers(z.array(apiKeySchema)), async (c) => c.var.answer(await keys.listKeys(c.var.control, c.var.caller)))
  .post('/keys', allow('linkKeys'), validate('json', keyCreateSchema), answers({ 201: createdApiKeySchema }), async (c) =>
    c.var.answer(await keys.createKey(c.var.control, c.var.caller, c.req.valid('json')), 201),
  )
  .delete('/keys/:id', allow('linkKeys'), validate('param', keyIdParam), answers(okSchema), async (c) => {
    await keys.revokeKey(c.var.control, c.var.caller, c.req.valid('param').id);
    return c.var.answer({ ok: true });
  })
  .get('/:id/clicks.csv', allow('links'), readOnly(), validate('param', linkIdParam), refuses([COMMON.linkNotFound]), async (c) => {
    const { row, db } = await svc.ownLink(c.env, scopeOf(c), c.var.caller, c.req.valid('param').id);
    const days = await svc.dailyClicks(db, row);
    const csv = toCsv(
      ['Day', 'People', 'Bots', 'Unique visitors'],
      days.map((d) => [d.day, d.people, d.bots, d.visitors]),
    );
    return c.body(csv, 200, csvHeaders(`link-${row.code}-clicks.csv`));
  })
  .get('/:id', allow('links'), readOnly(), validate('param', linkIdParam), answers(linkWithStatsSchema, [COMMON.linkNotFound]), async (c) => {
    const { row, db } = await svc.ownLink(c.env, scopeOf(c), c.var.caller, c.req.valid('param').id);
    return c.var.answer({ ...svc.toDto(c.env, row), stats: await svc.linkStats(db, row.id) });
  })
  .put(
    '/:id',
    allow('links'),
    validate('param', linkIdParam),
    validate('json', editSchema),
    answers(linkSchema, [LINK.aliasTaken, LINK.expiresAt, LINK.maxClicks, LINK.isDisabled, COMMON.linkNotFound]),
    async (c) => c.var.answer(await svc.updateLink(c.env, scopeOf(c), c.var.caller, c.req.raw, c.req.valid('param').id, c.req.valid('json'))),
  )
  .delete('/:id', allow('links'), validate('param', linkIdParam), answers(okSchema, [COMMON.linkNotFound]), async (c) => {
    await svc.deleteLink(c.env, scopeOf(c), c.var.caller, c.req.valid('param').id);
    return c.var.answer({ ok: true });
  });

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;background:#f4f6fa;color:#1b2433;display:grid;place-items:center;min-height:100vh;margin:0}main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);text-align:center}a{color:#1d4ed8}</style></head><body><main><h1>${title}</h1><p>${text}</p><p><a href="/">FreightDesk</a></p></main></body></html>`;

const notFoundPage = page(COMMON.linkNotFound.text, 'This short link does not exist.');
const disabledPage = page('Link disabled', 'The owner of this short link has disabled it.');
const expiredPage = page('Link expired', 'This short link has expired.');
const loopPage = page('Link stopped', 'This short link leads back to this site, so it does not redirect.');

const htmlHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

// The design's contract: a 302 with no cache headers. Without freshness information a 302 is
// never stored for reuse (RFC 9111, 4.2.2: it is not heuristically cacheable), and Cloudflare does
// not cache a Worker's own answers, so every visit reaches the Worker and is counted.
const redirectHeaders = (location: string) => ({ location });

/**
 * GET /s/{code}: public. The lean path: an in-isolate cache, then KV; D1 only when KV has not
 * got the code. 302 to the target; the click is coalesced in the isolate and flushed to its
 * ClickCounter inside waitUntil, so the redirect never waits for counting. Unknown codes
 * (including malformed ones) answer a small 404 page, disabled links a 410 page.
 *
 * A plain function: `worker/index.ts` calls it before Hono's router for `/s/{code}` (the hot path
 * skips routing and middleware), and the route below serves the same. A cached link is answered
 * without a promise (no async function, no await): a sixth of the redirect's own time went to the
 * async function's machinery in a profile (docs/decisions/0044-redirect-tail.md).
 */
export function redirectShortLink(
  env: Bindings,
  ctx: { waitUntil(promise: Promise<unknown>): void },
  req: Request,
  code: string,
): Response | Promise<Response> {
  // a plain regex (the one codeParam uses): zod on every redirect costs throughput
  if (!CODE_RE.test(code)) return new Response(notFoundPage, { status: 404, headers: htmlHeaders });
  const link = cachedCode(code);
  if (link === undefined) return resolveCode(env, code, (p) => ctx.waitUntil(p)).then((found) => serveLink(env, ctx, req, found));
  return serveLink(env, ctx, req, link);
}

function serveLink(env: Bindings, ctx: { waitUntil(promise: Promise<unknown>): void }, req: Request, link: CachedLink | null): Response | Promise<Response> {
  if (!link) return new Response(notFoundPage, { status: 404, headers: htmlHeaders });
  if (link.disabled) return new Response(disabledPage, { status: 410, headers: htmlHeaders });
  if (link.expiresAt && Date.now() >= link.expiresAt) return new Response(expiredPage, { status: 410, headers: htmlHeaders });
  // a target on our own hosts (saved before they were refused, or on a host name not configured
  // as ours but serving this Worker, as this very request shows) would loop: stop, count nothing
  if (link.ownTarget || link.targetHost === requestHostname(req)) return new Response(loopPage, { status: 410, headers: htmlHeaders });
  if (link.maxClicks) {
    // a click limit is exact: the link's ClickCounter counts this click before it is served
    // (the slower path, for these links only)
    return claimClick(env, ctx, link.id, link.maxClicks, describeVisit(req), link.co).then((ok) =>
      ok ? new Response(null, { status: 302, headers: redirectHeaders(link.from) }) : new Response(expiredPage, { status: 410, headers: htmlHeaders }),
    );
  }
  const flush = recordClick(env, link.id, describeVisit(req), link.co);
  if (flush) ctx.waitUntil(flush);
  return new Response(null, { status: 302, headers: redirectHeaders(link.from) });
}

/** The last request host seen and its canonical name: an isolate serves one or two host names. */
let lastHost = { raw: '', canonical: '' };

/** The host name this request came to (no port, canonical), cut from its URL without parsing it again. */
function requestHostname(req: Request): string {
  const url = req.url;
  const start = url.indexOf('//') + 2;
  const slash = url.indexOf('/', start);
  const host = url.slice(start, slash === -1 ? undefined : slash);
  if (host === lastHost.raw) return lastHost.canonical;
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  lastHost = { raw: host, canonical: canonicalHostname(end > 0 ? host.slice(0, end) : host) };
  return lastHost.canonical;
}

export const shortLinkRoutes = new Hono<AppEnv>()
  .get('/:code', allow('public'), (c) => redirectShortLink(c.env, c.executionCtx, c.req.raw, c.req.param('code')))
  // /s, /s/ and deeper paths are no short link either: a browser gets the same page, not JSON
  .all('*', (c) => c.body(notFoundPage, 404, htmlHeaders));

export type LinkRoutes = typeof linkRoutes;
