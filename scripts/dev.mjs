// `npm run dev`: the Worker on 8787 plus Vite's hot-reloading dev server on 5173 (proxying /api).
import { spawn } from 'node:child_process';
import { applyMigrations, buildWeb, startServer } from './local-server.mjs';

buildWeb();
applyMigrations();
const server = await startServer({ port: 8787 });
const vite = spawn('npx', ['vite', '--config', 'web/vite.config.ts', '--port', '5173'], { stdio: 'inherit' });
console.log('Open http://localhost:5173 (hot reload); the API runs on http://localhost:8787');
const stop = () => {
  server.stop();
  vite.kill();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
