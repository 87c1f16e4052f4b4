import type { D1Migration } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { allShards, d1Of } from '../lib/d1';

// vitest.config.ts reads the migrations in Node and hands them over as a test-only binding; every
// database (the control plane and each shard) takes the same migrations. Each test file starts on
// empty databases, so this runs per file: one batch per database (applyD1Migrations' batch per
// migration cost 27 round trips each, a quarter of a small file's time).
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
const bindings = env as unknown as Bindings;

/** As applyD1Migrations (its `d1_migrations` table, the ones applied skipped), in one transaction. */
async function migrate(db: D1Database) {
  await db
    .prepare(
      'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
    )
    .run();
  const applied = new Set((await db.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()).results.map((r) => r.name));
  const insert = db.prepare('INSERT INTO d1_migrations (name) VALUES (?)');
  const pending = TEST_MIGRATIONS.filter((m) => !applied.has(m.name));
  if (pending.length) await db.batch(pending.flatMap((m) => [...m.queries.map((q) => db.prepare(q)), insert.bind(m.name)]));
}

await Promise.all(allShards(bindings).map((shard) => migrate(d1Of(bindings, shard))));
