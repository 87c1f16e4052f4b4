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

/**
 * Sends of one link's clicks start at least SEND_INTERVAL_MS apart in an isolate, one at a time:
 * a quiet link's click goes to its ClickCounter at once; a busy link's clicks of each interval go
 * together (at most 20 object calls and storage writes a second per link and isolate). A click
 * is durable once the counter has stored it: within SEND_INTERVAL_MS plus the round trips of the
 * send in flight and of its own after its redirect (SECURITY.md states the bound).
 */
export const SEND_INTERVAL_MS = 50;
const MAX_ATTEMPTS = 6;

/** One link's clicks in this isolate: the batch being filled, batches to send again, the sends. */
interface LinkClicks {
  pending: ClickBatch | null;
  retrying: ClickBatch[];
  /** The send on its way; the next one starts after it, so one link has one send at a time. */
  inFlight: Promise<ClickBatch[]> | null;
  /** A timer that sends what is left once the interval is over (for the last clicks of a burst). */
  timer: Promise<void> | null;
  /** When the last send started. */
  lastSendAt: number;
}

/*
 * Clicks are coalesced per isolate and per link, and sent to the link's ClickCounter, which stores
 * them durably before it answers and writes D1 itself, later. The redirect never waits. Sends are
 * started by the redirects themselves (a click that finds no send on its way and the interval
 * over starts one, handed to its `ctx.waitUntil`), not only by timers: under a saturating load a
 * Worker's timers fire late (seconds were seen locally), its requests do not. A timer sends the
 * last clicks of a burst. A send that fails is kept as it is, id and all, and sent again: the
 * counter stores each id once, so a resend after a lost answer cannot count twice.
 */
const perLink = new Map<string, LinkClicks>();

let dayCache = { until: 0, day: '' };
const today = (now: number) => {
  if (now >= dayCache.until) {
    const start = now - (now % 86_400_000);
    dayCache = { until: start + 86_400_000, day: new Date(start).toISOString().slice(0, 10) };
  }
  return dayCache.day;
};

/**
 * Adds one click. Answers a promise to hand to `waitUntil` when this click started a send or the
 * timer (the isolate stays alive until it lands); null when a send or timer already covers it.
 */
export function recordClick(env: Bindings, linkId: string, visit: Visit, now = Date.now()): Promise<void> | null {
  const day = today(now);
  let state = perLink.get(linkId);
  if (!state) {
    if (perLink.size >= 5_000) forgetIdleLinks(now);
    state = { pending: null, retrying: [], inFlight: null, timer: null, lastSendAt: 0 };
    perLink.set(linkId, state);
  }
  let batch = state.pending;
  if (!batch) {
    batch = { id: randomId(), linkId, clicks: 0, stats: {} };
    state.pending = batch;
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
  if (!state.inFlight && now - state.lastSendAt >= SEND_INTERVAL_MS) return send(env, linkId, state, now);
  if (state.timer) return null;
  state.timer = sendLater(env, linkId, state, state.lastSendAt + SEND_INTERVAL_MS - now);
  return state.timer;
}

/** Drops the links with nothing waiting and no recent send (their pacing no longer matters). */
function forgetIdleLinks(now: number) {
  for (const [linkId, state] of perLink) {
    if (!state.pending && !state.retrying.length && !state.inFlight && !state.timer && now - state.lastSendAt > SEND_INTERVAL_MS) perLink.delete(linkId);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * After `ms`, and once no send is on its way, sends whatever is still waiting. It looks again
 * every few milliseconds rather than awaiting the send in flight: that promise may belong to
 * another request, and a request should not wait on another's I/O.
 */
async function sendLater(env: Bindings, linkId: string, state: LinkClicks, ms: number, attempt = 0): Promise<void> {
  let wait = ms;
  do {
    await sleep(Math.max(wait, 1));
    wait = 5;
  } while (state.inFlight);
  if (state.timer && attempt === 0) state.timer = null;
  if (state.pending || state.retrying.length) await send(env, linkId, state, Date.now(), attempt);
}

/** Sends everything waiting for the link now; failed batches are kept and retried with backoff. */
async function send(env: Bindings, linkId: string, state: LinkClicks, now: number, attempt = 0): Promise<void> {
  state.lastSendAt = now;
  const batches = state.pending ? [...state.retrying, state.pending] : state.retrying;
  state.pending = null;
  state.retrying = [];
  const counter = env.CLICK_COUNTER.get(env.CLICK_COUNTER.idFromName(linkId));
  const landing = Promise.all(
    batches.map((batch) =>
      counter.add(batch).then(
        () => null,
        (err: unknown) => {
          console.error('click send failed', err);
          return batch;
        },
      ),
    ),
  ).then((results) => results.filter((b): b is ClickBatch => b !== null));
  state.inFlight = landing;
  const failed = await landing;
  if (state.inFlight === landing) state.inFlight = null;
  if (!failed.length) return;
  state.retrying.push(...failed);
  // past the last attempt the batches stay in `retrying` and go with this link's next send
  if (attempt + 1 < MAX_ATTEMPTS) await sendLater(env, linkId, state, 100 * 2 ** attempt, attempt + 1);
}
