// The redirect against the empty Worker in interleaved pairs, on the bare runtime, and whether
// every 302 was counted once. `npm run bench` runs it among everything else; `npm run bench:redirect`
// runs only this (about PAIRS × 2 × SECONDS plus a minute). Local only.
//   BENCH_PAIRS=12  BENCH_REDIRECT_SECONDS=8  BENCH_CONNECTIONS=64  BENCH_GENERATOR=autocannon (default: wrk when installed)
//   BENCH_PIN=1 (workerd on CPU 0, wrk on CPU 1: a core each)

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR, load, ms, PERSON_CLICK, PINNED, pairedLoad, ratio, wrkLoad } from './load.mjs';
import { buildWeb, bundleProduct, call, shardManager, startEmptyBare, startProductBare } from './runtimes.mjs';

export const REDIRECT_SECONDS = Number(process.env.BENCH_REDIRECT_SECONDS ?? process.env.BENCH_SECONDS ?? 8);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** The redirect's targets (BENCHMARKS.md, Budgets), judged on the bare runtime with wrk. */
export const REDIRECT_BUDGET = { rps: 0.95, p99: 1.25, maxMs: 500 };
const log = (...a) => console.log(`[redirect ${new Date().toISOString().slice(11, 19)}]`, ...a);

/** Runs the pairs on a fresh link of `url` (signed in with `token`), then compares the link's clicks with the 302s seen. */
export async function measureRedirect(url, token, emptyUrl, pairs) {
  const link = await call(url, 'POST', '/api/link/generate', { from: 'https://example.com/bench-redirect' }, token);
  const code = new URL(link.to).pathname.split('/').pop();
  const before = (await call(url, 'GET', `/api/link/${link._id}`, undefined, token)).clicks;
  const loadBefore = os.loadavg();
  const opts = (u) => ({ url: u, connections: CONNECTIONS, seconds: REDIRECT_SECONDS, headers: PERSON_CLICK, expect: 302 });
  const out = await pairedLoad(opts(`${url}/s/${code}`), opts(`${emptyUrl}/s/x`), pairs, {
    generator: GENERATOR,
    onPair: (i, p, e) =>
      log(
        `pair ${i}: ${Math.round(p.rps)} vs ${Math.round(e.rps)} req/s (${ratio(p.rps / e.rps)}); p99 ${ms(p.p99)} vs ${ms(e.p99)} ms; max ${ms(p.max)} vs ${ms(e.max)} ms; socket errors ${p.bad} vs ${e.bad}`,
      ),
  });
  out.loadAverage = { before: loadBefore, after: os.loadavg() };
  out.seconds = REDIRECT_SECONDS;
  out.connections = CONNECTIONS;
  // exact counting under this load: wait for the sends and the object's D1 writes, then compare
  let clicks = before;
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 250));
    clicks = (await call(url, 'GET', `/api/link/${link._id}`, undefined, token)).clicks;
  }
  out.clicksCounted = clicks - before;
  return out;
}

/** A short run on each (the isolates' caches and JIT) before the measured pairs. */
export async function warmUp(url, token, emptyUrl) {
  const link = await call(url, 'POST', '/api/link/generate', { from: 'https://example.com/warm-up' }, token);
  const run = GENERATOR === 'wrk' ? wrkLoad : load;
  for (const u of [link.to.replace(/^https?:\/\/[^/]+/, url), `${emptyUrl}/s/x`])
    await run({ url: u, connections: CONNECTIONS, seconds: 2, headers: PERSON_CLICK, expect: 302 });
}

const verdict = (ok) => (ok ? 'met' : 'MISSED');

/** The per-pair table and the medians, as BENCHMARKS.md records them. */
export function printRedirect(red, title, judged) {
  const b = REDIRECT_BUDGET;
  console.log(
    `\nRedirect /s/{code}, ${red.connections} connections, ${title}: ${red.generator}${red.generator === 'wrk' ? ' 4.1 (latencies as recorded, its coordinated-omission samples taken out)' : ''}, product and empty Worker in ${red.pairs.length} interleaved pairs of ${red.seconds} s\n`,
  );
  const rows = red.pairs.map((p, i) => [
    i + 1,
    p.productRps,
    p.emptyRps,
    ratio(p.rpsRatio),
    `${ms(p.productP50)} / ${ms(p.emptyP50)}`,
    `${ms(p.productP99)} / ${ms(p.emptyP99)}`,
    ratio(p.p99Ratio),
    `${ms(p.productMax)} / ${ms(p.emptyMax)}`,
    `${p.productSocketErrors}${p.productSocketErrorKinds ? ` (${p.productSocketErrorKinds})` : ''} / ${p.emptySocketErrors}${p.emptySocketErrorKinds ? ` (${p.emptySocketErrorKinds})` : ''}`,
    `${p.productNonExpected} / ${p.emptyNonExpected}`,
  ]);
  const [lo, hi] = red.rpsRatioSpread;
  const [plo, phi] = red.p99RatioSpread;
  rows.push([
    '**median**',
    red.product.rps,
    red.empty.rps,
    `**${ratio(red.rpsRatio)}** (${ratio(lo)}-${ratio(hi)})${judged ? ` >= ${b.rps}: ${verdict(red.rpsRatio >= b.rps)}` : ''}`,
    `${ms(red.product.p50)} / ${ms(red.empty.p50)}`,
    `${ms(red.product.p99)} / ${ms(red.empty.p99)}`,
    `**${ratio(red.p99Ratio)}** (${ratio(plo)}-${ratio(phi)})${judged ? ` <= ${b.p99}: ${verdict(red.p99Ratio <= b.p99)}` : ''}`,
    `${ms(red.product.max)} / ${ms(red.empty.max)} (slowest)${judged ? ` <= ${b.maxMs}: ${verdict(red.product.max <= b.maxMs)}` : ''}`,
    `${red.product.socketErrors} / ${red.empty.socketErrors}${judged ? `: ${verdict(red.product.socketErrors === 0)}` : ''}`,
    `${red.product.nonExpected} / ${red.empty.nonExpected}`,
  ]);
  console.log(
    table(rows, [
      'pair',
      'product req/s',
      'empty req/s',
      'req/s ratio',
      'p50 ms product / empty',
      'p99 ms product / empty',
      'p99 ratio',
      'max ms product / empty',
      'socket errors',
      'non-302',
    ]),
  );
  // the generator stops with requests still in flight (at most one per connection per run); the
  // Worker answers and counts them, so the count may exceed the 302s seen by that much
  const extra = red.clicksCounted - red.product.served;
  const inFlight = red.connections * red.pairs.length;
  console.log(
    `\nexact counting: ${red.clicksCounted} clicks counted for ${red.product.served} 302s seen + up to ${inFlight} in flight when the runs stopped (${extra >= 0 && extra <= inFlight ? 'exact' : 'MISMATCH'})`,
  );
  const la = (x) => x.map((v) => v.toFixed(2)).join(', ');
  console.log(`load average (1, 5, 15 min) before: ${la(red.loadAverage.before)}; after: ${la(red.loadAverage.after)}`);
  const cores = os.cpus().length;
  if (Math.max(red.loadAverage.before[0], red.loadAverage.after[0]) > cores)
    console.log(`NOTE: a load average above the ${cores} cores: other work shared the machine, so "met" and "MISSED" above are not a verdict`);
}

export function table(rows, headers) {
  const lines = [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

/**
 * BENCH_PIN=1: every thread of this run's workerd processes on the first CPU (wrk runs on the
 * second), so the generator and the runtime each have a core of their own on a 2-core machine.
 */
function pinWorkerd() {
  const pids = execFileSync('pgrep', ['-f', 'workerd'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', '0', pid], { stdio: 'ignore' });
  log(`pinned: workerd (${pids.length} processes) on CPU 0, wrk on CPU 1`);
}

/** `npm run bench:redirect`: only the redirect pairs, on the bare runtime with local storage in memory. */
async function main() {
  const root = path.resolve(import.meta.dirname, '..');
  const work = path.join(root, '.tmp', 'bench-redirect');
  fs.rmSync(work, { recursive: true, force: true });
  const pairs = Number(process.env.BENCH_PAIRS ?? 12);
  // the bundle carries the SPA's assets, as `wrangler deploy` would
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) buildWeb();
  const script = bundleProduct(path.join(work, 'bundle'));
  // as `npm run bench`: local D1 and Durable Object storage in memory (docs/decisions/0047-redirect-benchmark-method.md)
  const memory = fs.existsSync('/dev/shm') ? path.join('/dev/shm', `freightdesk-redirect-${process.pid}`) : undefined;
  const stops = [() => memory && fs.rmSync(memory, { recursive: true, force: true })];
  try {
    const product = await startProductBare(undefined, script, { DISABLE_RATE_LIMITS: 'true' }, memory ? { defaultPersistRoot: memory } : {});
    stops.unshift(product.stop);
    const empty = await startEmptyBare();
    stops.unshift(empty.stop);
    if (PINNED) pinWorkerd();
    // the link's owner is a manager whose company is on a shard: its clicks are flushed there
    const manager = await shardManager(product);
    await warmUp(product.url, manager.accessToken, empty.url);
    log(`generator: ${GENERATOR}; ${pairs} pairs of ${REDIRECT_SECONDS} s at ${CONNECTIONS} connections; the link on ${manager.shard}`);
    const red = await measureRedirect(product.url, manager.accessToken, empty.url, pairs);
    fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(root, 'bench', 'results', 'redirect-latest.json'), JSON.stringify({ date: new Date().toISOString(), ...red }, null, 2));
    printRedirect(red, `bare workerd, local storage ${memory ? 'in memory (/dev/shm)' : 'on disk'}`, true);
  } finally {
    for (const stop of stops) await stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
