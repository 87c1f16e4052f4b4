import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import type { DepOptimizationConfig } from 'vite';
import { defineConfig } from 'vitest/config';
import { startFmcsaStandIn } from './scripts/fmcsa-stand-in.mjs';
import { startMailStub } from './scripts/mail-stub.mjs';

/**
 * The packages the Worker's code imports (every bare specifier under worker/ that names a package
 * of package.json), for the test runtime to load pre-bundled: each test file starts a workerd of
 * its own and imports the app afresh, and the ~1,000 files of Sentry, drizzle, zod and the others,
 * sent one at a time, were half of the worker suite's time.
 */
function workerPackages(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'package.json'), 'utf8'));
  const known = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
  const found = new Set<string>();
  const files = fs.readdirSync(path.join(import.meta.dirname, 'worker'), { recursive: true, encoding: 'utf8' });
  for (const file of files.filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(import.meta.dirname, 'worker', file), 'utf8');
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^'.][^']*)'/g)) {
      const parts = spec!.split('/');
      const name = spec!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
      if (known.has(name) && name !== 'vitest' && !name.startsWith('@cloudflare/')) found.add(spec!);
    }
  }
  return [...found].sort();
}

type EsbuildPlugin = NonNullable<NonNullable<DepOptimizationConfig['esbuildOptions']>['plugins']>[number];
/** The runtime's own modules stay imports in the pre-bundled packages (esbuild would look for files). */
const runtimeModules: EsbuildPlugin = {
  name: 'runtime-modules',
  setup: (build) => build.onResolve({ filter: /^(node|cloudflare|workerd):/ }, (args) => ({ path: args.path, external: true })),
};

/** Worker tests: the real workerd runtime with local D1, KV and Durable Objects. */
export default defineConfig(async () => {
  // wrangler.toml serves the SPA build; the tests do not need it, but the folder must exist.
  fs.mkdirSync(path.join(import.meta.dirname, 'web/dist'), { recursive: true });
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  const devVars = parseEnv(fs.readFileSync(path.join(import.meta.dirname, '.dev.vars.example'), 'utf8'));
  // Every mail of the tests really goes through the queue to a Resend-shaped stub on the loopback
  // address (scripts/mail-stub.mjs), which the mail tests also tell to refuse or reject sends.
  const mailStub = await startMailStub();
  const mail = {
    MAIL_PROVIDER: 'resend',
    MAIL_API_URL: `${mailStub.url}/emails`,
    MAIL_API_KEY: mailStub.apiKey,
    MAIL_STUB_URL: mailStub.url,
    // tries 1, 2, 4 s apart, so an outage of a few seconds is retried within the test
    MAIL_RETRY_SECONDS: '1',
  };
  // FMCSA's QCMobile: the local stand-in (scripts/fmcsa-stand-in.mjs), answering within 1 s or
  // given up, so a broker that never answers is a timeout within the test
  const fmcsa = await startFmcsaStandIn();
  const vetting = { FMCSA_URL: fmcsa.url, FMCSA_WEBKEY: fmcsa.webKey, FMCSA_STAND_IN_CONTROL: fmcsa.control, FMCSA_TIMEOUT_MS: '1000' };
  return {
    plugins: [
      cloudflareTest({
        // the development entry: the product's Worker plus the dev-only calls the tests use (outbox, seeder)
        main: './worker/dev/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // the local development settings, whatever a developer's own .dev.vars says
          bindings: { ...devVars, ...mail, ...vetting, TEST_MIGRATIONS: migrations, DISABLE_RATE_LIMITS: 'true' },
          // two databases left unmigrated: worker/shards/migrations-compat.test.ts migrates one a
          // migration behind and one a migration ahead, and serves a company from each
          d1Databases: ['COMPAT_BEHIND', 'COMPAT_AHEAD'],
          // the mail queue as deployed, with 3 retries instead of 10 so a mail that always fails
          // reaches the dead-letter queue within seconds (1 + 2 + 4 s of backoff)
          queueConsumers: {
            'freightdesk-mail': { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 3, deadLetterQueue: 'freightdesk-mail-dead' },
            'freightdesk-mail-dead': { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 3 },
          },
        },
      }),
    ],
    test: {
      include: ['worker/**/*.test.ts', 'extension/**/*.test.ts', 'web/**/*.test.ts'],
      setupFiles: ['./worker/test/apply-migrations.ts'],
      silent: 'passed-only' as const,
      testTimeout: 30_000,
      // one workerd per core: vitest's default (cores - 1) left one of CI's two cores idle, and
      // the worker suite took 20 minutes on one (each test file has its own storage either way)
      maxWorkers: os.availableParallelism(),
      hookTimeout: 60_000,
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: workerPackages(),
            esbuildOptions: { plugins: [runtimeModules] },
          },
        },
      },
    },
  };
});
