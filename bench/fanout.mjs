// The admin's views that read every shard (docs/decisions/0180-links-on-shards.md): the links list
// (GET /api/link?all=1), the users list (GET /api/user), Login History with its chart (POST
// /api/analytics/loginHistory, the last 30 days) and failed mails (GET /api/mail/failed), whole and
// a page at a time (their /page calls, docs/decisions/0187-paged-fan-out.md), with the same companies on one
// database (the baseline: the layout before shards), on 3 shards and on 30, all three started
// in this run and measured in turn, round by round, so the machine's slow spells hit them alike.
// One connection, each request sent when the last was answered. Local only; simulated shards:
// every D1 database is a local SQLite file in the one workerd process.
//   node bench/fanout.mjs
//   FANOUT_COMPANIES=30  FANOUT_LINKS=100 (per company)  FANOUT_AGENTS=8 (per team, 2 teams a company)
//   FANOUT_ROUNDS=10  FANOUT_REQUESTS=20 (per round, layout and call)  FANOUT_SHARDS=3,30
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, ms, percentile, ratio } from './load.mjs';
import { buildWeb, bundleProduct, call, startProductBare } from './runtimes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const COMPANIES = Number(process.env.FANOUT_COMPANIES ?? 30);
const LINKS = Number(process.env.FANOUT_LINKS ?? 100);
const AGENTS = Number(process.env.FANOUT_AGENTS ?? 8);
const ROUNDS = Number(process.env.FANOUT_ROUNDS ?? 10);
const REQUESTS = Number(process.env.FANOUT_REQUESTS ?? 20);
const SHARD_COUNTS = (process.env.FANOUT_SHARDS ?? '3,30').split(',').map(Number);
const log = (...a) => console.log(`[fanout ${new Date().toISOString().slice(11, 19)}]`, ...a);

/** A product with `shards` SHARD_* databases beside DB (0: DB alone, as before shards), its companies seeded. */
async function start(script, shards, memory) {
  const names = Array.from({ length: shards }, (_, i) => `SHARD_${i + 1}`);
  const d1Databases = Object.fromEntries([['DB', `fan-${shards}-db`], ...names.map((n) => [n, `fan-${shards}-${n.toLowerCase()}`])]);
  const product = await startProductBare(
    undefined,
    script,
    { DISABLE_RATE_LIMITS: 'true', ...(shards ? { SHARDS: names.join(',') } : {}) },
    {
      d1Databases,
      defaultPersistRoot: path.join(memory, String(shards)),
    },
  );
  const admin = await call(product.url, 'POST', '/api/auth/login', { email: product.vars.ADMIN_EMAIL, password: product.vars.ADMIN_PASSWORD, clientType: 0 });
  const placed = new Map();
  for (let i = 0; i < COMPANIES; i++) {
    const seeded = await call(product.url, 'POST', '/api/dev/seed', {
      teams: 2,
      agentsPerTeam: AGENTS,
      mcsPerTeam: 1,
      filtersPerTeam: 0,
      historyRowsPerTeam: 0,
      loadsPerAgent: 0,
      payments: 0,
      linksPerManager: LINKS / 2,
      emailDomain: `company${i}.example`,
      seed: i + 1,
    });
    placed.set(seeded.shard, (placed.get(seeded.shard) ?? 0) + 1);
  }
  const name = shards ? `${shards} shards` : 'one database (baseline)';
  log(`${name}: ${COMPANIES} companies placed ${[...placed].map(([s, n]) => `${s} ${n}`).join(', ')}`);
  return { ...product, name, token: admin.accessToken };
}

/** One request's time to its last byte, the answer's size and its rows. */
async function timed(url, [, p, body], token) {
  if (typeof p !== 'string') throw new Error('resolve the path first');
  const t0 = performance.now();
  const res = await fetch(`${url}${p}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body()) : undefined,
  });
  const text = await res.text();
  const took = performance.now() - t0;
  if (!res.ok) throw new Error(`${p} -> ${res.status} ${text.slice(0, 200)}`);
  const json = JSON.parse(text);
  const rows = Array.isArray(json) ? json : (json.items ?? Object.values(json).find(Array.isArray) ?? []);
  return { took, bytes: text.length, items: rows.length };
}

const CALLS = [
  ['links, every company', '/api/link?all=1'],
  ['users, every company', '/api/user'],
  ['Login History, 30 days', '/api/analytics/loginHistory', () => ({ dateFrom: Date.now() - 30 * 86_400_000 })],
  ['failed mails', '/api/mail/failed'],
  // a page of each (docs/decisions/0187-paged-fan-out.md): the first, and for users a later one (its cursor from the run's own first pages)
  ['links, a page of 20', '/api/link/page?all=1&limit=20'],
  ['users, a page of 20', '/api/user/page?limit=20'],
  [
    'users, 6th page of 20',
    async (url, token) => `/api/user/page?limit=20&cursor=${encodeURIComponent(await cursorOf(url, token, '/api/user/page?limit=20', 5))}`,
  ],
  ['Login History, a page of 20', '/api/analytics/loginHistory/page', () => ({ dateFrom: Date.now() - 30 * 86_400_000, limit: 20 })],
  ['failed mails, a page of 20', '/api/mail/failed/page?limit=20'],
];

/** The cursor of page `pages + 1` of a paged GET view, following `next`. */
async function cursorOf(url, token, p, pages) {
  let cursor = null;
  for (let i = 0; i < pages; i++) {
    const res = await fetch(`${url}${p}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    cursor = (await res.json()).next;
    if (!cursor) throw new Error(`${p}: fewer than ${pages + 1} pages`);
  }
  return cursor;
}

async function main() {
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) buildWeb();
  const work = path.join(root, '.tmp', 'bench-fanout');
  fs.rmSync(work, { recursive: true, force: true });
  const script = bundleProduct(path.join(work, 'bundle'));
  const memory = fs.existsSync('/dev/shm') ? path.join('/dev/shm', `freightdesk-fanout-${process.pid}`) : path.join(work, 'state');
  const layouts = [];
  try {
    for (const shards of [0, ...SHARD_COUNTS]) layouts.push(await start(script, shards, memory));
    // a path found per layout (a later page's cursor) is found once, before the measured rounds
    const calls = await Promise.all(
      layouts.map(async (l) => Promise.all(CALLS.map(async ([n, p, b]) => [n, typeof p === 'string' ? p : await p(l.url, l.token), b]))),
    );
    const samples = layouts.map(() => CALLS.map(() => []));
    const sizes = layouts.map(() => CALLS.map(() => null));
    const loadBefore = os.loadavg();
    // a few requests each before the measured rounds (isolates, JIT, SQLite page caches)
    for (const [li, l] of layouts.entries()) for (const c of calls[li]) for (let i = 0; i < 3; i++) await timed(l.url, c, l.token);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [li, l] of layouts.entries()) {
        for (const [ci, c] of calls[li].entries()) {
          for (let i = 0; i < REQUESTS; i++) {
            const r = await timed(l.url, c, l.token);
            samples[li][ci].push(r.took);
            sizes[li][ci] = r;
          }
        }
      }
      log(
        `round ${round + 1}: ${layouts.map((l, li) => `${l.name}: ${CALLS.map((_, ci) => ms(median(samples[li][ci].slice(-REQUESTS)))).join(' / ')} ms`).join(' | ')}`,
      );
    }
    const loadAfter = os.loadavg();
    console.log(
      `\nFan-out of the admin's views, ${COMPANIES} companies (${COMPANIES * LINKS} links, ${COMPANIES * (4 + 2 * AGENTS)} users), one connection, ${ROUNDS} rounds of ${REQUESTS} requests per layout and call, in turn\n`,
    );
    console.log('| call | layout | items | answer KB | p50 ms | p99 ms | p50 / baseline | p99 / baseline | p50 by round (min-max) |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const [ci, [callName]] of CALLS.entries()) {
      const base = samples[0][ci];
      for (const [li, l] of layouts.entries()) {
        const xs = samples[li][ci];
        const perRound = Array.from({ length: ROUNDS }, (_, r) => median(xs.slice(r * REQUESTS, (r + 1) * REQUESTS)));
        console.log(
          `| ${callName} | ${l.name} | ${sizes[li][ci].items} | ${Math.round(sizes[li][ci].bytes / 1024)} | ${ms(percentile(xs, 50))} | ${ms(percentile(xs, 99))} | ${ratio(percentile(xs, 50) / percentile(base, 50))} | ${ratio(percentile(xs, 99) / percentile(base, 99))} | ${ms(Math.min(...perRound))}-${ms(Math.max(...perRound))} |`,
        );
      }
    }
    const la = (x) => x.map((v) => v.toFixed(2)).join(', ');
    console.log(`\nload average (1, 5, 15 min) before: ${la(loadBefore)}; after: ${la(loadAfter)}; ${os.cpus().length} cores`);
  } finally {
    for (const l of layouts) await l.stop();
    fs.rmSync(memory, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
