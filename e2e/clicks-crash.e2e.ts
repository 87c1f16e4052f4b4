import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migratedDatabase } from './extension-harness';
import { expect, test } from './fixtures';

/**
 * The product killed after a burst of clicks (SIGKILL to its server and the workerd it runs: no
 * shutdown, no `waitUntil` finished), then started again on the same local storage: every click a
 * visitor got its redirect for must be counted. Clicks used to wait a second in the isolate's
 * memory before they went anywhere, and a kill lost them all (decision 0045: 39 of 39 and 21 of
 * 43 served clicks never counted). This test runs its own server beside the one of the other
 * browser tests, since it kills it.
 */

const root = path.resolve(import.meta.dirname, '..');
/** How long after the burst's last answer the process is killed: well inside the second clicks used to wait. */
const KILL_AFTER_MS = 250;
const BURSTS = [43, 39, 50];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-crash-'));
const persistTo = path.join(dir, 'state');
const assets = path.join(dir, 'assets');
const port = 20000 + Math.floor(Math.random() * 20000);
const url = `http://127.0.0.1:${port}`;
// the run's Worker bundle (playwright.config.ts); made here when this file runs without it
const bundle = process.env.E2E_STATE ? path.join(process.env.E2E_STATE, 'worker') : path.join(dir, 'worker');
let server: ChildProcess | null = null;

/** Starts the Worker (scripts/miniflare-server.mjs) on the test's own storage and resolves once the API answers. */
async function start() {
  const child = spawn(
    process.execPath,
    [
      ...['scripts/miniflare-server.mjs', '--port', String(port), '--persist-to', persistTo, '--bundle', bundle, '--assets', assets],
      ...['--var', `PUBLIC_URL:${url}`, '--var', 'DISABLE_RATE_LIMITS:true'],
    ],
    // its own process group, so that one signal reaches the server and the workerd it runs
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  server = child;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer in time: ${stderr}`);
}

/** SIGKILL to the whole process group, and waits until the port is free again. */
async function kill() {
  if (!server?.pid) return;
  const child = server;
  server = null;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
  const deadline = Date.now() + 10_000;
  while (
    Date.now() < deadline &&
    (await fetch(`${url}/api/health`).then(
      () => true,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 100));
}

async function api(method: string, urlPath: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

test.beforeAll(async () => {
  fs.mkdirSync(assets);
  fs.writeFileSync(path.join(assets, 'index.html'), '<!doctype html><title>FreightDesk</title>');
  await migratedDatabase(persistTo);
});

test.afterAll(async () => {
  await kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

test(`clicks survive a crash: killed ${KILL_AFTER_MS} ms after a burst, three times, every served click is counted after each restart`, async () => {
  test.setTimeout(600_000);
  await start();
  const email = `crash-${Date.now().toString(36)}@e2e.example`;
  expect((await api('POST', '/api/dev/users', { userType: 'manager', email, password: 'secret-pass', name: 'Crash Test' })).status).toBe(200);
  const login = await api('POST', '/api/auth/login', { email, password: 'secret-pass', clientType: 0 });
  const link = await api('POST', '/api/link/generate', { from: 'https://example.com/crash' }, login.body.accessToken);
  expect(link.status).toBe(200);
  const counted = async () => (await api('GET', `/api/link/${link.body._id}`, undefined, login.body.accessToken)).body.clicks as number;

  let served = 0;
  for (const burst of BURSTS) {
    const statuses = await Promise.all(
      Array.from({ length: burst }, () =>
        fetch(`${url}/s/${link.body.code}`, {
          redirect: 'manual',
          headers: { 'sec-fetch-mode': 'navigate', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' },
        }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    expect(statuses.filter((s) => s !== 302)).toEqual([]);
    served += burst;
    await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
    await kill();
    await start();
    // the link's ClickCounter writes D1 from its alarm, which runs again after the restart
    await expect.poll(counted, { timeout: 30_000, intervals: [250] }).toBe(served);
  }
  // and nothing more arrives later: no click counted twice by a resent batch or a repeated alarm
  await new Promise((r) => setTimeout(r, 2_000));
  expect(await counted()).toBe(served);
});
