// `npm run restore:drill`: the restore drill of docs/guides/operations.md, on the local database.
// It copies the local D1 of `npm start` (.wrangler/state, or --state DIR) into a scratch project so
// the developer's own database is never touched, counts the rows of every table, exports the rows
// the way an off-site copy is taken (`wrangler d1 export --no-schema --table …` naming every
// table: D1 refuses to export a database with a virtual table, the filters' FTS5 index, unless
// the tables are named), wipes the database, restores it (the migrations, then the rows, then the
// FTS index rebuilt) and checks every table's rows against the counts taken before. Exit code 1
// when any differs.
//   node scripts/restore-drill.mjs [--state DIR] [--keep]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const source = path.resolve(opt('--state') ?? path.join(root, '.wrangler', 'state'));
const keep = args.includes('--keep');

/** Tables the triggers of the migrations keep (rebuilt from the rows they derive from, never imported). */
const DERIVED = new Set(['call_history_hours', 'filter_team_stamps']);
const FTS = 'broker_filters_fts';
const skipped = (name) => name.startsWith('sqlite_') || name.startsWith('_cf_') || name === 'd1_migrations' || name === FTS || name.startsWith(`${FTS}_`);

/**
 * The backup as files of at most `limit` bytes of whole lines (`d1 export` writes one statement
 * per line), each starting with the export's own PRAGMAs so every part defers foreign keys.
 */
function splitSql(file, limit) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const pragmas = lines.filter((l) => /^PRAGMA /i.test(l)).join('\n');
  const parts = [];
  let chunk = [];
  let size = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    const part = `${file}.${parts.length + 1}.sql`;
    fs.writeFileSync(part, `${pragmas}\n${chunk.join('\n')}\n`);
    parts.push(part);
    chunk = [];
    size = 0;
  };
  for (const line of lines) {
    if (!line.trim() || /^PRAGMA /i.test(line)) continue;
    if (size + line.length > limit) flush();
    chunk.push(line);
    size += line.length + 1;
  }
  flush();
  return parts;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-restore-drill-'));
const run = (cmd, { json = false } = {}) => {
  const out = execFileSync(wrangler, cmd, {
    cwd: scratch,
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  }).toString();
  return json ? JSON.parse(out.slice(out.indexOf('['))) : out;
};
const query = (sql) => run(['d1', 'execute', 'DB', '--local', '--json', '--command', sql], { json: true })[0].results;

/** The tables in the order the migrations created them. */
const tables = () => query("select name from sqlite_master where type = 'table' order by rowid").map((r) => r.name);

/** Rows of each table, and the derived tables' own checks: the hours' totals, the index's rows. */
function measure() {
  const names = tables().filter((n) => !skipped(n) || n === FTS);
  // one row of subqueries (D1 caps a compound SELECT's terms)
  const counts = query(`select ${names.map((n) => `(select count(*) from "${n}") as "${n}"`).join(', ')}`)[0];
  const [hours] = query('select coalesce(sum(calls), 0) as calls, coalesce(sum(emails), 0) as emails from call_history_hours');
  // a zero hour (every call of it deleted) stays in the original and is not rebuilt: the totals are what the screens read
  counts['call_history_hours (calls)'] = hours.calls;
  counts['call_history_hours (emails)'] = hours.emails;
  delete counts.call_history_hours;
  // the stamps are random per write: one per team with filters is what matters
  counts.filter_team_stamps = query('select count(distinct team_id) as n from broker_filters')[0].n;
  return counts;
}

try {
  fs.copyFileSync(path.join(root, 'wrangler.toml'), path.join(scratch, 'wrangler.toml'));
  fs.cpSync(path.join(root, 'migrations'), path.join(scratch, 'migrations'), { recursive: true });
  fs.mkdirSync(path.join(scratch, 'web', 'dist'), { recursive: true });
  fs.mkdirSync(path.join(scratch, 'worker'), { recursive: true });
  if (fs.existsSync(path.join(source, 'v3', 'd1'))) {
    fs.cpSync(source, path.join(scratch, '.wrangler', 'state'), { recursive: true });
    console.log(`1. Copied the local database from ${path.relative(root, source) || source}`);
  } else {
    console.log(`1. No local database at ${source} (run npm start, then npm run seed:demo): the drill runs on an empty one`);
  }
  // the copy is brought up to this checkout's migrations, as a deployment would be
  run(['d1', 'migrations', 'apply', 'DB', '--local']);

  const before = measure();
  const total = Object.entries(before).reduce((n, [, v]) => n + v, 0);
  console.log(`2. Counted ${Object.keys(before).length} tables (${total} rows)`);

  // the rows alone (the schema comes from the migrations), every table but the derived ones
  const backup = path.join(scratch, 'backup.sql');
  const data = tables().filter((n) => !skipped(n) && !DERIVED.has(n));
  run(['d1', 'export', 'DB', '--local', '--no-schema', ...data.flatMap((n) => ['--table', n]), '--output', backup]);
  console.log(`3. Exported the rows of ${data.length} tables to ${backup} (${(fs.statSync(backup).size / 1024).toFixed(0)} KB)`);

  fs.rmSync(path.join(scratch, '.wrangler', 'state', 'v3', 'd1'), { recursive: true, force: true });
  const wiped = tables().filter((n) => !skipped(n));
  console.log(`4. Wiped the database (${wiped.length} tables left)`);

  run(['d1', 'migrations', 'apply', 'DB', '--local']);
  // the triggers refill the derived tables as the rows come back (an empty database exports no
  // statement). One `execute --file` of a demo-sized backup (20 MB) fails locally with workerd's
  // "false == true", so the file goes back in parts of whole lines (one statement per line), as
  // `wrangler d1 execute --remote --file` takes a large file in parts too.
  const parts = splitSql(backup, 4 * 1024 * 1024);
  for (const part of parts) run(['d1', 'execute', 'DB', '--local', '--file', part]);
  // the FTS index as migration 0012 first filled it, now that every filter, alias and contact is back
  run([
    'd1',
    'execute',
    'DB',
    '--local',
    '--command',
    `delete from ${FTS}; insert into ${FTS} (rowid, name, aliases, mc, dot, contacts, comment) select f.rowid, f.name,
      coalesce((select group_concat(alias, ' | ') from broker_filter_aliases where filter_id = f.id), ''),
      coalesce(f.mc_number, ''), coalesce(f.dot_number, ''),
      coalesce((select group_concat(contact, ' | ') from broker_filter_contacts where filter_id = f.id), ''), f.comment from broker_filters f`,
  ]);
  console.log('5. Restored: migrations, the rows of each table, the FTS index rebuilt');

  const after = measure();
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const width = Math.max(...names.map((n) => n.length));
  let bad = 0;
  console.log(`\n${'table'.padEnd(width)}  before   after`);
  for (const name of names) {
    const ok = before[name] === after[name];
    if (!ok) bad++;
    console.log(`${name.padEnd(width)}  ${String(before[name] ?? '-').padStart(6)}  ${String(after[name] ?? '-').padStart(6)}${ok ? '' : '   <- differs'}`);
  }
  console.log(bad ? `\nFAIL: ${bad} table(s) differ` : `\nOK: every table has its rows back (${names.length} checked)`);
  process.exitCode = bad ? 1 : 0;
} finally {
  if (keep) console.log(`Kept the scratch project: ${scratch}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}
