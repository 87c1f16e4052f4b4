// Load generation and the statistics every benchmark reports. Latencies are recorded from each
// response as measured (autocannon's `response` event, in fractional milliseconds): autocannon's
// own histogram keeps whole milliseconds, leaves out every non-2xx answer (so a redirect's 302s
// had no latency at all), and nothing here adds corrected samples for coordinated omission.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

/** wrk (Debian's 4.1) when installed: a native generator that can offer more load than Node on these cores. */
const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((f) => fs.existsSync(f)) ?? null;
const WRK_SCRIPT = path.join(import.meta.dirname, 'wrk-recorded.lua');
/** The generator the redirect pairs use: `wrk` when installed (BENCH_GENERATOR=autocannon forces the other). */
export const GENERATOR = process.env.BENCH_GENERATOR === 'autocannon' || !WRK ? 'autocannon' : 'wrk';
/** BENCH_PIN=1: wrk on the second CPU only (bench/redirect.mjs puts workerd on the first), so neither takes the other's core. */
export const PINNED = process.env.BENCH_PIN === '1';

/**
 * One bounded run of wrk (2 threads, one request at a time per connection, 10 s socket timeout so
 * a stall of seconds is recorded rather than dropped). Latencies as recorded: bench/wrk-recorded.lua
 * undoes wrk's coordinated-omission correction. Same answer shape as `load`, plus the maximum and
 * wrk's socket errors.
 */
export function wrkLoad({ url, connections, seconds, headers = {}, expect = 200 }) {
  const args = ['-t', '2', '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', WRK_SCRIPT];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url, '--', String(connections), String(expect));
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = PINNED ? ['taskset', ['-c', '1', WRK, ...args]] : [WRK, args];
    execFile(command, commandArgs, { maxBuffer: 1 << 20 }, (err, stdout) => {
      const line = stdout?.split('\n').find((l) => l.startsWith('WRK_RESULT '));
      if (err || !line) return reject(err ?? new Error(`wrk printed no result: ${stdout}`));
      const r = JSON.parse(line.slice('WRK_RESULT '.length));
      const socketErrors = r.connect + r.read + r.write + r.timeout;
      resolve({
        rps: r.requests / (r.durationUs / 1e6),
        p50: r.p50Us / 1000,
        p99: r.p99Us / 1000,
        max: r.maxUs / 1000,
        ok: r.ok,
        bad: r.other + socketErrors,
        nonExpected: r.other,
        socketErrors: { connect: r.connect, read: r.read, write: r.write, timeout: r.timeout },
        recorded: r.recorded,
        correctedP99: r.correctedP99Us / 1000,
      });
    });
  });
}

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
    max: latencies.length ? Math.max(...latencies) : Number.NaN,
    ok,
    bad: r.requests.total - ok + r.errors + r.timeouts,
    nonExpected: r.requests.total - ok,
    socketErrors: { connect: 0, read: r.errors, write: 0, timeout: r.timeouts },
  };
}

/** `runs` load runs; the median of each figure, and the sums of the counts. */
export async function medianLoad(opts, runs) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await load(opts));
  return summary(all);
}

const sockets = (r) => (r.socketErrors ? r.socketErrors.connect + r.socketErrors.read + r.socketErrors.write + r.socketErrors.timeout : 0);

/** Which socket errors, e.g. "read 64" ('' for none). */
const socketKinds = (r) =>
  Object.entries(r.socketErrors ?? {})
    .filter(([, n]) => n)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

export function summary(all) {
  return {
    rps: Math.round(median(all.map((r) => r.rps))),
    p50: median(all.map((r) => r.p50)),
    p99: median(all.map((r) => r.p99)),
    max: Math.max(...all.map((r) => r.max ?? Number.NaN)),
    bad: all.reduce((n, r) => n + r.bad, 0),
    nonExpected: all.reduce((n, r) => n + (r.nonExpected ?? 0), 0),
    socketErrors: all.reduce((n, r) => n + sockets(r), 0),
    served: all.reduce((n, r) => n + r.ok, 0),
  };
}

/** The lowest and highest of `xs`. */
export const spread = (xs) => [Math.min(...xs), Math.max(...xs)];

/**
 * The product and its empty baseline in interleaved runs (A, B, A, B, …): a slow spell of this
 * shared machine hits both. Each pair gives a throughput ratio and a p99 ratio; the figures are
 * the medians of the per-pair ratios.
 */
export async function pairedLoad(productOpts, emptyOpts, pairs, { generator = 'autocannon', onPair } = {}) {
  const run = generator === 'wrk' ? wrkLoad : load;
  const all = [];
  for (let i = 0; i < pairs; i++) {
    all.push([await run(productOpts), await run(emptyOpts)]);
    onPair?.(i + 1, ...all.at(-1));
  }
  const round = (x) => Number(x.toFixed(3));
  const rpsRatios = all.map(([p, e]) => p.rps / e.rps);
  const p99Ratios = all.map(([p, e]) => p.p99 / e.p99);
  return {
    generator,
    product: summary(all.map((p) => p[0])),
    empty: summary(all.map((p) => p[1])),
    pairs: all.map(([p, e]) => ({
      productRps: Math.round(p.rps),
      emptyRps: Math.round(e.rps),
      productP50: round(p.p50),
      emptyP50: round(e.p50),
      productP99: round(p.p99),
      emptyP99: round(e.p99),
      productMax: round(p.max),
      emptyMax: round(e.max),
      productSocketErrors: sockets(p),
      emptySocketErrors: sockets(e),
      productSocketErrorKinds: socketKinds(p),
      emptySocketErrorKinds: socketKinds(e),
      productNonExpected: p.nonExpected ?? 0,
      emptyNonExpected: e.nonExpected ?? 0,
      rpsRatio: round(p.rps / e.rps),
      p99Ratio: round(p.p99 / e.p99),
    })),
    rpsRatio: median(rpsRatios),
    rpsRatioSpread: spread(rpsRatios),
    p99Ratio: median(p99Ratios),
    p99RatioSpread: spread(p99Ratios),
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
