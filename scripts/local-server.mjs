import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { devVars } from './dev-vars.mjs';

const root = path.resolve(import.meta.dirname, '..');
const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');

/** Builds the SPA into web/dist, or into `outDir` (tests build their own copy). */
export function buildWeb(outDir) {
  const extra = outDir ? ['--outDir', outDir, '--emptyOutDir'] : [];
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn', ...extra], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('web build failed');
}

/** Applies every D1 migration to the local database in `persistTo` (default .wrangler/state). */
export function applyMigrations(persistTo) {
  const args = ['d1', 'migrations', 'apply', 'DB', '--local'];
  if (persistTo) args.push('--persist-to', persistTo);
  const r = spawnSync(wrangler, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: 'true' } });
  if (r.status !== 0) throw new Error('applying migrations failed');
}

/** The local entry: the product's Worker plus the development-only calls (worker/dev/index.ts). */
const DEV_ENTRY = 'worker/dev/index.ts';

/**
 * Starts `wrangler dev` (local workerd, local D1/KV/Durable Objects) on the development entry,
 * resolves once the API answers and runs the start step: the first admin from ADMIN_EMAIL /
 * ADMIN_PASSWORD when no admin exists. Answers { url, vars, stop }.
 */
export async function startServer({ port, ip, persistTo, assets, overrides = {}, quiet = false }) {
  const { vars, args } = devVars(port, overrides);
  const cliArgs = ['dev', DEV_ENTRY, '--port', String(port), ...args, '--show-interactive-dev-session=false'];
  if (ip) cliArgs.push('--ip', ip);
  if (persistTo) cliArgs.push('--persist-to', persistTo);
  if (assets) cliArgs.push('--assets', assets);
  const child = spawn(wrangler, cliArgs, {
    cwd: root,
    stdio: quiet ? ['ignore', 'ignore', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    detached: process.platform !== 'win32',
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const url = `http://${ip ?? '127.0.0.1'}:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  if (Date.now() >= deadline) throw new Error(`wrangler dev did not answer in time: ${stderr}`);
  const admin = await fetch(`${url}/api/dev/admin`, { method: 'POST' });
  if (!admin.ok) throw new Error(`creating the first admin failed: ${admin.status} ${await admin.text()}`);
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  };
  return { url, vars, child, stop };
}
