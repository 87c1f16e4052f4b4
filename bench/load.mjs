// Load generation and the statistics every benchmark reports. Latencies are recorded from each
// response as measured (autocannon's `response` event, in fractional milliseconds): autocannon's
// own histogram keeps whole milliseconds, leaves out every non-2xx answer (so a redirect's 302s
// had no latency at all), and nothing here adds corrected samples for coordinated omission.
import autocannon from 'autocannon';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : Number.NaN;
};

/** The nearest-rank percentile `p` (0-100) of `xs`. */
export function percentile(xs, p) {
  if (!xs.length) return Number.NaN;
  const s = xs instanceof Float64Array ? xs.slice().sort() : Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Milliseconds to two significant decimals for a table. */
export const ms = (x) => (Number.isNaN(x) ? '–' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
export const ratio = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');

/**
 * One bounded load run: `connections` clients each sending the next request when the last one is
 * answered, for `seconds`. Answers requests/s, p50/p99 of the expected answers' latencies (ms),
 * how many answers had the expected status and how many did not (other statuses, errors, timeouts).
 */
export async function load({ url, connections, seconds, method = 'GET', headers = {}, body, requests, expect = 200 }) {
  const latencies = [];
  // `requests` ([{ setupRequest }]) makes each request's body afresh (a write that must not repeat)
  const run = autocannon({ url, connections, duration: seconds, method, headers, body, requests, timeout: 10 });
  run.on('response', (_client, status, _bytes, took) => {
    if (status === expect) latencies.push(took);
  });
  const r = await run;
  const ok = r.statusCodeStats?.[String(expect)]?.count ?? 0;
  return {
    rps: r.requests.total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ok,
    bad: r.requests.total - ok + r.errors + r.timeouts,
  };
}

/** `runs` load runs; the median of each figure, and the sums of the counts. */
export async function medianLoad(opts, runs) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await load(opts));
  return summary(all);
}

export function summary(all) {
  return {
    rps: Math.round(median(all.map((r) => r.rps))),
    p50: median(all.map((r) => r.p50)),
    p99: median(all.map((r) => r.p99)),
    bad: all.reduce((n, r) => n + r.bad, 0),
    served: all.reduce((n, r) => n + r.ok, 0),
  };
}

/**
 * The product and its empty baseline in interleaved runs (A, B, A, B, …): a slow spell of this
 * shared machine hits both. Each pair gives a throughput ratio and a p99 ratio; the figures are
 * the medians of the per-pair ratios.
 */
export async function pairedLoad(productOpts, emptyOpts, pairs) {
  const all = [];
  for (let i = 0; i < pairs; i++) all.push([await load(productOpts), await load(emptyOpts)]);
  const round = (x) => Number(x.toFixed(3));
  return {
    product: summary(all.map((p) => p[0])),
    empty: summary(all.map((p) => p[1])),
    pairs: all.map(([p, e]) => ({
      productRps: Math.round(p.rps),
      emptyRps: Math.round(e.rps),
      productP99: round(p.p99),
      emptyP99: round(e.p99),
      rpsRatio: round(p.rps / e.rps),
      p99Ratio: round(p.p99 / e.p99),
    })),
    rpsRatio: median(all.map(([p, e]) => p.rps / e.rps)),
    p99Ratio: median(all.map(([p, e]) => p.p99 / e.p99)),
  };
}

/**
 * What a person's click on a short link sends, and what Cloudflare's edge adds to it (the
 * visitor's country, with IP Geolocation on): the redirect's full path for a person (browser and
 * OS named, a visitor key, the country), not the shorter one for a bot or a client without a user agent.
 */
export const PERSON_CLICK = {
  'sec-fetch-mode': 'navigate',
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'cf-ipcountry': 'US',
  'cf-connecting-ip': '203.0.113.7',
};
