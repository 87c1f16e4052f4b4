// The product on Miniflare directly, with no dev proxy in front: the Worker bundled as `wrangler
// deploy` bundles it, the bindings wrangler itself reads from wrangler.toml (the D1 control plane
// and shards, KV, the Durable Objects, the mail queues, R2, the SPA's assets), the local settings
// of .dev.vars.example. The browser tests and the benchmarks serve it so; `npm start` stays on
// `wrangler dev`, whose proxy drops a request now and then (docs/guides/testing.md#how-the-browser-tests-are-served).
//
// As a command (Playwright's webServer, a test that kills its server):
//   node scripts/miniflare-server.mjs --port 18123 --persist-to DIR --bundle DIR [--assets DIR] [--var NAME:value]…
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';

const ROOT = path.resolve(import.meta.dirname, '..');
const WRANGLER = path.join(ROOT, 'node_modules', '.bin', 'wrangler');

/** The local development settings (.dev.vars.example) for a Worker on 127.0.0.1:port, `overrides` over them. */
export const devVars = (port, overrides = {}) => ({
  ...parseEnv(fs.readFileSync(path.join(ROOT, '.dev.vars.example'), 'utf8')),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  ...overrides,
});

/**
 * Bundles the development entry (worker/dev/index.ts: the product with /api/dev in front) into
 * `outDir` as `wrangler deploy` would; answers the bundle's path. An existing bundle is reused.
 */
export function bundleWorker(outDir, { reuse = false } = {}) {
  const script = path.join(outDir, 'index.js');
  if (reuse && fs.existsSync(script)) return script;
  const r = spawnSync(WRANGLER, ['deploy', 'worker/dev/index.ts', '--dry-run', '--outdir', outDir], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  });
  if (r.status !== 0) throw new Error('bundling the worker failed');
  return script;
}

/**
 * Starts the bundle at `scriptPath` on 127.0.0.1:`port` with wrangler.toml's bindings.
 * `persistTo`: a `wrangler dev --persist-to` folder (its v3/ layout, so the migrated copies of
 * scripts/migrate-local.mjs are found); in memory when left out. `assets`: the SPA build to serve
 * (none when left out). `vars` go over .dev.vars.example; `options` over everything (the
 * benchmarks' own D1 list, an inspector port). `onStderr` gets workerd's error output; its
 * standard output (a log line per request) is dropped. Answers the Miniflare, ready.
 */
export async function startMiniflare({ port, scriptPath, persistTo, assets, vars = {}, options = {}, onStderr }) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(
    path.join(ROOT, 'wrangler.toml'),
    undefined,
    assets ? { overrides: { assets: { directory: assets } } } : {},
  );
  if (!assets) delete workerOptions.assets;
  const mf = new Miniflare({
    host: '127.0.0.1',
    port,
    // what wrangler dev sets: /cdn-cgi/handler/scheduled and the others answer
    unsafeTriggerHandlers: true,
    defaultPersistRoot: persistTo ? path.join(persistTo, 'v3') : undefined,
    handleRuntimeStdio(stdout, stderr) {
      stdout.resume();
      if (onStderr) stderr.on('data', (chunk) => onStderr(chunk.toString()));
      else stderr.resume();
    },
    ...workerOptions,
    name: 'freight-broker-suite',
    modules: true,
    modulesRoot: path.dirname(scriptPath),
    scriptPath,
    bindings: { ...workerOptions.bindings, ...devVars(port, vars) },
    ...options,
  });
  await mf.ready;
  return mf;
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'persist-to': { type: 'string' },
      bundle: { type: 'string' },
      assets: { type: 'string' },
      var: { type: 'string', multiple: true, default: [] },
    },
  });
  if (!values.port || !values['persist-to'] || !values.bundle) {
    console.error('usage: node scripts/miniflare-server.mjs --port N --persist-to DIR --bundle DIR [--assets DIR] [--var NAME:value]…');
    process.exit(2);
  }
  const vars = Object.fromEntries(values.var.map((v) => [v.slice(0, v.indexOf(':')), v.slice(v.indexOf(':') + 1)]));
  const mf = await startMiniflare({
    port: Number(values.port),
    scriptPath: bundleWorker(path.resolve(values.bundle), { reuse: true }),
    persistTo: path.resolve(values['persist-to']),
    assets: values.assets && path.resolve(values.assets),
    vars,
    onStderr: (text) => process.stderr.write(text),
  });
  console.log(`ready on http://127.0.0.1:${values.port}`);
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, async () => {
      await mf.dispose();
      process.exit(0);
    });
}
