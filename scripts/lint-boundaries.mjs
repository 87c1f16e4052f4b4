#!/usr/bin/env node
// Proves the import boundaries in biome.json hold: each planted import below is written, for one
// `biome lint` run, as a file beside `path` and must be refused, while the allowed ones must
// pass. Run by `npm run lint`; docs/project-structure.md explains the boundaries.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const biome = path.join(root, 'node_modules', '.bin', 'biome');

const cases = [
  { path: 'web/features/users/planted.ts', from: '../history/api', refused: true, why: 'a feature imports another feature' },
  { path: 'web/features/users/planted.ts', from: '../../features/links/api', refused: true, why: 'a feature imports another feature by its full path' },
  { path: 'web/features/users/planted.ts', from: '../../components/ui/button', refused: false, why: 'a feature imports the shared UI' },
  { path: 'web/features/users/planted.ts', from: '../../lib/format', refused: false, why: 'a feature imports web/lib' },
  { path: 'web/lib/planted.ts', from: '../components/ui/button', refused: true, why: 'web/lib imports web/components' },
  { path: 'web/lib/planted.ts', from: '../features/users/api', refused: true, why: 'web/lib imports a feature' },
  { path: 'web/components/ui/planted.tsx', from: '../../features/users/api', refused: true, why: 'a shared component imports a feature' },
  { path: 'web/features/users/planted.ts', from: 'drizzle-orm', refused: true, why: 'browser code imports drizzle' },
  // web -> worker is an allow-list: schemas, message tables, permissions, a few browser-safe helpers
  { path: 'web/features/users/planted.ts', from: '../../../worker/lib/db', refused: true, why: 'a screen imports the worker database layer' },
  { path: 'web/features/users/planted.ts', from: '../../../worker/lib/auth', refused: true, why: 'a screen imports the worker auth' },
  { path: 'web/features/users/planted.ts', from: '../../../worker/app', refused: true, why: 'a screen imports the worker app' },
  { path: 'web/lib/planted.ts', from: '../../worker/payments/payment-order', refused: true, why: 'web/lib imports a Durable Object class' },
  { path: 'web/components/ui/planted.tsx', from: '../../../worker/lib/directory', refused: true, why: 'a component imports a worker module off the list' },
  { path: 'web/features/users/planted.ts', from: '../../../worker/filters/filters.schema', refused: false, why: 'a screen imports a shared schema' },
  { path: 'web/features/users/planted.ts', from: '../../../worker/lib/permissions', refused: false, why: 'a screen imports the permissions table' },
  { path: 'web/lib/planted.ts', from: '../../worker/auth/auth.messages', refused: false, why: 'web/lib imports a message table' },
  // worker/lib is the ground floor: the database schema and its own modules, never an area
  { path: 'worker/lib/planted.ts', from: '../users/users.service', refused: true, why: 'worker/lib imports an area' },
  { path: 'worker/lib/planted.ts', from: '../payments/payment-order', refused: true, why: 'worker/lib imports a Durable Object class' },
  { path: 'worker/lib/planted.ts', from: '../auth/auth.messages', refused: true, why: "worker/lib imports an area's message table" },
  { path: 'worker/lib/planted.ts', from: '../error-codes', refused: true, why: 'worker/lib imports the registry of every area' },
  { path: 'worker/lib/planted.ts', from: '../app', refused: true, why: 'worker/lib imports the app' },
  { path: 'worker/lib/planted.ts', from: '../db/schema', refused: false, why: 'worker/lib imports the database schema' },
  { path: 'worker/lib/planted.ts', from: '../env', refused: false, why: 'worker/lib imports the environment' },
  { path: 'worker/lib/planted.ts', from: './d1', refused: false, why: 'worker/lib imports lib' },
  { path: 'extension/src/shared/planted.ts', from: '../../../web/app/router', refused: true, why: 'the extension imports the web app' },
  { path: 'extension/src/shared/planted.ts', from: '../../../worker/lib/db', refused: true, why: 'the extension imports worker code' },
  { path: 'extension/src/shared/planted.ts', from: '../../../worker/filters/filters.schema', refused: false, why: 'the extension imports a shared schema' },
  { path: 'extension/src/shared/planted.ts', from: '../../../web/lib/api', refused: false, why: 'the extension imports the typed API client' },
];

// Each case is a real file for the moment of one `biome lint` run (Biome reports no diagnostics
// for --stdin-file-path), removed again whatever happens.
const files = cases.map((c, i) => {
  const dir = path.dirname(c.path);
  const file = path.join(dir, `zz-planted-boundary-${i}${path.extname(c.path)}`);
  return { ...c, file };
});
let output = '';
try {
  for (const c of files) fs.writeFileSync(path.join(root, c.file), `import { x } from '${c.from}';\nexport const y = x;\n`);
  const run = spawnSync(biome, ['lint', '--max-diagnostics=none', ...files.map((c) => c.file)], { cwd: root, encoding: 'utf8' });
  output = `${run.stdout}${run.stderr}`;
} finally {
  for (const c of files) fs.rmSync(path.join(root, c.file), { force: true });
}

let failed = 0;
for (const c of files) {
  const refused = output.includes(`${c.file}:1:19 lint/style/noRestrictedImports`);
  if (refused !== c.refused) {
    failed += 1;
    console.error(
      `✗ ${c.why}: ${c.path.replace('planted', path.basename(c.file, path.extname(c.file)))} importing '${c.from}' was ${refused ? 'refused' : 'allowed'}`,
    );
  }
}
if (failed) {
  console.error(`${failed} of ${cases.length} import boundaries do not hold (biome.json, "noRestrictedImports")`);
  process.exit(1);
}
console.log(`Import boundaries: ${cases.length} planted imports refused or allowed as expected`);
