// `node bench/filters-import.mjs`: times a 5,000-row filters import (rule 0092) against a running
// local server (`npm start`; PORT, default 8787): the preview, then the one-batch import, each for
// a fresh manager, BENCH_RUNS times (default 3); prints the medians. Not part of `npm run bench`:
// it writes 5,000 filters per run into the local database.
import { apiClient } from './api-client.mjs';

const port = Number(process.env.PORT ?? 8787);
const base = `http://127.0.0.1:${port}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ROWS = 5000;

const api = apiClient(base);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = Array.from({ length: ROWS }, (_, i) => ({
  name: `Bench Broker ${i} Logistics`,
  type: i % 3 ? 'Blocked' : 'Preferred',
  comment: `row ${i}`,
  contacts: `+1555${String(i).padStart(7, '0')}; ops${i}@broker.example`,
  mcNumber: String(400000 + i),
  dotNumber: String(1000000 + i),
}));
console.log(`request body: ${(JSON.stringify({ rows }).length / 1024).toFixed(0)} KB`);

const preview = [];
const imported = [];
for (let run = 0; run < RUNS; run++) {
  const email = `bench-import-${Date.now().toString(36)}-${run}@bench.example`;
  await api('POST', '/api/dev/users', { userType: 'manager', email, password: 'bench-pass-1', name: `Bench ${run}` });
  const { accessToken } = await api('POST', '/api/auth/login', { email, password: 'bench-pass-1', clientType: 0 });
  let t = performance.now();
  const p = await api('POST', '/api/broker/import/preview', { rows }, accessToken);
  preview.push(performance.now() - t);
  t = performance.now();
  const done = await api('POST', '/api/broker/import', { rows }, accessToken);
  imported.push(performance.now() - t);
  if (p.create !== ROWS || done.create !== ROWS) throw new Error(`expected ${ROWS} creates: ${JSON.stringify({ p: p.create, done })}`);
  console.log(`run ${run + 1}: preview ${preview.at(-1).toFixed(0)} ms, import ${imported.at(-1).toFixed(0)} ms`);
}
console.log(`median of ${RUNS}: preview ${median(preview).toFixed(0)} ms, import ${median(imported).toFixed(0)} ms (${ROWS} rows)`);
