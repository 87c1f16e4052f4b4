#!/usr/bin/env node
// Fails when the extension's modules import each other in a circle (issue 41: its parts call one
// owner module, not each other), and reports, without failing, the circles it finds in worker/ and
// web/ (their owners fix them). Runtime imports only: `import type` and `export type` vanish in the
// build and make no circle. Run by `npm run lint`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js'];

function sourcesIn(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', '.wrangler'].includes(entry.name) ? [] : sourcesIn(full);
    return EXTENSIONS.includes(path.extname(entry.name)) && !/\.d\.[mc]?ts$/.test(entry.name) ? [full] : [];
  });
}

/** The file a relative specifier names, or null (a package, an asset, a JSON file). */
function resolve(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier.replace(/\?.*$/, ''));
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))]) {
    if (EXTENSIONS.includes(path.extname(candidate)) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

// `import x from`, `import {a} from`, `import './side-effect'`, `export {a} from`, `export * from`; not `import type` / `export type`
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function graphOf(files) {
  const graph = new Map();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const edges = new Set();
    for (const match of text.matchAll(IMPORT)) {
      // `import { type A, type B } from` is type-only too
      const clause = match[0];
      if (
        /^\s*import\s*\{[^}]*\}/.test(clause) &&
        /\{([^}]*)\}/
          .exec(clause)[1]
          .split(',')
          .every((name) => !name.trim() || /^type\s/.test(name.trim()))
      )
        continue;
      const target = resolve(file, match[1]);
      if (target) edges.add(target);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function circlesOf(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const indices = new Map();
  const low = new Map();
  const found = [];
  const visit = (v) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), indices.get(w)));
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.map((f) => path.relative(root, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

const areas = process.argv.slice(2).length ? process.argv.slice(2) : ['extension', 'worker', 'web'];
let failed = false;
for (const area of areas) {
  const dir = path.join(root, area);
  if (!fs.existsSync(dir)) continue;
  const circles = circlesOf(graphOf(sourcesIn(dir)));
  const strict = area === 'extension';
  if (!circles.length) {
    console.log(`Import circles in ${area}/: none`);
    continue;
  }
  if (strict) failed = true;
  console[strict ? 'error' : 'log'](
    `${strict ? '✗' : 'i'} Import circles in ${area}/: ${circles.length}${strict ? '' : ' (reported, not failing: its owners fix them)'}`,
  );
  for (const circle of circles) console[strict ? 'error' : 'log'](`  ${circle.join(' ↔ ')}`);
}
if (failed) process.exit(1);
