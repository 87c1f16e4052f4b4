import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/** Worker tests: the real workerd runtime with local D1, KV and Durable Objects. */
export default defineConfig(async () => {
  // wrangler.toml serves the SPA build; the tests do not need it, but the folder must exist.
  fs.mkdirSync(path.join(import.meta.dirname, 'web/dist'), { recursive: true });
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  const devVars = parseEnv(fs.readFileSync(path.join(import.meta.dirname, '.dev.vars.example'), 'utf8'));
  return {
    plugins: [
      cloudflareTest({
        // the development entry: the product's Worker plus the dev-only calls the tests use (outbox, seeder)
        main: './worker/dev/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // the local development settings, whatever a developer's own .dev.vars says
          bindings: { ...devVars, TEST_MIGRATIONS: migrations, DISABLE_RATE_LIMITS: 'true' },
        },
      }),
    ],
    test: {
      include: ['worker/**/*.test.ts', 'extension/**/*.test.ts'],
      setupFiles: ['./worker/test/apply-migrations.ts'],
      silent: 'passed-only' as const,
      testTimeout: 30_000,
      // one workerd per core: vitest's default (cores - 1) left one of CI's two cores idle, and
      // the worker suite took 20 minutes on one (each test file has its own storage either way)
      maxWorkers: os.availableParallelism(),
      hookTimeout: 60_000,
    },
  };
});
