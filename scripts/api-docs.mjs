// `npm run docs:api`: writes docs/api/ from the worker's routes and zod schemas
// (worker/dev/api-reference.ts); worker/dev/api-reference.test.ts fails when they are stale. The
// Workers runtime's module is stood in for: only the Durable Object base class is touched.
import fs from 'node:fs';
import path from 'node:path';
import { runnerImport } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const { module } = await runnerImport(path.join(root, 'worker/dev/api-reference.ts'), {
  configFile: false,
  root,
  logLevel: 'error',
  resolve: { alias: { 'cloudflare:workers': path.join(root, 'scripts/stubs/cloudflare-workers.mjs') } },
});
const proseDir = path.join(root, 'docs/api/prose');
const prose = Object.fromEntries(
  fs
    .readdirSync(proseDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => [f.slice(0, -3), fs.readFileSync(path.join(proseDir, f), 'utf8')]),
);
const { openapi, access, pages } = module.apiReference(prose);
fs.writeFileSync(path.join(root, 'docs/api/openapi.json'), `${JSON.stringify(openapi, null, 2)}\n`);
fs.writeFileSync(path.join(root, 'docs/api/access.md'), access);
for (const [page, text] of Object.entries(pages)) fs.writeFileSync(path.join(root, `docs/api/${page}.md`), text);
console.log(`docs/api/openapi.json: ${Object.keys(openapi.paths).length} paths; docs/api/access.md; ${Object.keys(pages).length} pages (docs/api/<area>.md)`);
