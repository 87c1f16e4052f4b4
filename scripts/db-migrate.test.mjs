// `npm run test:scripts` (node --test): the migrations over every database (issue 40 item 6). A
// shard whose migration fails stops the run with a non-zero exit and a message naming the shard and
// the migration, and no shard after it is touched; `npm run deploy` migrates before it deploys.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Miniflare } from 'miniflare';
import { migrateAll } from './db-migrate.mjs';
import { migrateLocal } from './migrate-local.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dirs = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const BINDINGS = ['DB', 'SHARD_1', 'SHARD_2', 'SHARD_3'];
const idOf = (i) => `00000000-0000-0000-0000-00000000000${i}`;

/**
 * A wrangler.toml with the control plane and three shards in a temporary folder. Every database
 * takes `migrations`, except SHARD_2, whose folder has a second migration that cannot run.
 */
function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-migrate-test-'));
  dirs.push(dir);
  const good = path.join(dir, 'migrations');
  const broken = path.join(dir, 'migrations-broken');
  fs.mkdirSync(good);
  fs.mkdirSync(broken);
  fs.writeFileSync(path.join(good, '0000_first.sql'), 'CREATE TABLE first (id integer PRIMARY KEY);\n');
  fs.writeFileSync(path.join(good, '0001_second.sql'), 'CREATE TABLE second (id integer PRIMARY KEY);\n');
  fs.writeFileSync(path.join(broken, '0000_first.sql'), 'CREATE TABLE first (id integer PRIMARY KEY);\n');
  fs.writeFileSync(path.join(broken, '0001_second.sql'), 'ALTER TABLE missing_table ADD note text;\n');
  const blocks = BINDINGS.map(
    (binding, i) =>
      `[[d1_databases]]\nbinding = "${binding}"\ndatabase_name = "test-${binding.toLowerCase()}"\ndatabase_id = "${idOf(i)}"\nmigrations_dir = "${binding === 'SHARD_2' ? 'migrations-broken' : 'migrations'}"\n`,
  );
  fs.writeFileSync(path.join(dir, 'worker.js'), 'export default {}\n');
  fs.writeFileSync(path.join(dir, 'wrangler.toml'), `name = "migrate-test"\nmain = "worker.js"\ncompatibility_date = "2026-04-01"\n\n${blocks.join('\n')}`);
  return { config: path.join(dir, 'wrangler.toml'), state: path.join(dir, 'state') };
}

/** The migrations each local database recorded, by binding (none: never migrated). */
async function recorded(state) {
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response(null) }',
    d1Databases: Object.fromEntries(BINDINGS.map((b, i) => [b, idOf(i)])),
    d1Persist: path.join(state, 'v3', 'd1'),
  });
  try {
    const out = {};
    for (const binding of BINDINGS) {
      const db = await mf.getD1Database(binding);
      const table = await db.prepare("select name from sqlite_master where name = 'd1_migrations'").first();
      out[binding] = table ? (await db.prepare('select name from d1_migrations order by id').all()).results.map((r) => r.name) : [];
    }
    return out;
  } finally {
    await mf.dispose();
  }
}

test('a failing shard stops the local run: its name and migration, exit 1, the shards after it untouched', { timeout: 180_000 }, async () => {
  const { config, state } = project();
  const run = spawnSync(process.execPath, ['scripts/db-migrate.mjs', '--local', '--persist-to', state, '--config', config], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.equal(run.status, 1, run.stderr);
  const [first] = run.stderr.trim().split('\n');
  assert.equal(first, 'Migration 0001_second.sql failed on SHARD_2 (test-shard_2).');
  assert.match(run.stderr, /no such table: missing_table/);
  assert.match(run.stderr, /Not migrated: SHARD_2, SHARD_3\./);
  assert.deepEqual(await recorded(state), {
    DB: ['0000_first.sql', '0001_second.sql'],
    SHARD_1: ['0000_first.sql', '0001_second.sql'],
    // wrangler applies (and records) a database's migrations one at a time: the one before the failure stays
    SHARD_2: ['0000_first.sql'],
    SHARD_3: [],
  });
});

test("the browser tests' one-process migration stops at the failing shard the same way", { timeout: 60_000 }, async () => {
  const { config, state } = project();
  await assert.rejects(migrateLocal(state, config), { message: /^Migration 0001_second\.sql failed on SHARD_2: .*no such table: missing_table/ });
  assert.deepEqual(await recorded(state), {
    DB: ['0000_first.sql', '0001_second.sql'],
    SHARD_1: ['0000_first.sql', '0001_second.sql'],
    SHARD_2: ['0000_first.sql'],
    SHARD_3: [],
  });
});

test('the remote run goes DB first, one database at a time, and stops at the first that fails', async () => {
  const { config } = project();
  const asked = [];
  const apply = async (db) => {
    asked.push(db.binding);
    if (db.binding === 'SHARD_2')
      throw Object.assign(new Error('exit 1'), {
        output: '✘ [ERROR] Migration 0001_second.sql failed with the following errors:\n✘ [ERROR] no such table: missing_table',
      });
    return ['0001_second.sql'];
  };
  await assert.rejects(migrateAll({ mode: 'remote', config, apply, log: () => {} }), (err) => {
    assert.match(
      err.message,
      /^Migration 0001_second\.sql failed on SHARD_2 \(test-shard_2\)\.\nMigrated: DB, SHARD_1\.\nNot migrated: SHARD_2, SHARD_3\.\nNothing was deployed/,
    );
    return true;
  });
  assert.deepEqual(asked, ['DB', 'SHARD_1', 'SHARD_2']);
});

test('npm run deploy migrates every database before `wrangler deploy`, and stops if that fails', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const steps = scripts.deploy.split('&&').map((s) => s.trim());
  const migrate = steps.indexOf('node scripts/db-migrate.mjs --remote');
  assert.ok(migrate >= 0, scripts.deploy);
  assert.ok(steps.indexOf('wrangler deploy') > migrate, scripts.deploy);
  assert.ok(!/[;|]/.test(scripts.deploy), 'every step joined with && (a failed step stops the rest)');
});
