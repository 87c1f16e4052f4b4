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
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
}));
