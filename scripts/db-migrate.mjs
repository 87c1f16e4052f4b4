// Applies the D1 migrations to every database of wrangler.toml: DB (the control plane) and each
// SHARD_* (docs/decisions/0181-moving-companies.md). The bindings are read with wrangler's own
// config reader, so a shard added to wrangler.toml is migrated without touching this list.
//
//   node scripts/db-migrate.mjs --local [--persist-to <dir>]   npm start, npm run dev, db:migrate:local, the browser tests
//   node scripts/db-migrate.mjs --remote                        npm run db:migrate:remote and npm run deploy
//
// Remote databases are migrated one after the other, DB first; the first that fails stops the run
// with its name (and `npm run deploy` with it, before the new Worker goes live). Local ones at once.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const wranglerBin = path.join(root, 'node_modules', '.bin', 'wrangler');

/** The D1 bindings of wrangler.toml that take the migrations (every `[[d1_databases]]` with `migrations_dir`), DB first. */
export async function d1Databases(configPath = path.join(root, 'wrangler.toml')) {
  const { unstable_readConfig } = await import('wrangler');
  const config = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  const databases = (config.d1_databases ?? []).filter((d) => d.migrations_dir);
  if (!databases.some((d) => d.binding === 'DB')) throw new Error(`${configPath} has no D1 binding DB`);
  return databases
    .map((d) => ({ binding: d.binding, name: d.database_name ?? d.binding }))
    .sort((a, b) => (a.binding === 'DB' ? -1 : b.binding === 'DB' ? 1 : a.binding.localeCompare(b.binding, 'en', { numeric: true })));
}

/** `wrangler d1 migrations apply <binding>`: resolves with the migrations it applied, rejects with its output. */
function applyOne(binding, mode, persistTo) {
  const args = ['d1', 'migrations', 'apply', binding, `--${mode}`, ...(persistTo ? ['--persist-to', persistTo] : [])];
  return new Promise((resolve, reject) => {
    // CI=true: apply without asking (wrangler asks for confirmation in a terminal)
    const child = spawn(wranglerBin, args, { cwd: root, env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      // wrangler prints the list twice (to apply, then applied): the names marked ✅ were applied
      const applied = [...new Set(output.match(/\d{4}_[\w-]+\.sql(?=\s*│\s*✅)/g) ?? [])];
      if (code === 0) resolve(applied);
      else reject(Object.assign(new Error(`exit ${code}`), { output, applied }));
    });
  });
}

/**
 * Migrates every database; answers what each applied. A failure throws an Error whose message
 * names the database that failed and those left as they were.
 */
export async function migrateAll({ mode, persistTo, log = console.log } = {}) {
  if (mode !== 'local' && mode !== 'remote') throw new Error('mode is local or remote');
  const databases = await d1Databases();
  const results = [];
  const fail = (db, err, left) => {
    const done = results.map((r) => r.binding);
    const lines = [
      `Migrations failed on ${db.binding} (${db.name}).`,
      done.length ? `Migrated: ${done.join(', ')}.` : '',
      left.length ? `Not migrated: ${left.join(', ')}.` : '',
      mode === 'remote' ? 'Nothing was deployed: fix the migration or the database, then run it again (a migration applied once is not applied twice).' : '',
      '',
      String(err.output ?? err.message).trim(),
    ];
    return new Error(lines.filter((l, i) => l || i === 4).join('\n'));
  };
  if (mode === 'local') {
    const settled = await Promise.allSettled(databases.map((db) => applyOne(db.binding, mode, persistTo)));
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') results.push({ binding: databases[i].binding, applied: s.value });
    });
    const failed = settled.findIndex((s) => s.status === 'rejected');
    if (failed >= 0)
      throw fail(
        databases[failed],
        settled[failed].reason,
        databases.filter((_, i) => settled[i].status === 'rejected').map((d) => d.binding),
      );
  } else {
    for (const [i, db] of databases.entries()) {
      log(`  ${db.binding} (${db.name})…`);
      try {
        results.push({ binding: db.binding, applied: await applyOne(db.binding, mode, persistTo) });
      } catch (err) {
        throw fail(
          db,
          err,
          databases.slice(i).map((d) => d.binding),
        );
      }
    }
  }
  for (const r of results) log(`  ${r.binding}: ${r.applied.length ? `applied ${r.applied.join(', ')}` : 'up to date'}`);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const mode = argv.includes('--remote') ? 'remote' : argv.includes('--local') ? 'local' : null;
  const at = argv.indexOf('--persist-to');
  const persistTo = at >= 0 ? argv[at + 1] : undefined;
  if (!mode) {
    console.error('Usage: node scripts/db-migrate.mjs --local [--persist-to <dir>] | --remote');
    process.exit(2);
  }
  console.log(`Applying the D1 migrations to every database (${mode})…`);
  try {
    await migrateAll({ mode, persistTo });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
