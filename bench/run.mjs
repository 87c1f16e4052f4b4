// `npm run bench`: starts the product with demo data on 127.0.0.1 and measures it against an
// empty Worker started the same way in the same run. Local only; bounded in time (about 8 minutes).
// Prints the tables BENCHMARKS.md records and writes bench/results/latest.json.
//   BENCH_RUNS=3 (runs per 16-connection figure; the median is reported)  BENCH_SECONDS=4 (seconds per run)
//   BENCH_PAIRS=12 (interleaved redirect pairs)  BENCH_SERVICE_SECONDS=1.5 (one connection, per call)
//   BENCH_MIX_RATE=20 (requests/s of the mixed workload: about five busy teams of 40)  BENCH_MIX_SECONDS=20
//   BENCH_SKIP=bare,dev,redirect,service,paged,mixed,spa,lighthouse (parts to skip)  BENCH_API=name (only these calls)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callList, json, mixActions } from './calls.mjs';
import { GENERATOR, load, median, medianLoad, ms } from './load.mjs';
import { loginCpu } from './login-cpu.mjs';
import { mixedWorkload } from './mixed.mjs';
import { measureRedirect, warmUp } from './redirect.mjs';
import { print } from './report.mjs';
import { buildWeb, bundleProduct, startEmptyBare, startEmptyWranglerDev, startProductBare, startProductWranglerDev } from './runtimes.mjs';
import { BUDGET, MIX_RATE, MIX_SECONDS, PAIRS, RUNS, SECONDS, SERVICE_SECONDS, SKIP } from './settings.mjs';
import { measureSpa } from './spa.mjs';

const root = path.resolve(import.meta.dirname, '..');
const work = path.join(root, '.tmp', 'bench');
const started = Date.now();
const log = (...a) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s]`, ...a);
const DAY = 86_400_000;

async function api(url, method, p, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const send = () => fetch(`${url}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  // after a long call (the seeder) the runtime may have closed the kept-alive socket the next call
  // reuses: Node's fetch then fails with ECONNRESET, and wrangler dev's proxy answers the call 503
  // "Your worker restarted mid-request" (its own socket to workerd was closed) without running it
  let res = await send().catch((err) => (err?.cause?.code === 'ECONNRESET' ? send() : Promise.reject(err)));
  let text = await res.text();
  if (res.status === 503 && text.includes('restarted mid-request')) {
    res = await send();
    text = await res.text();
  }
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  if (!res.ok) throw new Error(`${method} ${p} -> ${res.status} ${text.slice(0, 300)}`);
  return json;
}

/** What the demo seeder is asked for: 500+ users, one team with 20,000 filters and 40,000 history rows. */
const BENCH_SEED = {
  teams: 12,
  agentsPerTeam: 40,
  filtersPerTeam: 20_000,
  filtersTeams: 1,
  historyDays: 40,
  historyRowsPerTeam: 40_000,
  historyTeams: 1,
  password: 'demo12345',
};
/** How many of the bench team's agents sign in for the mixed workload. */
const MIX_AGENTS = 16;
const results = {};
const login = (url, email, password) => api(url, 'POST', '/api/auth/login', { email, password, clientType: 0 });

/** Seeds the demo company (through the dev-only route), signs people in and prepares what the calls read. */
async function prepare(url, vars) {
  const admin = await login(url, vars.ADMIN_EMAIL, vars.ADMIN_PASSWORD);
  log('seeding the demo company (500 users, 20,000 filters, 40 days of 40,000 contacts)…');
  const seed = await api(url, 'POST', '/api/dev/seed', BENCH_SEED);
  const managerEmail = seed.benchManager;
  const domain = managerEmail.split('@')[1];
  const password = seed.password ?? BENCH_SEED.password;
  const manager = await login(url, managerEmail, password);
  const mcs = await api(url, 'GET', '/api/mcSettings', undefined, manager.accessToken);
  const link = await api(url, 'POST', '/api/link/generate', { from: 'https://example.com/a/long/path?with=query' }, manager.accessToken);
  // the bench team's agents (agent1.1@…); the last one's subscription is about to end, still active
  const agents = [];
  for (let i = 1; i <= MIX_AGENTS; i++) {
    const a = await login(url, `agent1.${i}@${domain}`, password);
    const own = await api(url, 'GET', '/api/mcSettings', undefined, a.accessToken);
    agents.push({ ...a, mcSettingId: own[0]?._id });
  }
  const now = Date.now();
  // what the screen sends with every user and MC checked: empty lists (all of them)
  const history = {
    usersList: [],
    mcList: [],
    phoneLogs: true,
    emailLogs: true,
    managerId: manager.userId,
    dateFrom: new Date(now - 39 * DAY).toISOString(),
    dateTo: new Date(now + DAY).toISOString(),
  };
  const ctx = {
    admin,
    manager,
    agents,
    code: new URL(link.to).pathname.split('/').pop(),
    linkId: link._id,
    brokerSearch: {
      name: '',
      onlyCreator: false,
      teamWithMe: true,
      teamWithoutMe: false,
      type: 'all',
      onlyContacts: false,
      creator: '',
      allMC: true,
      mcList: mcs.map((m) => m._id),
    },
    history,
  };
  // what one whole-range load carries (the spec's call), and the paged call's first answer
  const res = await fetch(`${url}/api/callHistory/getHistory`, { method: 'POST', headers: json(manager.accessToken), body: JSON.stringify(history) });
  const text = await res.text();
  results.historyLoad = { rows: JSON.parse(text).length, bytes: text.length };
  const page = await fetch(`${url}/api/callHistory/page`, {
    method: 'POST',
    headers: json(manager.accessToken),
    body: JSON.stringify({ ...history, page: 1, pageSize: 50 }),
  });
  if (page.ok) {
    const body = await page.json();
    const pageText = JSON.stringify(body);
    ctx.paged = { company: body.companies?.[Math.floor((body.companies?.length ?? 0) / 2)] ?? '', total: body.total };
    results.historyPage = { rows: body.rows?.length, total: body.total, companies: body.companies?.length, bytes: pageText.length };
  } else log(`the paged history call answered ${page.status}: not measured`);
  log('one history load:', results.historyLoad, 'one page:', results.historyPage);
  return ctx;
}

/** Waits until the Worker answers its health check quickly again (no backlog from the last run). */
async function drained(url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const t = performance.now();
    await fetch(`${url}/api/health`)
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
    if (performance.now() - t < 20) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** autocannon's options for one call; a `setup` body is made fresh for every request (a write that must not repeat). */
const cannonOpts = (url, c) => ({
  url: `${url}${c.p}`,
  method: c.method ?? 'GET',
  headers: c.headers,
  body: c.body,
  ...(c.setup ? { requests: [{ method: c.method ?? 'GET', setupRequest: (req) => ({ ...req, body: c.setup() }) }] } : {}),
});

/**
 * Each call's service time: one connection, each request sent when the last was answered, so
 * nothing queues in front of it; p50 and p99 beside the empty Worker's, measured before and after
 * the calls (the median of the two runs).
 */
async function measureService(url, vars, ctx, emptyUrl) {
  const empty = [];
  const one = (opts) => load({ ...opts, connections: 1, seconds: SERVICE_SECONDS });
  empty.push(await one({ url: `${emptyUrl}/json` }));
  const calls = {};
  for (const [name, c, judged = true] of callList(ctx, vars)) {
    // one answer first: its status and size for the table (and the reason when it is not the expected one)
    const probe = await fetch(`${url}${c.p}`, { method: c.method ?? 'GET', headers: c.headers, body: c.setup ? c.setup() : c.body });
    const text = await probe.text();
    const r = await one({ ...cannonOpts(url, c), expect: c.expect ?? 200 });
    calls[name] = { ...r, judged, bytes: text.length, status: probe.status };
    log(name, `${ms(r.p50)} / ${ms(r.p99)} ms`, `${text.length} bytes`, r.bad ? `${r.bad} bad answers; first: ${probe.status} ${text.slice(0, 160)}` : '');
    await drained(url);
  }
  empty.push(await one({ url: `${emptyUrl}/json` }));
  return { empty: { p50: median(empty.map((e) => e.p50)), p99: median(empty.map((e) => e.p99)) }, calls };
}

/**
 * 16 people on Contact History at once (the budget in BENCHMARKS.md: p99 <= 200 ms): random pages of 50 as
 * page turns (the page alone, what the screen asks after a Load), and as Loads (with the load's
 * total, Companies and days), beside the empty Worker at 16 connections.
 */
async function measurePagedAt16(url, ctx, emptyUrl) {
  const pages = Math.max(1, Math.floor((ctx.paged.total ?? 50) / 50));
  const at16 = async (summary) => {
    const body = () => JSON.stringify({ ...ctx.history, page: 1 + Math.floor(Math.random() * pages), pageSize: 50, summary });
    const opts = { url: `${url}/api/callHistory/page`, method: 'POST', headers: json(ctx.manager.accessToken), connections: 16, seconds: SECONDS };
    const r = await medianLoad({ ...opts, requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: body() }) }] }, RUNS);
    await drained(url);
    return r;
  };
  const turns = await at16(false);
  const loads = await at16(true);
  const empty = await medianLoad({ url: `${emptyUrl}/json`, connections: 16, seconds: SECONDS }, RUNS);
  return { product: turns, loads, empty };
}

/** The mixed workload on the product, then the same arrivals on the empty Worker (same paths, its small answers). */
async function measureMixed(url, ctx, emptyUrl) {
  const actions = mixActions(ctx);
  const product = await mixedWorkload({ url, actions, rate: MIX_RATE, seconds: MIX_SECONDS });
  await drained(url);
  // the empty Worker answers 302 for /s/* and a small JSON for everything else
  const emptyActions = actions.map((a) => ({ ...a, request: () => ({ ...a.request(), headers: {}, method: 'GET', body: undefined }) }));
  const empty = await mixedWorkload({ url: emptyUrl, actions: emptyActions, rate: MIX_RATE, seconds: MIX_SECONDS });
  return { product, empty };
}

/** Everything measured on one runtime (bare workerd or wrangler dev). */
async function measureRuntime(product, empty, { judged }) {
  const ctx = await prepare(product.url, product.vars);
  log('prepared');
  const out = {};
  if (!SKIP.has('redirect')) {
    log(`redirect pairs with ${GENERATOR}`);
    await warmUp(product.url, ctx.manager.accessToken, empty.url);
    out.redirect = await measureRedirect(product.url, ctx.manager.accessToken, empty.url, judged ? PAIRS : Math.ceil(PAIRS / 2));
    log('redirect', out.redirect.product.rps, 'vs', out.redirect.empty.rps, 'req/s; clicks counted', out.redirect.clicksCounted);
    await drained(product.url);
  }
  if (!SKIP.has('service')) out.service = await measureService(product.url, product.vars, ctx, empty.url);
  if (judged && ctx.paged && !SKIP.has('paged')) {
    out.pagedAt16 = await measurePagedAt16(product.url, ctx, empty.url);
    log('paged history at 16', out.pagedAt16);
  }
  if (judged && !SKIP.has('mixed')) out.mixed = await measureMixed(product.url, ctx, empty.url);
  return out;
}

async function main() {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  Object.assign(results, {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    loadAverageAtStart: os.loadavg()[0],
    runs: RUNS,
    seconds: SECONDS,
    budgets: BUDGET,
  });
  const stops = [];
  const cleanup = () => {
    for (const stop of stops.splice(0)) stop();
  };
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) {
      log('building the web app…');
      buildWeb();
    }
    // the bare runtime (Miniflare's socket, no dev proxy): what production resembles, and where the budgets are judged
    if (!SKIP.has('bare')) {
      const script = bundleProduct(path.join(work, 'bundle'));
      // Local D1 and Durable Object storage in memory: deployed, they are services on other
      // machines and their commits never block the Worker's thread; locally they run inside the
      // Worker's process, and a profile found their fsyncs on its one thread (BENCHMARKS.md)
      const memory = fs.existsSync('/dev/shm') ? path.join('/dev/shm', `freightdesk-bench-${process.pid}`) : undefined;
      stops.push(() => memory && fs.rmSync(memory, { recursive: true, force: true }));
      const bare = await startProductBare(18790, script, { DISABLE_RATE_LIMITS: 'true' }, memory ? { defaultPersistRoot: memory } : {});
      stops.push(bare.stop);
      const emptyBare = await startEmptyBare(18791);
      stops.push(emptyBare.stop);
      results.bare = await measureRuntime(bare, emptyBare, { judged: true });
      results.storage = memory ? 'in memory (/dev/shm)' : 'on disk (no /dev/shm here)';
      // the same redirect with local storage on disk, as `npm start` keeps it: for reference
      if (memory && !SKIP.has('redirect') && !SKIP.has('disk')) {
        bare.stop();
        const onDisk = await startProductBare(18793, script, { DISABLE_RATE_LIMITS: 'true' });
        stops.push(onDisk.stop);
        const admin = await login(onDisk.url, onDisk.vars.ADMIN_EMAIL, onDisk.vars.ADMIN_PASSWORD);
        await warmUp(onDisk.url, admin.accessToken, emptyBare.url);
        results.bareOnDisk = { redirect: await measureRedirect(onDisk.url, admin.accessToken, emptyBare.url, Math.ceil(PAIRS / 2)) };
      }
      cleanup();
    }
    // through wrangler dev (what `npm start` runs): the redirect and the service times, for reference
    if (!SKIP.has('dev')) {
      const product = await startProductWranglerDev(18787, path.join(work, 'state'), { DISABLE_RATE_LIMITS: 'true' });
      stops.push(product.stop);
      const empty = await startEmptyWranglerDev(18788, path.join(work, 'empty'));
      stops.push(empty.stop);
      results.wranglerDev = await measureRuntime(product, empty, { judged: false });
      cleanup();
      // workerd may still be finishing requests the load generator gave up on: let it go quiet
      await new Promise((r) => setTimeout(r, 5000));
    }
    // the SPA: bytes and Lighthouse
    if (!SKIP.has('spa')) {
      const spaServer = await startProductWranglerDev(18792, path.join(work, 'spa-state'));
      stops.push(spaServer.stop);
      const admin = await login(spaServer.url, spaServer.vars.ADMIN_EMAIL, spaServer.vars.ADMIN_PASSWORD);
      results.spa = await measureSpa(spaServer.url, admin, { lighthouse: !SKIP.has('lighthouse'), work });
      log('spa', JSON.stringify(results.spa));
      cleanup();
    }
    results.loginCpuMs = await loginCpu();
  } finally {
    cleanup();
  }
  results.totalSeconds = Math.round((Date.now() - started) / 1000);
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'latest.json'), JSON.stringify(results, null, 2));
  print(results);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
