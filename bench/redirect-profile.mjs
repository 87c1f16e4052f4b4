// A CPU profile of the short-link redirect under load on the bare runtime: where the Worker's one
// thread spends its time while 64 connections follow one link (`node bench/redirect-profile.mjs`).
// Prints the functions with the most self time, grouped by file, and the share of garbage
// collection and idle time; writes the whole profile to .tmp/bench/redirect.cpuprofile (open it in
// Chrome DevTools' Performance panel). Local only; about 30 seconds.
//   PROFILE_SECONDS=8  PROFILE_CONNECTIONS=64
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { GENERATOR, load, PERSON_CLICK, wrkLoad } from './load.mjs';
import { bundleProduct, linkToLoad, startProductBare } from './runtimes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const work = path.join(root, '.tmp', 'bench');
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 64);
const INSPECTOR = 18799;
/** PROFILE_NO_COUNTRY=1: a click without Cloudflare's CF-IPCountry header (IP Geolocation off): the Worker reads request.cf. */
const withoutCountry = () => {
  const { 'cf-ipcountry': _, ...rest } = PERSON_CLICK;
  return process.env.PROFILE_NO_COUNTRY ? rest : PERSON_CLICK;
};

/** A DevTools protocol session on the Worker's inspector. */
async function inspect() {
  const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR}/json/list`)).json();
  const target = targets.find((t) => !/ClickCounter|PaymentOrder|RateLimiter/.test(t.title ?? '')) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const waiting = new Map();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data));
    if (msg.id && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  return { send, close: () => ws.close(), targets: targets.map((t) => t.title) };
}

/** Self time per function and per file, from a V8 CPU profile. */
function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const dt = deltas[i] ?? 0;
    total += dt;
    const f = node.callFrame;
    const file = f.url ? f.url.split('/').slice(-2).join('/') : '';
    const key = `${f.functionName || '(anonymous)'} ${file}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  return { total, rows: [...self.entries()].sort((a, b) => b[1] - a[1]) };
}

/**
 * The share of the isolate's busy time (not idle) spent in each part of the click's journey: a
 * sample counts for a part when any frame of its stack lies in that part's source in the bundle
 * (async code resumed after an await has no caller on its stack, so source ranges, not callers).
 */
function parts(profile, bundleText) {
  const lines = bundleText.split('\n');
  const section = (marker) => {
    const start = lines.indexOf(`// ${marker}`);
    if (start < 0) return null;
    let end = lines.findIndex((l, i) => i > start && /^\/\/ [\w./-]+\.ts$/.test(l));
    if (end < 0) end = lines.length;
    return [start + 1, end];
  };
  const clicks = section('worker/links/clicks.ts');
  const sendsFrom = clicks && lines.findIndex((l, i) => i > clicks[0] && l.startsWith('function forgetIdleLinks'));
  const ranges = {
    'click sends, the isolate side (pacing, hashing, the object call)': clicks && [sendsFrom + 1, clicks[1]],
    'ClickCounter, the object (its storage, its alarm and D1 write; locally in the same isolate)': section('worker/links/click-counter.ts'),
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inRange = (node, [a, b]) => node.callFrame.url && node.callFrame.lineNumber + 1 >= a && node.callFrame.lineNumber + 1 <= b;
  const totals = Object.fromEntries(Object.keys(ranges).map((k) => [k, 0]));
  let busy = 0;
  let gc = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(profile.samples[i]);
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy += dt;
    if (leaf.callFrame.functionName === '(garbage collector)') gc += dt;
    for (const [name, range] of Object.entries(ranges)) {
      if (!range) continue;
      for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
        if (inRange(byId.get(id), range)) {
          totals[name] += dt;
          break;
        }
      }
    }
  }
  return { busy, gc, totals };
}

const script = bundleProduct(path.join(work, 'profile-bundle'));
// local storage in memory, as `npm run bench` keeps it (PROFILE_DISK=1: on disk, as `npm start`)
const SHM = '/dev/shm/freightdesk-profile';
fs.rmSync(SHM, { recursive: true, force: true });
const storage = process.env.PROFILE_DISK || !fs.existsSync('/dev/shm') ? {} : { defaultPersistRoot: SHM };
const product = await startProductBare(18798, script, { DISABLE_RATE_LIMITS: 'true' }, { inspectorPort: INSPECTOR, ...storage });
try {
  const url = await linkToLoad(product, 'https://example.com/profiled');
  const opts = { url, connections: CONNECTIONS, seconds: 3, headers: withoutCountry(), expect: 302 };
  const run = GENERATOR === 'wrk' ? wrkLoad : load;
  await run(opts); // warm-up: the isolate's caches, JIT
  const inspector = await inspect();
  console.log('inspector targets:', inspector.targets.join(', '));
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 100 });
  await inspector.send('Profiler.start');
  const r = await run({ ...opts, seconds: SECONDS });
  const { result } = await inspector.send('Profiler.stop');
  inspector.close();
  fs.mkdirSync(work, { recursive: true });
  fs.writeFileSync(path.join(work, 'redirect.cpuprofile'), JSON.stringify(result.profile));
  const { total, rows } = summarise(result.profile);
  console.log(
    `\n${GENERATOR}: ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(0)} ms while profiling; ${(total / 1000).toFixed(0)} ms sampled\n`,
  );
  console.log('| self time | share | function |\n| --- | --- | --- |');
  for (const [name, t] of rows.slice(0, 30)) console.log(`| ${(t / 1000).toFixed(1)} ms | ${((100 * t) / total).toFixed(1)} % | ${name} |`);
  const { busy, gc, totals } = parts(result.profile, fs.readFileSync(script, 'utf8'));
  console.log(
    `\nbusy (not idle): ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms; garbage collection ${((100 * gc) / busy).toFixed(1)} % of it`,
  );
  for (const [name, t] of Object.entries(totals)) console.log(`${name}: ${((100 * t) / busy).toFixed(1)} % of the busy time`);
} finally {
  await product.stop();
  fs.rmSync(SHM, { recursive: true, force: true });
}
