import fs from 'node:fs';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/** Worker tests: the real workerd runtime with local D1, KV and Durable Objects. */
export default defineConfig(async () => {
  // wrangler.toml serves the SPA build; the tests do not need it, but the folder must exist.
  fs.mkdirSync(path.join(import.meta.dirname, 'web/dist'), { recursive: true });
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    plugins: [
      cloudflareTest({
        // the development entry: the product's Worker plus the dev-only calls the tests use (outbox, seeder)
        main: './worker/dev/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ENVIRONMENT: 'development',
            JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789',
            PASSWORD_PEPPER: 'test-pepper',
            ADMIN_EMAIL: 'admin@example.com',
            ADMIN_PASSWORD: 'admin-password',
            PUBLIC_URL: 'http://localhost:8787',
            IDRAM_SECRET_KEY: 'test-idram-secret',
            DISABLE_RATE_LIMITS: 'true',
          },
        },
      }),
    ],
    test: {
      include: ['worker/**/*.test.ts'],
      setupFiles: ['./worker/test/apply-migrations.ts'],
      silent: 'passed-only' as const,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
});
