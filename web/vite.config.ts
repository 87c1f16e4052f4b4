import { fileURLToPath } from 'node:url';
import { cloudflare } from '@cloudflare/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  plugins: [
    react(),
    // `npm run dev`: the Worker runs in workerd inside Vite's dev server (local D1/KV/Durable
    // Objects in .wrangler/state, as `npm start` uses), so SPA and API share one origin with hot
    // reload. The build stays the SPA alone: `wrangler dev` and `wrangler deploy` bundle the Worker.
    // Locally the Worker is the development entry (the product plus the dev-only calls).
    command === 'serve' &&
      cloudflare({ configPath: '../wrangler.toml', config: { main: 'worker/dev/index.ts' }, persistState: { path: '../.wrangler/state' } }),
  ],
  // react-router's package exports name its development build for every condition (a stop-gap of
  // theirs, remix-run/react-router#12532): the production build is named here, which drops the dev
  // warnings and about 10 KB gzip from the login page
  resolve:
    command === 'build'
      ? { alias: [{ find: /^react-router$/, replacement: fileURLToPath(new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url)) }] }
      : undefined,
  // no modulepreload polyfill: every browser the app supports has modulepreload (Chrome 66, Firefox 115, Safari 17)
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', modulePreload: { polyfill: false } },
}));
