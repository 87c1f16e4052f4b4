// The two ways the benchmarks run a Worker: through `wrangler dev` (what `npm start` does, with
// its dev proxy in front of workerd) and on the bare runtime through Miniflare's own socket
// (workerd with the same bindings, closest to production). Each gets an empty baseline Worker
// started the same way, so every figure is a ratio measured in the same run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { migrateLocal } from '../scripts/migrate-local.mjs';
import { bundleWorker, devVars, startMiniflare } from '../scripts/miniflare-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');

/** The D1 bindings of wrangler.toml: the control plane `DB` and every shard (docs/decisions/0174-company-shards.md). */
export const d1Bindings = () =>
  [...fs.readFileSync(path.join(root, 'wrangler.toml'), 'utf8').matchAll(/^binding = "(DB|SHARD_[A-Z0-9_]+)"/gm)].map((m) => m[1]);

/** A loopback port free now: fixed ports collide with the other checkouts' servers on a shared machine. */
/** One API call with the JSON body and bearer token a client sends; its JSON answer, or an error naming the status. */
export async function call(url, method, p, body, token) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p} -> ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * Bounds a run: after `ms`, or on Ctrl-C, `stop` runs and the process exits, so a hung server or
 * a stuck step never outlives the bench. Answers the function that lifts the bound.
 */
export function boundRun(ms, stop, what = 'the bench') {
  const deadline = setTimeout(async () => {
    console.error(`${what}: no result within ${ms / 1000} s`);
    await stop();
    process.exit(1);
  }, ms);
  const onSignal = async () => {
    await stop();
    process.exit(130);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, onSignal);
  return () => {
    clearTimeout(deadline);
    for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, onSignal);
  };
}

/** The empty Worker: 302 for /s/*, a small JSON for anything else. */
export const EMPTY_WORKER = `export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/s/')) {
      return new Response(null, { status: 302, headers: { location: 'https://example.com/target', 'cache-control': 'private, no-store' } });
    }
    return Response.json({ ok: true });
  },
};
`;

async function waitFor(url, child, what) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    try {
      const res = await fetch(url, { redirect: 'manual' });
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} did not answer in time`);
}

function killTree(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

/** `wrangler dev` on 127.0.0.1:port with the extra `args`, run in `cwd`; resolves once `probe` answers. */
async function wranglerDev(port, args, cwd, probe, what) {
  const child = spawn(wrangler, ['dev', '--port', String(port), '--ip', '127.0.0.1', '--show-interactive-dev-session=false', ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}${probe}`, child, what);
  } catch (err) {
    killTree(child);
    throw err;
  }
  return { url, stop: () => killTree(child) };
}

/** The empty Worker through `wrangler dev`. */
export async function startEmptyWranglerDev(port, dir) {
  port ||= await freePort();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'empty.js'), EMPTY_WORKER);
  fs.writeFileSync(path.join(dir, 'wrangler.toml'), `name = "empty"\nmain = "empty.js"\ncompatibility_date = "2026-04-01"\n`);
  const args = ['--config', path.join(dir, 'wrangler.toml'), '--persist-to', path.join(dir, 'state')];
  return wranglerDev(port, args, dir, '/health', 'empty worker (wrangler dev)');
}

/** The start step `npm start` runs once the server answers: the first admin from ADMIN_EMAIL / ADMIN_PASSWORD. */
async function firstAdmin(url) {
  const res = await fetch(`${url}/api/dev/admin`, { method: 'POST' });
  if (!res.ok) throw new Error(`creating the first admin failed: ${res.status} ${await res.text()}`);
}

/**
 * The product through `wrangler dev` (what `npm start` runs): the development entry on `port` (a
 * free one when left out), every database of wrangler.toml migrated in `persistTo` (a fresh temp
 * folder when left out, removed by `stop`), the first admin made. Answers `{ url, port, vars, stop }`.
 */
export async function startProductWranglerDev(port, persistTo, overrides = {}) {
  port ||= await freePort();
  const state = persistTo ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fd-bench-'));
  const removeState = () => {
    if (!persistTo) fs.rmSync(state, { recursive: true, force: true });
  };
  try {
    await migrateLocal(state);
    const vars = devVars(port, overrides);
    const cliVars = Object.entries({ PUBLIC_URL: vars.PUBLIC_URL, ...overrides }).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
    const args = ['worker/dev/index.ts', '--persist-to', state, '--env-file', '.dev.vars.example', ...cliVars];
    const server = await wranglerDev(port, args, root, '/api/health', 'product (wrangler dev)');
    const stop = () => {
      server.stop();
      removeState();
    };
    try {
      await firstAdmin(server.url);
    } catch (err) {
      stop();
      throw err;
    }
    return { url: server.url, port, vars, stop };
  } catch (err) {
    removeState();
    throw err;
  }
}

/** Builds the SPA into web/dist, as `npm run build` does. */
export function buildWeb() {
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('web build failed');
}

/**
 * The product's Worker bundled as `wrangler deploy` would, for the bare runtime, from the
 * development entry (worker/dev/index.ts): the benchmarks seed their data through /api/dev.
 */
export const bundleProduct = (outDir) => bundleWorker(outDir);

/** Runs every D1 migration on each of a Miniflare's databases (the control plane and every shard). */
async function migrate(mf, bindings = ['DB']) {
  const dir = path.join(root, 'migrations');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const statements = files.flatMap((file) =>
    fs
      .readFileSync(path.join(dir, file), 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => statement.trim()),
  );
  // four databases at a time: 30 shards one after another take minutes, and all 31 at once lost
  // Miniflare's proxy socket on a loaded machine ("other side closed")
  const queue = [...bindings];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let binding = queue.shift(); binding; binding = queue.shift()) {
        const db = await mf.getD1Database(binding);
        for (const statement of statements) await db.prepare(statement).run();
      }
    }),
  );
}

/**
 * The product on the bare runtime (Miniflare's own socket, no dev proxy), fresh storage, with
 * wrangler.toml's databases (`DB` and the shards, new companies placed on the shards) unless
 * `miniflareOptions.d1Databases` names others. Every database takes the migrations.
 * `miniflareOptions` adds to Miniflare's (e.g. `inspectorPort` for a CPU profile).
 */
export async function startProductBare(port, scriptPath, overrides = {}, miniflareOptions = {}) {
  port ||= await freePort();
  const d1Databases = miniflareOptions.d1Databases ?? Object.fromEntries(d1Bindings().map((b) => [b, `bench-${b.toLowerCase()}`]));
  const shards = Object.keys(d1Databases).filter((b) => b !== 'DB');
  const vars = devVars(port, { SHARDS: shards.join(','), ...overrides });
  // the browser tests' server (scripts/miniflare-server.mjs), in memory, without the SPA
  const mf = await startMiniflare({ port, scriptPath, vars, options: { ...miniflareOptions, d1Databases } });
  await migrate(mf, Object.keys(d1Databases));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, null, 'product (bare runtime)');
  await firstAdmin(url);
  let stopped;
  return { url, vars, stop: () => (stopped ??= mf.dispose()) };
}

/** The empty Worker on the bare runtime. */
export async function startEmptyBare(port) {
  port ||= await freePort();
  const mf = new Miniflare({ host: '127.0.0.1', port, modules: true, script: EMPTY_WORKER, compatibilityDate: '2026-04-01' });
  await mf.ready;
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`, null, 'empty worker (bare runtime)');
  let stopped;
  return { url, stop: () => (stopped ??= mf.dispose()) };
}

/**
 * A manager of a company of its own, signed in, on a fresh product started by `startProductBare`:
 * its company is placed on a shard, so its links and their clicks live there, not in `DB`
 * (docs/decisions/0180-links-on-shards.md). Answers `{ accessToken, shard }`.
 */
export async function shardManager(product) {
  const post = async (p, body) => {
    const res = await fetch(`${product.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${p} -> ${res.status} ${await res.text()}`);
    return res.json();
  };
  const email = `bench-manager-${Date.now()}@bench.example`;
  const made = await post('/api/dev/users', { userType: 'manager', email, password: 'bench-password', name: 'Bench manager' });
  const login = await post('/api/auth/login', { email, password: 'bench-password', clientType: 0 });
  return { accessToken: login.accessToken, shard: made.shard };
}

/**
 * A short link to load: a manager on a shard of a fresh product started by `startProductBare`
 * makes a link to `target`. Answers the link's `/s/{code}` URL.
 */
export async function linkToLoad(product, target) {
  const manager = await shardManager(product);
  const res = await fetch(`${product.url}/api/link/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${manager.accessToken}` },
    body: JSON.stringify({ from: target }),
  });
  if (!res.ok) throw new Error(`/api/link/generate -> ${res.status} ${await res.text()}`);
  const link = await res.json();
  return `${product.url}/s/${new URL(link.to).pathname.split('/').pop()}`;
}
