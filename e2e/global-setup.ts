import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM helper without types
import { applyMigrations, buildWeb, startServer } from '../scripts/local-server.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/** Builds the SPA, starts the product on a fresh local database on 127.0.0.1 and a free port. */
export default async function setup(project: TestProject) {
  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-e2e-'));
  // Each run builds its own copy of the SPA, so parallel runs never share a half-written dist.
  let assets: string | undefined;
  if (!process.env.E2E_SKIP_BUILD) {
    assets = path.join(persistTo, 'dist');
    buildWeb(assets);
  }
  applyMigrations(persistTo);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = await startServer({ port, ip: '127.0.0.1', persistTo, assets, quiet: true, overrides: { DISABLE_RATE_LIMITS: 'true' } });
  project.provide('baseURL', server.url);
  return () => {
    server.stop();
    fs.rmSync(persistTo, { recursive: true, force: true });
  };
}
