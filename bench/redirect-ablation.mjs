// Which part of the redirect costs its throughput and its tail: the product's bundle and copies of
// it with one part taken out, each run against the empty Worker in the same rounds (one run of
// each per round, in turn), so the machine's slow spells hit them all alike. Local only; about
// ABLATION_ROUNDS × (variants + 1) × 4 s.  `node bench/redirect-ablation.mjs`
//   ABLATION_ROUNDS=6  ABLATION_SECONDS=4  ABLATION_ONLY=2,3 (only these variants, by position)
//   ABLATION_BEFORE=.tmp/old/index.js (an earlier build's bundle beside them)
import fs from 'node:fs';
import path from 'node:path';
import { GENERATOR, load, median, ms, PERSON_CLICK, ratio, wrkLoad } from './load.mjs';
import { bundleProduct, linkToLoad, startEmptyBare, startProductBare } from './runtimes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const work = path.join(root, '.tmp', 'bench', 'ablation');
const ROUNDS = Number(process.env.ABLATION_ROUNDS ?? 6);
const SECONDS = Number(process.env.ABLATION_SECONDS ?? 4);

/** Each variant: a name and the source edits that take one part out of the bundle. */
const SHM = '/dev/shm/freightdesk-ablation';
const VARIANTS = [
  ['product, local storage on disk', []],
  ["product, local storage in memory (no fsync on the Worker's thread)", [], { defaultPersistRoot: `${SHM}/a` }],
  [
    'no click sends (clicks counted in the isolate, never sent)',
    [[/const (flush\d*) = recordClick\(env, link\.id, describeVisit\(req\), link\.co\);/, 'const $1 = (describeVisit(req), null);']],
    { defaultPersistRoot: `${SHM}/b` },
  ],
  [
    'no visit description (a fixed visit)',
    [[/const (flush\d*) = recordClick\(env, link\.id, describeVisit\(req\), link\.co\);/, 'const $1 = recordClick(env, link.id, FIXED_VISIT, link.co);']],
    { defaultPersistRoot: `${SHM}/c` },
  ],
].filter((_, i) => !process.env.ABLATION_ONLY || process.env.ABLATION_ONLY.split(',').includes(String(i + 1)));
/** ABLATION_BEFORE=path/to/index.js: another build's bundle (an earlier commit's) as one more variant, storage in memory. */
const BEFORE = process.env.ABLATION_BEFORE;

fs.rmSync(work, { recursive: true, force: true });
fs.rmSync(SHM, { recursive: true, force: true });
const bundle = bundleProduct(path.join(work, 'product'));
const source = fs.readFileSync(bundle, 'utf8');
const servers = [];
try {
  const targets = [];
  let port = 18800;
  for (const [name, edits, miniflareOptions = {}] of VARIANTS) {
    let code = source;
    for (const [from, to] of edits) {
      // a regex: the bundler may rename a local (flush → flush2)
      if (!from.test(code)) throw new Error(`variant "${name}": "${from}" is not in the bundle`);
      code = code.replace(from, to);
    }
    if (code.includes('FIXED_VISIT'))
      code += `\nvar FIXED_VISIT = { referrer: "direct", country: "US", device: "desktop", browser: "Chrome", os: "Windows", isBot: false, visitor: "" };\n`;
    const dir = path.join(work, `v${port}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(path.dirname(bundle))) fs.copyFileSync(path.join(path.dirname(bundle), f), path.join(dir, f));
    fs.writeFileSync(path.join(dir, 'index.js'), code);
    const server = await startProductBare(port++, path.join(dir, 'index.js'), { DISABLE_RATE_LIMITS: 'true' }, miniflareOptions);
    servers.push(server);
    targets.push({ name, url: await linkToLoad(server, 'https://example.com/ablation'), runs: [] });
  }
  if (BEFORE) {
    const dir = path.join(work, 'before');
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(path.dirname(BEFORE))) fs.copyFileSync(path.join(path.dirname(BEFORE), f), path.join(dir, f));
    const server = await startProductBare(
      port++,
      path.join(dir, path.basename(BEFORE)),
      { DISABLE_RATE_LIMITS: 'true' },
      { defaultPersistRoot: `${SHM}/before` },
    );
    servers.push(server);
    targets.push({ name: `before: ${BEFORE}`, url: await linkToLoad(server, 'https://example.com/ablation'), runs: [] });
  }
  const empty = await startEmptyBare(port++);
  servers.push(empty);
  const emptyTarget = { name: 'empty Worker', url: `${empty.url}/s/x`, runs: [] };
  const run = GENERATOR === 'wrk' ? wrkLoad : load;
  console.log(`generator: ${GENERATOR}`);
  const opts = (url) => ({ url, connections: 64, seconds: SECONDS, headers: PERSON_CLICK, expect: 302 });
  for (const t of [...targets, emptyTarget]) await run({ ...opts(t.url), seconds: 2 }); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of [...targets, emptyTarget]) t.runs.push(await run(opts(t.url)));
    console.log(
      `round ${round + 1}: ${[...targets, emptyTarget].map((t) => `${Math.round(t.runs.at(-1).rps)} req/s p99 ${ms(t.runs.at(-1).p99)} max ${ms(t.runs.at(-1).max)} errors ${t.runs.at(-1).bad}`).join(' | ')}`,
    );
  }
  console.log(
    `\n| variant | req/s (median) | p99 ms (median) | slowest ms | socket errors + non-302 | req/s / empty (median of rounds) | p99 / empty (median of rounds) |\n| --- | --- | --- | --- | --- | --- | --- |`,
  );
  for (const t of [...targets, emptyTarget]) {
    const rpsRatio = median(t.runs.map((r, i) => r.rps / emptyTarget.runs[i].rps));
    const p99Ratio = median(t.runs.map((r, i) => r.p99 / emptyTarget.runs[i].p99));
    console.log(
      `| ${t.name} | ${Math.round(median(t.runs.map((r) => r.rps)))} | ${ms(median(t.runs.map((r) => r.p99)))} | ${ms(Math.max(...t.runs.map((r) => r.max)))} | ${t.runs.reduce((n, r) => n + r.bad, 0)} | ${ratio(rpsRatio)} | ${ratio(p99Ratio)} |`,
    );
  }
} finally {
  for (const s of servers) await s.stop();
  fs.rmSync(SHM, { recursive: true, force: true });
}
