// `npm run bench:shards` (a local run, several minutes; not a test): does the product's capacity
// grow with its shards (docs/decisions/0174-company-shards.md)? Starts `wrangler dev` on a free
// port with a fresh local state (every database migrated by scripts/db-migrate.mjs), seeds one
// demo company per shard (SHARD_1..3, placed on the emptiest), then drives the extension's
// traffic (its sync: subscription status, MC settings, minified filters, team settings and
// contacts; and its logging: a contact logged) at the same offered load per shard, first on one
// shard (the baseline), then on 2 and on 3 at once. Open loop: each shard gets RATE call cycles a
// second whatever the answers' speed, so a shard that cannot keep up shows in the p99 rather than
// in a lower offered load. Prints, per step and per call, the throughput, p50 and p99 beside the
// one-shard baseline of the same run.
//
//   BENCH_RATE=8 BENCH_SECONDS=20 node bench/shards.mjs     cycles a second per shard, seconds per step
//   BENCH_JSON=1                                             the same figures as JSON too
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiClient } from './api-client.mjs';

const root = path.resolve(import.meta.dirname, '..');
const RATE = Number(process.env.BENCH_RATE ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SHARDS = ['SHARD_1', 'SHARD_2', 'SHARD_3'];
const PASSWORD = 'bench-pass-1';
const DEADLINE_MS = 20 * 60_000;
/** The extension's calls of one cycle: its sync, then one contact logged. */
const SYNC = ['/api/subscription/status', '/api/mcSettings', '/api/broker/minified', '/api/team/settings', '/api/team/contacts'];
const LOG = '/api/callHistory/log';

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-bench-shards-'));
let server = null;
const stop = () => {
  if (server) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      server.kill('SIGTERM');
    }
  }
  fs.rmSync(state, { recursive: true, force: true });
};
const deadline = setTimeout(() => {
  console.error(`no result within ${DEADLINE_MS / 1000} s`);
  stop();
  process.exit(1);
}, DEADLINE_MS);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stop();
    process.exit(130);
  });

const log = (line) => console.error(`[bench:shards] ${line}`);
const pct = (xs, p) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

try {
  log(`migrating every local database into ${state}`);
  const migrated = spawnSync(process.execPath, ['scripts/db-migrate.mjs', '--local', '--persist-to', state], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (migrated.status !== 0) throw new Error('applying the migrations failed');
  server = spawn(
    path.join(root, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      'worker/dev/index.ts',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--persist-to',
      state,
      '--env-file',
      '.dev.vars.example',
      '--var',
      `PUBLIC_URL:${base}`,
      '--var',
      `SHARDS:${SHARDS.join(',')}`,
      '--show-interactive-dev-session=false',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'ignore'], env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' }, detached: true },
  );
  for (let up = false, until = Date.now() + 120_000; !up; ) {
    if (Date.now() > until || server.exitCode !== null) throw new Error('wrangler dev did not start');
    up = await fetch(`${base}/api/health`)
      .then((r) => r.status < 500)
      .catch(() => false);
    if (!up) await sleep(300);
  }
  const api = apiClient(base);

  // one demo company per shard: the emptiest placement shard takes each new company
  const companies = [];
  for (const [i] of SHARDS.entries()) {
    log(`seeding demo company ${i + 1} of ${SHARDS.length}`);
    const seeded = await api('POST', '/api/dev/seed', {
      teams: 2,
      agentsPerTeam: 4,
      filtersPerTeam: 200,
      historyRowsPerTeam: 2000,
      historyDays: 30,
      loadsPerAgent: 2,
      emailDomain: `shard-bench-${i + 1}.example`,
      password: PASSWORD,
    });
    const clients = [];
    for (const agent of seeded.agents) {
      const login = await api('POST', '/api/auth/login', { email: agent.email, password: PASSWORD, clientType: 1 });
      const mcs = await api('GET', '/api/mcSettings', undefined, login.accessToken);
      clients.push({ token: login.accessToken, mc: mcs[0]._id });
    }
    companies.push({ shard: seeded.shard, clients });
  }
  const placed = companies.map((c) => c.shard).sort();
  if (placed.join() !== SHARDS.join()) throw new Error(`expected one company per shard, got ${placed.join(', ')}`);
  log(`companies on ${placed.join(', ')}; ${RATE} cycles a second per shard, ${SECONDS} s a step`);

  /** One cycle of one agent: its sync at once (as the extension's alarm does), then a contact logged. */
  async function cycle(client, samples, errors, n) {
    const timed = async (name, method, urlPath, body) => {
      const t0 = performance.now();
      const res = await fetch(base + urlPath, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${client.token}` },
        body: body && JSON.stringify(body),
      }).catch((err) => ({ status: 0, err }));
      if (res.arrayBuffer) await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (res.status < 200 || res.status >= 400) errors.push(`${name} ${res.status}`);
      else {
        samples[name] ??= [];
        samples[name].push(ms);
      }
    };
    await Promise.all(SYNC.map((p) => timed(`GET ${p}`, 'GET', p)));
    const at = Date.now();
    await timed(`POST ${LOG}`, 'POST', LOG, {
      clientId: `bench-${at}-${n}-${Math.random().toString(36).slice(2, 8)}`,
      mcSettingId: client.mc,
      kind: n % 2 ? 'email' : 'call',
      contact: '+13125550142',
      brokerName: 'Coyote Logistics',
      callDate: at,
    });
  }

  /** RATE cycles a second on each of `active` companies for SECONDS (open loop), then waits for the last answers. */
  async function step(active) {
    const samples = {};
    const errors = [];
    const pending = [];
    const t0 = performance.now();
    const interval = 1000 / RATE;
    let n = 0;
    for (let tick = 0; tick < SECONDS * RATE; tick++) {
      const due = t0 + tick * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      for (const company of active) pending.push(cycle(company.clients[tick % company.clients.length], samples, errors, n++));
    }
    await Promise.all(pending);
    const seconds = (performance.now() - t0) / 1000;
    const calls = Object.values(samples).reduce((s, xs) => s + xs.length, 0);
    return { shards: active.length, seconds, calls, rps: calls / seconds, errors: errors.length, errorKinds: [...new Set(errors)].slice(0, 5), samples };
  }

  // warm-up: every company's isolate, caches and token checks once
  await Promise.all(companies.flatMap((c) => c.clients.map((cl, i) => cycle(cl, {}, [], i))));
  const steps = [];
  for (const count of [1, 2, 3]) {
    log(`step: ${count} shard(s) at once`);
    steps.push(await step(companies.slice(0, count)));
  }

  const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  const [baseline] = steps;
  const rows = [];
  console.log(`\nShards, ${RATE} extension cycles a second per shard (5 sync calls + 1 contact logged), ${SECONDS} s a step\n`);
  console.log('| shards | offered cycles/s | calls/s answered | vs 1 shard | failed |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const s of steps)
    console.log(
      `| ${s.shards} | ${RATE * s.shards} | ${fmt(s.rps)} | ${fmt(s.rps / baseline.rps, 2)}x | ${s.errors}${s.errors ? ` (${s.errorKinds.join('; ')})` : ''} |`,
    );
  console.log('\n| call | shards | p50 ms | baseline p50 (1 shard) | p99 ms | baseline p99 (1 shard) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const name of [...SYNC.map((p) => `GET ${p}`), `POST ${LOG}`])
    for (const s of steps.slice(1)) {
      const row = {
        call: name,
        shards: s.shards,
        p50: pct(s.samples[name] ?? [], 50),
        p99: pct(s.samples[name] ?? [], 99),
        baseP50: pct(baseline.samples[name] ?? [], 50),
        baseP99: pct(baseline.samples[name] ?? [], 99),
      };
      rows.push(row);
      console.log(`| ${name} | ${s.shards} | ${fmt(row.p50)} | ${fmt(row.baseP50)} | ${fmt(row.p99)} | ${fmt(row.baseP99)} |`);
    }
  if (process.env.BENCH_JSON) console.log(JSON.stringify({ rate: RATE, seconds: SECONDS, steps: steps.map(({ samples, ...s }) => s), calls: rows }, null, 2));
} catch (err) {
  console.error(err.stack ?? err.message);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
  stop();
}
