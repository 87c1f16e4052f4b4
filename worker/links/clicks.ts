import type { Bindings } from '../env';
import type { ClickBatch } from './click-counter';

/** What one redirect tells about its visitor, from the request and Cloudflare's `cf` data. */
export interface Visit {
  referrer: string;
  country: string;
  device: 'mobile' | 'tablet' | 'desktop' | 'bot';
  isBot: boolean;
}

const BOT_RE = /bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|curl|wget|python-requests|httpclient|headless|lighthouse|monitor/i;

export function describeVisit(req: Request): Visit {
  const ua = req.headers.get('user-agent') ?? '';
  const cf = (req as Request & { cf?: { country?: string; botManagement?: { verifiedBot?: boolean } } }).cf;
  const isBot = BOT_RE.test(ua) || cf?.botManagement?.verifiedBot === true;
  let referrer = 'direct';
  const ref = req.headers.get('referer');
  if (ref) {
    try {
      referrer = new URL(ref).hostname || 'direct';
    } catch {
      referrer = 'unknown';
    }
  }
  const device = isBot ? 'bot' : /ipad|tablet/i.test(ua) ? 'tablet' : /mobi|android|iphone/i.test(ua) ? 'mobile' : 'desktop';
  return { referrer, country: cf?.country ?? 'unknown', device, isBot };
}

/**
 * Clicks are coalesced per isolate: every redirect adds to `pending` and shares one flush,
 * which the redirect hands to `ctx.waitUntil` (the isolate stays alive until it lands), so the
 * redirect never waits. A failed flush puts its counts back and tries again, so none are lost.
 */
/** How long a flush waits for more clicks to join it. */
export const FLUSH_DELAY_MS = 50;
let pending = new Map<string, ClickBatch>();
let flushing: Promise<void> | null = null;

export function recordClick(env: Bindings, linkId: string, visit: Visit, now = new Date()): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  let batch = pending.get(linkId);
  if (!batch) pending.set(linkId, (batch = { linkId, clicks: 0, stats: {} }));
  batch.clicks += 1;
  const bump = (dimension: string, value: string) => {
    const key = `${day}|${dimension}|${value.slice(0, 100)}`;
    batch!.stats[key] = (batch!.stats[key] ?? 0) + 1;
  };
  bump('kind', visit.isBot ? 'bot' : 'person');
  if (!visit.isBot) {
    bump('referrer', visit.referrer);
    bump('country', visit.country);
  }
  bump('device', visit.device);
  return (flushing ??= flush(env));
}

async function flush(env: Bindings, attempt = 0): Promise<void> {
  // let the redirects of the next few milliseconds join this flush: under load one Durable
  // Object call and one D1 batch carry hundreds of clicks instead of one each
  await new Promise((r) => setTimeout(r, FLUSH_DELAY_MS));
  const batches = pending;
  pending = new Map();
  flushing = null;
  const failed: ClickBatch[] = [];
  await Promise.all(
    [...batches.values()].map(async (batch) => {
      try {
        await env.CLICK_COUNTER.get(env.CLICK_COUNTER.idFromName(batch.linkId)).add(batch);
      } catch (err) {
        console.error('click flush failed', err);
        failed.push(batch);
      }
    }),
  );
  if (failed.length) {
    for (const b of failed) {
      const cur = pending.get(b.linkId);
      if (!cur) pending.set(b.linkId, b);
      else {
        cur.clicks += b.clicks;
        for (const [k, v] of Object.entries(b.stats)) cur.stats[k] = (cur.stats[k] ?? 0) + v;
      }
    }
    if (attempt < 5) {
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      return (flushing ??= flush(env, attempt + 1));
    }
  }
}
