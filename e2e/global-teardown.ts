import fs from 'node:fs';

/** Removes the run's local database and SPA copy (playwright.config.ts made the folder). */
export default function teardown() {
  if (process.env.E2E_STATE) fs.rmSync(process.env.E2E_STATE, { recursive: true, force: true });
}
