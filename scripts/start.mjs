// `npm start`: builds the SPA, applies the D1 migrations locally, serves app and API on
// http://localhost:$PORT (default 8787) and creates the first admin.
import { applyMigrations, buildWeb, startServer } from './local-server.mjs';

const port = Number(process.env.PORT ?? 8787);
console.log('Building the web app…');
buildWeb();
console.log('Applying D1 migrations to the local database…');
applyMigrations(process.env.STATE_DIR);
const server = await startServer({ port, persistTo: process.env.STATE_DIR, ip: process.env.HOST });
console.log(`
  FreightDesk is running on http://localhost:${port}
  First admin: ${server.vars.ADMIN_EMAIL} / ${server.vars.ADMIN_PASSWORD}   (set ADMIN_EMAIL / ADMIN_PASSWORD to change)
  Dev mail outbox: http://localhost:${port}/api/dev/outbox
`);
const stop = () => {
  server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.child.on('exit', (code) => process.exit(code ?? 0));
