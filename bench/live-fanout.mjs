// `npm run bench:live` (node --experimental-websocket bench/live-fanout.mjs): the live signals'
// fan-out (docs/decisions/0162-live-signals.md). Starts the product through `wrangler dev`
// as `npm run bench` does (bench/runtimes.mjs: the development entry on a free port, a fresh local
// database in a temp folder), connects SOCKETS sockets of one team to /api/live (AGENTS agents, several boards each),
// then makes CHANGES changes one after another (the manager disables or enables a filter) and
// measures, for each, the time from sending the write until every socket has the signal. The
// baseline, in the same run: the same changes with one socket connected. Stops the server and
// removes its folder by itself; BENCH_SOCKETS, BENCH_CHANGES override the sizes.
import { filterBody } from '../scripts/filter-body.mjs';
import { apiClient } from './api-client.mjs';
import { boundRun, startProductWranglerDev } from './runtimes.mjs';

if (typeof WebSocket === 'undefined') throw new Error('run with node --experimental-websocket (Node 20) or Node 22+');
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 200);
const AGENTS = 20;
const CHANGES = Number(process.env.BENCH_CHANGES ?? 30);
const PASSWORD = 'bench-pass-1';
const DEADLINE_MS = 5 * 60_000;

let server = null;
const sockets = [];
const stop = () => {
  for (const ws of sockets) ws.close();
  server?.stop();
};
// bounded: whatever happens, the run ends
const unbound = boundRun(DEADLINE_MS, stop, 'bench:live');

let api;
let port;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** Opens a socket as the extension does and counts the signals it gets. */
function connect(token) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, ['freightdesk.live', token]);
    ws.got = 0;
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error('socket failed'));
    ws.onmessage = (e) => {
      if (String(e.data).startsWith('{')) {
        ws.got++;
        ws.waiter?.();
      }
    };
    sockets.push(ws);
  });
}

/** Makes one change and answers the ms until the write answered and until every socket had its signal. */
async function change(group, filterId, token) {
  const want = group.map((ws) => ws.got + 1);
  const t0 = performance.now();
  const all = Promise.all(
    group.map(
      (ws, i) =>
        new Promise((resolve) => {
          const check = () => ws.got >= want[i] && resolve(performance.now() - t0);
          ws.waiter = check;
          check();
        }),
    ),
  );
  await api('PUT', '/api/broker/update/isactive', { filterId }, token);
  const answered = performance.now() - t0;
  const times = await all;
  return { answered, last: Math.max(...times), each: times };
}

try {
  server = await startProductWranglerDev(undefined, undefined, { DISABLE_RATE_LIMITS: 'true' });
  port = server.port;
  api = apiClient(server.url);
  const tag = Date.now().toString(36);
  await api('POST', '/api/dev/users', { userType: 'manager', email: `lead-${tag}@bench.example`, password: PASSWORD, name: 'Bench Lead' });
  const lead = (await api('POST', '/api/auth/login', { email: `lead-${tag}@bench.example`, password: PASSWORD, clientType: 0 })).accessToken;
  const me = JSON.parse(Buffer.from(lead.split('.')[1], 'base64url').toString()).sub;
  await api('POST', '/api/mcSettings/add/', { name: 'Bench MC', lines: [1] }, lead);
  const types = await api('GET', '/api/user/filterOverrides', undefined, lead);
  const filter = await api('POST', '/api/broker/add', filterBody({ updateFilterId: null, name: 'Bench Broker', type: types[0]._id }), lead);
  const tokens = [];
  for (let i = 0; i < AGENTS; i++) {
    const email = `agent-${tag}-${i}@bench.example`;
    await api('POST', '/api/dev/users', { userType: 'agent', email, password: PASSWORD, name: `Agent ${i}`, parentId: me });
    tokens.push((await api('POST', '/api/auth/login', { email, password: PASSWORD, clientType: 1 })).accessToken);
  }
  // baseline: one board
  const one = [await connect(tokens[0])];
  const baseline = [];
  for (let i = 0; i < CHANGES; i++) baseline.push(await change(one, filter._id, lead));
  // the team's boards
  const t = performance.now();
  const many = [one[0]];
  while (many.length < SOCKETS)
    many.push(...(await Promise.all(Array.from({ length: Math.min(50, SOCKETS - many.length) }, (_, i) => connect(tokens[(many.length + i) % AGENTS])))));
  const connectMs = performance.now() - t;
  const fanned = [];
  for (let i = 0; i < CHANGES; i++) fanned.push(await change(many, filter._id, lead));
  const row = (label, runs, n) => {
    const last = runs.map((r) => r.last);
    const answered = runs.map((r) => r.answered);
    const each = runs.flatMap((r) => r.each);
    return `| ${label} | ${n} | ${pct(answered, 50).toFixed(1)} / ${pct(answered, 99).toFixed(1)} | ${pct(each, 50).toFixed(1)} / ${pct(each, 99).toFixed(1)} | ${pct(last, 50).toFixed(1)} / ${pct(last, 99).toFixed(1)} |`;
  };
  console.log(`${SOCKETS} sockets of one team connected in ${connectMs.toFixed(0)} ms; ${CHANGES} changes one after another (ms, p50 / p99)`);
  console.log('| boards | sockets | the write answered | each socket has the signal | every socket has it |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(row('one (baseline)', baseline, 1));
  console.log(row('the team', fanned, SOCKETS));
} finally {
  unbound();
  stop();
}
