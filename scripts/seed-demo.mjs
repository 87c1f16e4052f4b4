// `npm run seed:demo`: fills the local database with a demo company (a marketing user, a director, managers,
// agents, MCs with lines, filters, tens of thousands of contact-history rows, active loads,
// payments and short links) through the development-only POST /api/dev/seed. Local only.
//
// Uses the server `npm start` (or `npm run dev`) runs on http://localhost:$PORT (default 8787).
// Sizes can be changed: `npm run seed:demo -- --teams 5 --agents-per-team 12 --history-rows-per-team 40000`
// (any field of seedSchema in worker/dev/seed/index.ts; --email-domain makes a second company next to the first).
import fs from 'node:fs';
import path from 'node:path';

/** The port: PORT, else the one the last `npm start` wrote (.wrangler/dev-server.json), else 8787. */
function portOf() {
  if (process.env.PORT) return { port: Number(process.env.PORT), from: 'PORT' };
  try {
    const { port } = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '.wrangler', 'dev-server.json'), 'utf8'));
    if (Number.isInteger(port)) return { port, from: 'the port `npm start` last used (.wrangler/dev-server.json)' };
  } catch {
    // no npm start yet
  }
  return { port: 8787, from: 'the default' };
}
const { port, from } = portOf();
const baseUrl = `http://127.0.0.1:${port}`;

/** `--agents-per-team 12` or `--agents-per-team=12` → { agentsPerTeam: 12 }. */
function parseArgs(argv) {
  const body = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) continue;
    let [key, value] = arg.slice(2).split('=', 2);
    if (value === undefined) value = argv[++i];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    const name = key.replace(/-([a-z])/g, (_, ch) => ch.toUpperCase());
    body[name] = /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return body;
}

async function isUp(url) {
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1500) });
    return res.ok;
  } catch {
    return false;
  }
}

async function main() {
  const body = parseArgs(process.argv.slice(2));
  // `npm start` listens on localhost, which may be IPv6 only: try both names
  const url = (await isUp(baseUrl)) ? baseUrl : (await isUp(`http://localhost:${port}`)) ? `http://localhost:${port}` : null;
  if (!url)
    throw new Error(`no server answers on port ${port} (${from}): start the app with \`npm start\` first, or name its port: PORT=<port> npm run seed:demo`);
  console.log(`Using the server running on ${url}`);
  console.log('Seeding the demo company (this takes a little while)…');
  const res = await fetch(`${url}/api/dev/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (res.status === 404) throw new Error('POST /api/dev/seed is not there: the server is not running with ENVIRONMENT=development');
  if (res.status === 409) {
    console.log(`Nothing to do: ${data.message}`);
    return;
  }
  if (!res.ok) throw new Error(`POST /api/dev/seed answered ${res.status}: ${data.message ?? ''}`);
  const c = data.counts;
  console.log(`
Demo company created in ${(data.ms / 1000).toFixed(1)} s: ${c.users} users, ${c.mcSettings} MC settings, ${c.filters} filters,
${c.history} contact-history rows, ${c.activeLoads} active loads, ${c.payments} payments (${c.confirmedPayments} confirmed), ${c.links} short links.

Every demo login has the password: ${data.password}
  marketing  ${data.marketing.email}   (${data.marketing.name})
  director   ${data.director.email}   (${data.director.name})`);
  for (const m of data.managers) {
    const agents = data.agents.filter((a) => a.manager === m.email);
    const shown = agents
      .slice(0, 2)
      .map((a) => a.email)
      .join(', ');
    console.log(`    manager    ${m.email}   (${m.name}), ${m.agents} agents: ${shown}${agents.length > 2 ? ', …' : ''}`);
  }
  console.log(`
  Open ${url} and log in with any of them.`);
}

main().catch((err) => {
  console.error(`seed:demo failed: ${err.message ?? err}`);
  process.exit(1);
});
