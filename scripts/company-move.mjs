// `npm run company:move`: moves a company between D1 shards through the admin's API
// (POST /api/shards/moves, docs/decisions/0181-moving-companies.md) and follows the move to its end.
//
//   npm run company:move -- <company> <shard>       start the move, or resume the company's open move there
//   npm run company:move -- <company> --rollback    roll the company's open move back (before its commit)
//   npm run company:move -- --all-from DB           every company on DB (the staff company aside), one at a
//                                                   time, each to the emptiest shard of SHARDS
//   npm run company:move -- --status                the shards, their companies and the moves of the last week
//
// Locally it uses the server `npm start` runs (PORT, else the port it last used) and signs in as
// ADMIN_EMAIL / ADMIN_PASSWORD of .dev.vars. Against production: --url https://<your host> with
// FREIGHTDESK_TOKEN (an admin's access token) or ADMIN_EMAIL / ADMIN_PASSWORD in the environment.
// Stopping the script does not stop a move: it runs in its Durable Object; run the script again to
// follow it.
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const positional = argv.filter((a, i) => !a.startsWith('--') && !['--url', '--all-from'].includes(argv[i - 1]));

function localUrl() {
  let port = process.env.PORT;
  if (!port) {
    try {
      port = String(JSON.parse(fs.readFileSync(path.join(root, '.wrangler', 'dev-server.json'), 'utf8')).port);
    } catch {
      port = '8787';
    }
  }
  return `http://127.0.0.1:${port}`;
}
const baseUrl = (option('--url') ?? localUrl()).replace(/\/+$/, '');

function credentials() {
  let vars = {};
  try {
    vars = parseEnv(fs.readFileSync(path.join(root, '.dev.vars'), 'utf8'));
  } catch {
    // no .dev.vars: the environment only
  }
  const local = !option('--url');
  return {
    email: process.env.ADMIN_EMAIL ?? (local ? vars.ADMIN_EMAIL : undefined),
    password: process.env.ADMIN_PASSWORD ?? (local ? vars.ADMIN_PASSWORD : undefined),
  };
}

let token = process.env.FREIGHTDESK_TOKEN;
async function api(method, apiPath, body) {
  let res;
  try {
    res = await fetch(`${baseUrl}${apiPath}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new Error(`no answer from ${baseUrl} (${err.cause?.code ?? err.message}): start the app with \`npm start\`, or name the server with --url`);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(`${method} ${apiPath}: ${res.status} ${data.message ?? ''}`), { status: res.status });
  return data;
}

async function signIn() {
  if (token) return;
  const { email, password } = credentials();
  if (!email || !password) throw new Error('Set FREIGHTDESK_TOKEN (an admin access token), or ADMIN_EMAIL and ADMIN_PASSWORD');
  token = (await api('POST', '/api/auth/login', { email, password, clientType: 0 })).accessToken;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rows = (counts) =>
  Object.entries(counts)
    .filter(([, n]) => n)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');

/** Follows a move until it ends, printing each step; answers the ended move. */
async function follow(move) {
  let last = '';
  for (;;) {
    const line = `${move.step}${move.table ? ` (${move.table})` : ''}${move.error ? `: ${move.error}` : ''}`;
    if (line !== last) console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`);
    last = line;
    if (move.step === 'done' || move.step === 'rolled_back') return move;
    await sleep(1000);
    move = await api('GET', `/api/shards/moves/${move.id}`);
  }
}

function report(move) {
  if (move.step === 'done') {
    console.log(`Moved ${move.companyId} from ${move.from} to ${move.to}: ${move.users} users.`);
    console.log(`  copied and verified: ${rows(move.copied) || 'nothing'}`);
    console.log(`  deleted from ${move.from}: ${rows(move.deleted) || 'nothing'}`);
    return true;
  }
  console.log(`Rolled back: ${move.companyId} stays on ${move.from}${move.error ? ` (${move.error})` : ''}.`);
  return false;
}

async function moveOne(companyId, shard) {
  const move = await api('POST', '/api/shards/moves', { companyId, shard });
  console.log(`Move ${move.id}: company ${companyId} from ${move.from} to ${move.to}`);
  return report(await follow(move));
}

async function main() {
  await signIn();
  if (flag('--status')) {
    const { shards, moves } = await api('GET', '/api/shards');
    for (const s of shards)
      console.log(
        `${s.name.padEnd(10)} ${String(s.companies).padStart(6)} companies ${String(s.users).padStart(7)} users${s.placement ? '  (new companies)' : ''}`,
      );
    for (const m of moves)
      console.log(`${m.createdAt.slice(0, 16)} ${m.id} ${m.kind} ${m.companyId} ${m.from} -> ${m.to} ${m.step}${m.error ? ` (${m.error})` : ''}`);
    return;
  }
  const from = option('--all-from');
  if (from) {
    const companies = (await api('GET', `/api/shards/${from}/companies`)).filter((c) => c.id !== 'staff');
    console.log(`${companies.length} companies on ${from}`);
    let failed = 0;
    for (const company of companies) {
      const { shards } = await api('GET', '/api/shards');
      const targets = shards.filter((s) => s.placement && s.name !== from);
      if (!targets.length) throw new Error(`No shard to move to: SHARDS names only ${from}`);
      const emptiest = targets.reduce((a, b) => (b.companies < a.companies ? b : a));
      if (!(await moveOne(company.id, emptiest.name))) failed++;
    }
    if (failed) throw new Error(`${failed} of ${companies.length} moves rolled back: run the command again to retry them`);
    return;
  }
  const [companyId, shard] = positional;
  if (!companyId || (!shard && !flag('--rollback'))) {
    console.error('Usage: npm run company:move -- <company> <shard> | <company> --rollback | --all-from <shard> | --status  [--url <server>]');
    process.exit(2);
  }
  if (flag('--rollback')) {
    const { moves } = await api('GET', '/api/shards');
    const open = moves.find((m) => m.companyId === companyId && m.step !== 'done' && m.step !== 'rolled_back');
    if (!open) throw new Error(`Company ${companyId} has no open move`);
    report(await follow(await api('POST', `/api/shards/moves/${open.id}/rollback`)));
    return;
  }
  if (!(await moveOne(companyId, shard))) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
