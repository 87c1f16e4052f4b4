import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { Bindings } from '../env';
import { randomId, toHex } from '../lib/ids';
import { secrets } from '../lib/secrets';
import type { ClickBatch } from './click-counter';

export interface Visit {
  referrer: string;
  country: string;
  device: 'mobile' | 'tablet' | 'desktop' | 'bot';
  browser: string;
  os: string;
  isBot: boolean;
  /** IP and user agent of a person, kept in memory only until the send hashes them; '' for bots. */
  visitor: string;
}

// isbot (its maintained list: crawlers, link previews of messaging apps and social networks,
// monitors, HTTP libraries) plus the names the first version caught that isbot leaves out
const EXTRA_BOT_RE = /preview|embedly|httpclient|headless|lighthouse|monitor/i;

interface UaKind {
  isBot: boolean;
  device: Visit['device'];
  browser: string;
  os: string;
}

// user agents repeat a lot: classify each one once per isolate
const uaKinds = new Map<string, UaKind>();

function classify(ua: string): UaKind {
  let kind = uaKinds.get(ua);
  if (!kind) {
    // no user agent at all is a script, not a person's browser
    const isBot = !ua || isbot(ua) || EXTRA_BOT_RE.test(ua);
    if (isBot) kind = { isBot, device: 'bot', browser: 'bot', os: 'bot' };
    else {
      const parsed = Bowser.parse(ua);
      kind = {
        isBot,
        device: /ipad|tablet/i.test(ua) ? 'tablet' : /mobi|android|iphone/i.test(ua) ? 'mobile' : 'desktop',
        browser: parsed.browser.name || 'Other',
        os: parsed.os.name || 'Other',
      };
    }
    if (uaKinds.size >= 2_000) uaKinds.clear();
    uaKinds.set(ua, kind);
  }
  return kind;
}

const BOT_KIND: UaKind = { isBot: true, device: 'bot', browser: 'bot', os: 'bot' };

/**
 * `CF-IPCountry` first: reading `request.cf` parses some forty fields on every request, a sixth of
 * the redirect's busy time under load (docs/decisions/0044-redirect-tail.md).
 */
type VisitCf = { country?: string; botManagement?: { verifiedBot?: boolean } };

export function describeVisit(req: Request): Visit {
  const ua = req.headers.get('user-agent') ?? '';
  let kind = classify(ua);
  let country = 'unknown';
  if (kind.isBot || req.method === 'HEAD') {
    // a HEAD request fetches no page: a checker or a preview, not a person following the link
    kind = BOT_KIND;
  } else {
    const header = req.headers.get('cf-ipcountry');
    if (header) country = header;
    else {
      // no header (IP Geolocation off, or a local runtime): the cf object, and with it
      // Cloudflare's verified-bot flag (a verified bot names itself in its user agent, which isbot knows)
      const cf = (req as Request & { cf?: VisitCf }).cf;
      country = cf?.country ?? 'unknown';
      if (cf?.botManagement?.verifiedBot === true) kind = BOT_KIND;
    }
  }
  const { isBot, device, browser, os } = kind;
  let referrer = 'direct';
  const ref = isBot ? null : req.headers.get('referer');
  if (ref) {
    try {
      referrer = new URL(ref).hostname || 'direct';
    } catch {
      referrer = 'unknown';
    }
  }
  const visitor = isBot ? '' : `${req.headers.get('cf-connecting-ip') ?? ''}\n${ua}`;
  return { referrer, country: isBot ? 'unknown' : country, device, browser, os, isBot, visitor };
}

/**
 * HMAC(daily salt, IP + user agent), the salt HMAC(secret, day): every isolate agrees without
 * storing it, and the same person on two days cannot be linked.
 */
let daySalt: { day: string; key: Promise<CryptoKey> } | null = null;
const encoder = new TextEncoder();

function saltOf(env: Bindings, day: string): Promise<CryptoKey> {
  if (daySalt?.day !== day) {
    const key = (async () => {
      const secret = await crypto.subtle.importKey('raw', encoder.encode(`link-visitors:${secrets(env).jwt}`), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      const salt = await crypto.subtle.sign('HMAC', secret, encoder.encode(day));
      return crypto.subtle.importKey('raw', salt, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    })();
    daySalt = { day, key };
  }
  return daySalt.key;
}

/** Visitors hashed lately in this isolate (`day|ip\nua` → `day|hash`): a person who clicks again is not hashed again. */
const hashed = new Map<string, string>();

export async function hashVisitors(env: Bindings, visitors: Iterable<string>): Promise<string[]> {
  const out: string[] = [];
  for (const entry of visitors) {
    let hash = hashed.get(entry);
    if (hash === undefined) {
      const bar = entry.indexOf('|');
      const day = entry.slice(0, bar);
      const mac = await crypto.subtle.sign('HMAC', await saltOf(env, day), encoder.encode(entry.slice(bar + 1)));
      hash = `${day}|${toHex(new Uint8Array(mac, 0, 16))}`;
      if (hashed.size >= 5_000) hashed.clear();
      hashed.set(entry, hash);
    }
    out.push(hash);
  }
  return out;
}

/**
 * A token bucket per link and isolate (docs/decisions/0046-paced-click-sends.md): a burst is durable
 * within a few round trips, and a busy link costs at most 1000 / SEND_EVERY_MS sends a second.
 */
export const SEND_EVERY_MS = 100;
export const SEND_BURST = 3;
const POLL_MS = 5;
const MAX_ATTEMPTS = 6;

interface LinkClicks {
  pending: PendingBatch | null;
  retrying: ClickBatch[];
  /** The send on its way; the next one starts after it, so one link has one send at a time. */
  inFlight: Promise<ClickBatch[]> | null;
  /** A timer that sends what is left once a send may go (for the last clicks of a burst). */
  timer: Promise<void> | null;
  lastSendAt: number;
  /** Sends that may start now (up to SEND_BURST), as of `tokensAt`. */
  tokens: number;
  tokensAt: number;
  /** The link's counter's id, worked out once (a stub is made per send: it belongs to a request). */
  counterId: ReturnType<Bindings['CLICK_COUNTER']['idFromName']> | null;
}

function takeSend(state: LinkClicks, now: number): boolean {
  state.tokens = Math.min(SEND_BURST, state.tokens + (now - state.tokensAt) / SEND_EVERY_MS);
  state.tokensAt = now;
  if (state.tokens < 1) return false;
  state.tokens -= 1;
  return true;
}

const untilNextSend = (state: LinkClicks, now: number) =>
  Math.max(0, (1 - Math.min(SEND_BURST, state.tokens + (now - state.tokensAt) / SEND_EVERY_MS)) * SEND_EVERY_MS);

/*
 * The redirect never waits. Sends are started by the redirects themselves, not only by timers:
 * under a saturating load a Worker's timers fire late, its requests do not. A failed send is
 * resent with the same id, which the counter stores once.
 */
const perLink = new Map<string, LinkClicks>();

/**
 * A batch being filled: its clicks by kind of visit (`day\ndevice\nreferrer\ncountry\nbrowser\nos`,
 * or `day\nbot`), and its people's `day|ip\nua`, hashed when it is sent, never sent raw.
 */
type PendingBatch = ClickBatch & { visits?: Map<string, number>; rawVisitors?: Set<string> };

let dayCache = { until: 0, day: '' };
const today = (now: number) => {
  if (now >= dayCache.until) {
    const start = now - (now % 86_400_000);
    dayCache = { until: start + 86_400_000, day: new Date(start).toISOString().slice(0, 10) };
  }
  return dayCache.day;
};

/** Answers a promise for `waitUntil` when this click started a send or the timer; null when one covers it. */
export function recordClick(env: Bindings, linkId: string, visit: Visit, co?: string, now = Date.now()): Promise<void> | null {
  const day = today(now);
  let state = perLink.get(linkId);
  if (!state) {
    if (perLink.size >= 5_000) forgetIdleLinks(now);
    state = { pending: null, retrying: [], inFlight: null, timer: null, lastSendAt: 0, tokens: SEND_BURST, tokensAt: now, counterId: null };
    perLink.set(linkId, state);
  }
  let batch = state.pending;
  if (!batch) {
    batch = { id: randomId(), linkId, clicks: 0, stats: {}, visits: new Map(), co };
    state.pending = batch;
  }
  // one map entry per kind of visit; the per-dimension counts are made once per send (expandVisits)
  batch.clicks += 1;
  const key = visit.isBot ? `${day}\nbot` : `${day}\n${visit.device}\n${visit.referrer}\n${visit.country}\n${visit.browser}\n${visit.os}`;
  batch.visits!.set(key, (batch.visits!.get(key) ?? 0) + 1);
  if (visit.visitor) {
    batch.rawVisitors ??= new Set();
    batch.rawVisitors.add(`${day}|${visit.visitor}`);
  }
  if (!state.inFlight && takeSend(state, now)) return send(env, linkId, state, now);
  if (state.timer) return null;
  state.timer = sendLater(env, linkId, state, untilNextSend(state, now));
  return state.timer;
}

function expandVisits(batch: PendingBatch) {
  const stats = batch.stats;
  for (const [key, count] of batch.visits ?? []) {
    const [day, device, referrer, country, browser, os] = key.split('\n') as [string, string, string?, string?, string?, string?];
    if (device === 'bot') {
      bump(stats, day, 'kind', 'bot', count);
      bump(stats, day, 'device', 'bot', count);
      continue;
    }
    bump(stats, day, 'kind', 'person', count);
    bump(stats, day, 'referrer', referrer!, count);
    bump(stats, day, 'country', country!, count);
    bump(stats, day, 'browser', browser!, count);
    bump(stats, day, 'os', os!, count);
    bump(stats, day, 'device', device, count);
  }
  delete batch.visits;
}

function bump(stats: ClickBatch['stats'], day: string, dimension: string, value: string, count = 1) {
  const key = `${day}|${dimension}|${value.slice(0, 100)}`;
  stats[key] = (stats[key] ?? 0) + count;
}

/** No closure here: the bundle keeps function names, which costs a property definition per closure per click. */
function addVisit(batch: ClickBatch, day: string, visit: Visit) {
  const stats = batch.stats;
  batch.clicks += 1;
  bump(stats, day, 'kind', visit.isBot ? 'bot' : 'person');
  if (!visit.isBot) {
    bump(stats, day, 'referrer', visit.referrer);
    bump(stats, day, 'country', visit.country);
    bump(stats, day, 'browser', visit.browser);
    bump(stats, day, 'os', visit.os);
  }
  bump(stats, day, 'device', visit.device);
}

/** If the counter cannot be reached the click is served and counted as usual: a broken counter must not break the link. */
export async function claimClick(
  env: Bindings,
  ctx: { waitUntil(p: Promise<unknown>): void },
  linkId: string,
  maxClicks: number,
  visit: Visit,
  co?: string,
  now = Date.now(),
): Promise<boolean> {
  const day = today(now);
  const batch: ClickBatch = { id: randomId(), linkId, clicks: 0, stats: {}, co };
  addVisit(batch, day, visit);
  try {
    if (visit.visitor) batch.visitors = await hashVisitors(env, [`${day}|${visit.visitor}`]);
    return await env.CLICK_COUNTER.get(env.CLICK_COUNTER.idFromName(linkId)).claim(batch, maxClicks);
  } catch (err) {
    console.error('click claim failed', err);
    const flush = recordClick(env, linkId, visit, co, now);
    if (flush) ctx.waitUntil(flush);
    return true;
  }
}

function forgetIdleLinks(now: number) {
  for (const [linkId, state] of perLink) {
    if (!state.pending && !state.retrying.length && !state.inFlight && !state.timer && now - state.lastSendAt > SEND_EVERY_MS * SEND_BURST)
      perLink.delete(linkId);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls rather than awaiting the send in flight: that promise may belong to another request. */
async function sendLater(env: Bindings, linkId: string, state: LinkClicks, ms: number, attempt = 0): Promise<void> {
  let wait = ms;
  for (;;) {
    await sleep(Math.max(wait, 1));
    if (state.inFlight) wait = POLL_MS;
    // a retry is paced by its backoff; a fresh send waits for the bucket
    else if (attempt > 0 || takeSend(state, Date.now())) break;
    else wait = untilNextSend(state, Date.now());
  }
  if (state.timer && attempt === 0) state.timer = null;
  if (state.pending || state.retrying.length) await send(env, linkId, state, Date.now(), attempt);
}

async function send(env: Bindings, linkId: string, state: LinkClicks, now: number, attempt = 0): Promise<void> {
  state.lastSendAt = now;
  const batches: ClickBatch[] = state.pending ? [...state.retrying, state.pending] : state.retrying;
  const fresh = state.pending;
  state.pending = null;
  state.retrying = [];
  state.counterId ??= env.CLICK_COUNTER.idFromName(linkId);
  const counter = env.CLICK_COUNTER.get(state.counterId);
  if (fresh) expandVisits(fresh);
  const landing = (async () => {
    // the new batch's visitors are hashed once, before it leaves; a resend carries the same hashes
    if (fresh?.rawVisitors) {
      const raw = fresh.rawVisitors;
      delete fresh.rawVisitors;
      try {
        fresh.visitors = await hashVisitors(env, raw);
      } catch (err) {
        console.error('visitor hashing failed', err);
      }
    }
    const results = await Promise.all(
      batches.map((batch) =>
        counter.add(batch).then(
          () => null,
          (err: unknown) => {
            console.error('click send failed', err);
            return batch;
          },
        ),
      ),
    );
    return results.filter((b): b is ClickBatch => b !== null);
  })();
  state.inFlight = landing;
  const failed = await landing;
  if (state.inFlight === landing) state.inFlight = null;
  if (!failed.length) return;
  state.retrying.push(...failed);
  // past the last attempt the batches stay in `retrying` and go with this link's next send
  if (attempt + 1 < MAX_ATTEMPTS) await sendLater(env, linkId, state, 100 * 2 ** attempt, attempt + 1);
}
