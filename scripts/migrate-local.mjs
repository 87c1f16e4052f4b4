// Applies the D1 migrations to every local database of wrangler.toml (the control plane and each
// shard) in a `--persist-to` folder, as `wrangler d1 migrations apply <binding> --local` would, in
// one process: a wrangler per database cost the browser tests seconds of CPU each.
// Usage: node scripts/migrate-local.mjs <persist-to folder>
import fs from 'node:fs';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_readConfig, unstable_splitSqlQuery } from 'wrangler';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Migrates every D1 database of wrangler.toml under `persistTo`; returns the bindings migrated. */
export async function migrateLocal(persistTo) {
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  const databases = config.d1_databases.map((d) => ({
    binding: d.binding,
    id: d.preview_database_id ?? d.database_id,
    dir: path.join(ROOT, d.migrations_dir ?? 'migrations'),
  }));
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response(null, { status: 404 }) }',
    d1Databases: Object.fromEntries(databases.map((d) => [d.binding, d.id])),
    // wrangler's layout, so `wrangler dev --persist-to` and `wrangler d1 … --local` find them
    d1Persist: path.join(persistTo, 'v3', 'd1'),
  });
  try {
    for (const { binding, dir } of databases) {
      const db = await mf.getD1Database(binding);
      // wrangler's own table, so a later `wrangler d1 migrations apply` sees them applied
      await db
        .prepare(
          'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
        )
        .run();
      const applied = new Set((await db.prepare('SELECT name FROM d1_migrations').all()).results.map((r) => r.name));
      const names = fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.sql') && !applied.has(n))
        .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
      const insert = db.prepare('INSERT INTO d1_migrations (name) VALUES (?)');
      const statements = names.flatMap((name) => [
        ...unstable_splitSqlQuery(fs.readFileSync(path.join(dir, name), 'utf8')).map((q) => db.prepare(q)),
        insert.bind(name),
      ]);
      // one batch, one transaction: a database is migrated whole or not at all
      if (statements.length) await db.batch(statements);
    }
  } finally {
    await mf.dispose();
  }
  return databases.map((d) => d.binding);
}

if (process.argv[1] === import.meta.filename) {
  const persistTo = process.argv[2];
  if (!persistTo) {
    console.error('usage: node scripts/migrate-local.mjs <persist-to folder>');
    process.exit(2);
  }
  await migrateLocal(path.resolve(persistTo));
}
