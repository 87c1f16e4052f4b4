// Applies the D1 migrations to every database of wrangler.toml: DB (the control plane) and each
// SHARD_* (docs/decisions/0181-moving-companies.md). The bindings are read with wrangler's own
// config reader, so a shard added to wrangler.toml is migrated without touching this list.
//
//   node scripts/db-migrate.mjs --local [--persist-to <dir>]   npm start, npm run dev, db:migrate:local
//   node scripts/db-migrate.mjs --remote                        npm run db:migrate:remote and npm run deploy
//   --config <wrangler.toml>                                    another configuration (the script's test)
//
// One database after the other, DB first, locally as remotely: the first that fails stops the run
// with its name and the migration that failed, exit 1 (and `npm run deploy` with it, before the new
// Worker goes live); the databases after it are not touched (docs/decisions/0186-migrations-stop-at-a-failing-shard.md).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

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
function applyOne({ binding }, { mode, persistTo, config }) {
  const args = ['d1', 'migrations', 'apply', binding, `--${mode}`, ...(persistTo ? ['--persist-to', persistTo] : []), ...(config ? ['--config', config] : [])];
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
      output = stripVTControlCharacters(output);
      // wrangler prints the list twice (to apply, then applied): the names marked ✅ were applied
      const applied = [...new Set(output.match(/\d{4}_[\w-]+\.sql(?=\s*│\s*✅)/g) ?? [])];
      if (code === 0) resolve(applied);
      else reject(Object.assign(new Error(`exit ${code}`), { output, applied }));
    });
  });
}

/** The migration wrangler names as failed ("Migration 0031_x.sql failed with the following errors"), if it says. */
const failedMigration = (output) => /Migration (\S+\.sql) failed/.exec(output)?.[1] ?? /(\d{4}_[\w-]+\.sql)\s*│\s*❌/.exec(output)?.[1];

/**
 * Migrates every database, one after the other, DB first; answers what each applied. The first
 * failure throws an Error whose first line names the migration and the database, then those
 * migrated and those left as they were. `apply` replaces wrangler (the test's remote run).
 */
export async function migrateAll({ mode, persistTo, config, log = console.log, apply = applyOne } = {}) {
  if (mode !== 'local' && mode !== 'remote') throw new Error('mode is local or remote');
  const databases = await d1Databases(config);
  const results = [];
  for (const [i, db] of databases.entries()) {
    if (mode === 'remote') log(`  ${db.binding} (${db.name})…`);
    try {
      results.push({ binding: db.binding, applied: await apply(db, { mode, persistTo, config }) });
    } catch (err) {
      const output = stripVTControlCharacters(String(err.output ?? err.message)).trim();
      const migration = failedMigration(output);
      const done = results.map((r) => r.binding);
      const left = databases.slice(i).map((d) => d.binding);
      const lines = [
        `${migration ? `Migration ${migration} failed` : 'Migrations failed'} on ${db.binding} (${db.name}).`,
        done.length ? `Migrated: ${done.join(', ')}.` : null,
        `Not migrated: ${left.join(', ')}.`,
        mode === 'remote'
          ? 'Nothing was deployed: fix the migration or the database, then run it again (a migration applied once is not applied twice).'
          : null,
        '',
        output,
      ];
      throw new Error(lines.filter((l) => l !== null).join('\n'));
    }
  }
  for (const r of results) log(`  ${r.binding}: ${r.applied.length ? `applied ${r.applied.join(', ')}` : 'up to date'}`);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const mode = argv.includes('--remote') ? 'remote' : argv.includes('--local') ? 'local' : null;
  const option = (name) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const persistTo = option('--persist-to');
  const config = option('--config');
  if (!mode) {
    console.error('Usage: node scripts/db-migrate.mjs --local [--persist-to <dir>] | --remote [--config <wrangler.toml>]');
    process.exit(2);
  }
  console.log(`Applying the D1 migrations to every database (${mode})…`);
  try {
    await migrateAll({ mode, persistTo, config: config && path.resolve(config) });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
