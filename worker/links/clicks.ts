import type { Bindings } from '../env';
import { randomId } from '../lib/ids';
import type { ClickBatch } from './click-counter';

/** What one redirect tells about its visitor, from the request and Cloudflare's `cf` data. */
export interface Visit {
  referrer: string;
  country: string;
  device: 'mobile' | 'tablet' | 'desktop' | 'bot';
  isBot: boolean;
}

const BOT_RE = /bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|curl|wget|python-requests|httpclient|headless|lighthouse|monitor/i;

// user agents repeat a lot: classify each one once per isolate
const uaKinds = new Map<string, { isBot: boolean; device: Visit['device'] }>();

function classify(ua: string) {
  let kind = uaKinds.get(ua);
  if (!kind) {
    // no user agent at all is a script, not a person's browser
    const isBot = !ua || BOT_RE.test(ua);
    kind = { isBot, device: isBot ? 'bot' : /ipad|tablet/i.test(ua) ? 'tablet' : /mobi|android|iphone/i.test(ua) ? 'mobile' : 'desktop' };
    if (uaKinds.size >= 2_000) uaKinds.clear();
    uaKinds.set(ua, kind);
  }
  return kind;
}

export function describeVisit(req: Request): Visit {
  const cf = (req as Request & { cf?: { country?: string; botManagement?: { verifiedBot?: boolean } } }).cf;
  let { isBot, device } = classify(req.headers.get('user-agent') ?? '');
  if (!isBot && cf?.botManagement?.verifiedBot === true) [isBot, device] = [true, 'bot'];
  let referrer = 'direct';
  const ref = req.headers.get('referer');
  if (ref) {
    try {
      referrer = new URL(ref).hostname || 'direct';
    } catch {
      referrer = 'unknown';
    }
  }
  return { referrer, country: cf?.country ?? 'unknown', device, isBot };
}

/** How long a flush waits for more clicks to join it. */
export const FLUSH_DELAY_MS = 1000;
const MAX_ATTEMPTS = 6;

/*
 * Clicks are coalesced per isolate: every redirect adds to `pending` and shares one flush, which
 * the redirect hands to `ctx.waitUntil` (the isolate stays alive until it lands), so the redirect
 * never waits. A flush that fails is kept as it is, id and all, and sent again: the ClickCounter
 * applies each id once, so a retry after a lost answer cannot count twice.
 */
let pending = new Map<string, ClickBatch>();
let retrying: ClickBatch[] = [];
let flushing: Promise<void> | null = null;

let dayCache = { until: 0, day: '' };
const today = (now: number) => {
  if (now >= dayCache.until) {
    const start = now - (now % 86_400_000);
    dayCache = { until: start + 86_400_000, day: new Date(start).toISOString().slice(0, 10) };
  }
  return dayCache.day;
};

/**
 * Adds one click. Answers the flush promise only to the click that scheduled the flush (its
 * `waitUntil` keeps the isolate alive until the flush lands); clicks that join an already
 * scheduled flush answer null and need no `waitUntil` of their own.
 */
export function recordClick(env: Bindings, linkId: string, visit: Visit, now = Date.now()): Promise<void> | null {
  const day = today(now);
  let batch = pending.get(linkId);
  if (!batch) {
    batch = { id: randomId(), linkId, clicks: 0, stats: {} };
    pending.set(linkId, batch);
  }
  const stats = batch.stats;
  batch.clicks += 1;
  const bump = (dimension: string, value: string) => {
    const key = `${day}|${dimension}|${value.slice(0, 100)}`;
    stats[key] = (stats[key] ?? 0) + 1;
  };
  bump('kind', visit.isBot ? 'bot' : 'person');
  if (!visit.isBot) {
    bump('referrer', visit.referrer);
    bump('country', visit.country);
  }
  bump('device', visit.device);
  if (flushing) return null;
  flushing = flush(env);
  return flushing;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function flush(env: Bindings, attempt = 0): Promise<void> {
  // let the redirects of the next second join this flush: under load one Durable
  // Object call and one D1 batch carry hundreds of clicks instead of one each
  await sleep(FLUSH_DELAY_MS);
  const batches = [...pending.values(), ...retrying];
  pending = new Map();
  retrying = [];
  flushing = null;
  const failed: ClickBatch[] = [];
  await Promise.all(
    batches.map(async (batch) => {
      try {
        await env.CLICK_COUNTER.get(env.CLICK_COUNTER.idFromName(batch.linkId)).add(batch);
      } catch (err) {
        console.error('click flush failed', err);
        failed.push(batch);
      }
    }),
  );
  if (!failed.length) return;
  retrying.push(...failed);
  // past the last attempt the batches stay in `retrying` and go with this isolate's next flush
  if (attempt + 1 < MAX_ATTEMPTS) {
    await sleep(100 * 2 ** attempt);
    flushing ??= flush(env, attempt + 1);
    return flushing;
  }
}
