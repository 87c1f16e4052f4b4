// `npm start`: builds the SPA, applies the D1 migrations to every local database (.wrangler/state)
// and serves app and API with `wrangler dev` on http://localhost:$PORT (default 8787).
// `npm run dev` (--dev): the same database through Vite with the Cloudflare plugin instead, with
// hot reload of the SPA and the Worker on the same port.
// Locally the Worker runs from worker/dev/index.ts (the product plus the development-only calls);
// once it answers, the start step creates the first admin (POST /api/dev/admin) when none exists.
// Settings come from .dev.vars (copied from .dev.vars.example when missing); `npm start` also
// takes any of its names from the process environment (ADMIN_PASSWORD=... npm start).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { migrateAll } from './db-migrate.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const readVars = (file) => parseEnv(fs.readFileSync(path.join(root, file), 'utf8'));
const dev = process.argv.includes('--dev');
const port = process.env.PORT ?? '8787';

if (!fs.existsSync(path.join(root, '.dev.vars'))) {
  fs.copyFileSync(path.join(root, '.dev.vars.example'), path.join(root, '.dev.vars'));
  console.log('Created .dev.vars from .dev.vars.example (local settings; edit it to change them).');
}
// the process environment wins over .dev.vars for the names the example lists
const overrides = {};
for (const name of Object.keys(readVars('.dev.vars.example'))) if (process.env[name] !== undefined) overrides[name] = process.env[name];
if (process.env.PORT && overrides.PUBLIC_URL === undefined) overrides.PUBLIC_URL = `http://localhost:${port}`;
const vars = { ...readVars('.dev.vars'), ...overrides };

// FMCSA's stand-in (scripts/fmcsa-stand-in.mjs) when development points FMCSA_URL at the loopback
// address: brokers in every state for the vetting chips and the board's badge. `npm start` puts it
// on PORT + 3 (or FMCSA_STAND_IN_PORT), or on a free port when that one is taken, and gives the
// Worker its URL, so checkouts on their own PORTs run side by side. `npm run dev`'s Worker reads
// .dev.vars itself (Vite's plugin lets .dev.vars win over anything passed), so there the stand-in
// takes FMCSA_URL's own port, and a taken port leaves the one already there answering.
if (vars.ENVIRONMENT === 'development' && /^http:\/\/(127\.0\.0\.1|localhost):\d+\//.test(vars.FMCSA_URL ?? '')) {
  const { startDevStandIn, startFmcsaStandIn } = await import('./fmcsa-stand-in.mjs');
  const configured = new URL(vars.FMCSA_URL);
  const webKey = vars.FMCSA_WEBKEY || undefined;
  if (dev) {
    try {
      console.log(`FMCSA stand-in on ${(await startFmcsaStandIn({ port: Number(configured.port), webKey })).url}`);
    } catch (err) {
      if (err?.code !== 'EADDRINUSE') throw err;
      console.log(`FMCSA stand-in not started: port ${configured.port} is taken; the Worker asks what answers there (FMCSA_URL in .dev.vars)`);
    }
  } else {
    const standIn = await startDevStandIn({ port: Number(process.env.FMCSA_STAND_IN_PORT ?? Number(port) + 3), webKey, path: configured.pathname });
    overrides.FMCSA_URL = standIn.url;
  }
}

const run = (command, args, env = {}) => {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!dev) {
  console.log('Building the web app…');
  run(bin('vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']);
}
console.log('Applying the D1 migrations to every local database (DB and each SHARD_* of wrangler.toml)…');
try {
  await migrateAll({ mode: 'local' });
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
// seed:demo and other local tools find the server here when PORT is not set for them
fs.mkdirSync(path.join(root, '.wrangler'), { recursive: true });
fs.writeFileSync(path.join(root, '.wrangler', 'dev-server.json'), `${JSON.stringify({ port: Number(port) })}\n`);

console.log(`
  FreightDesk ${dev ? '(Vite dev server, hot reload) ' : ''}starts on http://localhost:${port}
  First admin: ${vars.ADMIN_EMAIL} / ${vars.ADMIN_PASSWORD}   (set ADMIN_EMAIL / ADMIN_PASSWORD${dev ? ' in .dev.vars' : ''} to change)
  Dev mail outbox: http://localhost:${port}/api/dev/outbox
`);
const wranglerDev = ['dev', 'worker/dev/index.ts', '--port', port, ...(process.env.HOST ? ['--ip', process.env.HOST] : [])];
for (const [name, value] of Object.entries(overrides)) wranglerDev.push('--var', `${name}:${value}`);
const server = dev
  ? spawn(bin('vite'), ['--config', 'web/vite.config.ts', '--port', port, '--strictPort'], { cwd: root, stdio: 'inherit' })
  : spawn(bin('wrangler'), wranglerDev, { cwd: root, stdio: 'inherit', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

/** The start step: once the server answers, the first admin from ADMIN_EMAIL / ADMIN_PASSWORD when no admin exists. */
async function firstAdmin(url) {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
    let res;
    try {
      res = await fetch(`${url}/api/dev/admin`, { method: 'POST' });
    } catch {
      continue; // not up yet
    }
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return console.error(`Creating the first admin failed: ${res.status} ${body.message ?? ''}`);
    return console.log(body.created ? `First admin created: ${body.email}` : `Admin account: ${body.email}`);
  }
  console.error('The server did not answer within 3 minutes: no first admin was created');
}
firstAdmin(`http://${process.env.HOST ?? 'localhost'}:${port}`);
