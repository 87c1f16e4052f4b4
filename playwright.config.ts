import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS } from './scripts/chromium-flags.mjs';

/**
 * Browser tests: Debian's Chromium against the real app (the development entry, worker/dev/index.ts)
 * served by Miniflare with no dev proxy (scripts/miniflare-server.mjs) on a fresh local database.
 * The config is read again in every worker process: the port and the state folder are chosen
 * once, in the main process, and inherited through the environment.
 */
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 20000));
const port = process.env.E2E_PORT;
// made by the server's commands, removed by e2e/global-teardown.ts
process.env.E2E_STATE ??= path.join(os.tmpdir(), `fd-e2e-${port}`);
const state = process.env.E2E_STATE;
const baseURL = `http://127.0.0.1:${port}`;

// The migrated empty databases (the control plane and the shards), made once per run: this server
// and every server a test starts of its own (e2e/extension-harness.ts) begin with a copy of them.
process.env.E2E_MIGRATED ??= path.join(state, 'migrated');
const migrated = process.env.E2E_MIGRATED;
// Each run builds its own copy of the SPA, so parallel runs never share a half-written dist;
// E2E_SKIP_BUILD=1 serves web/dist as it is (.ci/run builds it once in `npm run check`).
const assets = process.env.E2E_SKIP_BUILD ? 'web/dist' : path.join(state, 'dist');
const server = [
  !process.env.E2E_SKIP_BUILD && `vite build --config web/vite.config.ts --logLevel warn --outDir ${assets} --emptyOutDir`,
  `node scripts/migrate-local.mjs ${migrated}`,
  `cp -R ${migrated} ${state}/main`,
  // the Worker bundled once (state/worker), for this server and every one a test starts
  `node scripts/miniflare-server.mjs --port ${port} --persist-to ${state}/main --bundle ${state}/worker --assets ${assets} --var PUBLIC_URL:${baseURL} --var DISABLE_RATE_LIMITS:true`,
].filter(Boolean);

/**
 * The files that read or change what every team shares on the server (the admin's confirmed
 * total and the price schedule, the online total, the nightly archive and reminder jobs run for
 * every team): they run after the others, one at a time, with nothing beside them.
 */
const ALONE = ['admin-refunds', 'analytics', 'history-archive', 'operations'].map((name) => `${name}.e2e.ts`);
// Playwright runs a teardown project in full whatever files are named: a run of named files
// (`npx playwright test e2e/x.e2e.ts`) leaves the order out and runs just those
process.env.E2E_NAMED_FILES ??= process.argv.slice(2).some((arg) => /\.ts(:\d+)*$/.test(arg)) ? '1' : '';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.e2e.ts',
  // two files at a time: the machine has two cores (docs/guides/testing.md#how-the-browser-tests-are-served)
  workers: 2,
  projects: [
    { name: 'shared', testIgnore: ALONE, teardown: process.env.E2E_NAMED_FILES ? undefined : 'alone' },
    // a teardown project runs once `shared` is done, passed or not
    { name: 'alone', testMatch: ALONE, workers: 1 },
  ],
  timeout: 60_000,
  // a test that passes only on its retry is listed as flaky (docs/guides/testing.md#retries)
  retries: 1,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: '.tmp/e2e-results',
  // the webServer answers first; then the start step creates the first admin
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL,
    viewport: { width: 1280, height: 860 },
    // a failed test leaves its trace (`npx playwright show-trace .tmp/e2e-results/…/trace.zip`):
    // actions, network and DOM snapshots; without the screencast, which cost every test about a
    // quarter of its CPU (the failure's screenshot is kept by `screenshot` below)
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', ...CHROMIUM_FLAGS],
    },
  },
  webServer: {
    command: server.join(' && '),
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 240_000,
    env: { CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
