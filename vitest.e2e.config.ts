import { defineConfig } from 'vitest/config';

/** Browser tests: headless Chromium (Debian's) against the real app served by `wrangler dev`. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
