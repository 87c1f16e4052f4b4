// `npm run bench:scale` (plain Node, no server, about a second): how fast one D1 database fills
// and how busy it gets, from the demo company's shape. Prints the figures of
// docs/decisions/scale.md.
//
//   node bench/scale-sim.mjs                     the figures, with the row sizes measured below
//   node bench/scale-sim.mjs --measure FILE      measures the row sizes again from a local D1 file
//                                                (needs the sqlite3 command with dbstat, as Debian's)
//   node bench/scale-sim.mjs --json              the same figures as JSON
//   node bench/scale-sim.mjs --history-rows-per-day 1000
//                                                a busier team (the benchmark's: 40,000 rows in 40 days)
//
// Re-measuring: `npm start` (or wrangler dev with --persist-to DIR), `npm run seed:demo` (the
// defaults: 3 teams of a manager and 8 agents, 20,000 contact-history rows per team over 90 days),
// stop the server, then `--measure .wrangler/state/v3/d1/miniflare-D1DatabaseObject/<hash>.sqlite`.
import { execFileSync } from 'node:child_process';

const GB = 1e9;
/** D1's limit per database (paid plan). */
const DB_LIMIT_BYTES = 10 * GB;
const TEAM_COUNTS = [100, 1_000, 10_000];
const SHARD_COUNTS = [10, 100, 1_000];

// ---------------------------------------------------------------------------------------------
// Row sizes: bytes on disk per row, the table's B-tree plus every index on it.
// Measured 2026-11-24 on the default demo company (`POST /api/dev/seed` with `{}`) with
// `select name, sum(pgsize), sum(payload) from dbstat` over each table and its indexes:
//  - call_history: 60,000 rows in 26,341,376 bytes of pages: 439 B a row (274 B of table, 165 B
//    in its 4 indexes of then: primary key, team+date, user+date, user+client id). Its indexes
//    have changed since (migrations 0013-0015, BENCHMARKS.md); measured again on the benchmark's 40,000
//    rows of one team (the same builders: 274 B of table a row, as above): 797 B a row = 274 table
//    + 32 primary key + 52 user+client id + 90 user+date covering + 229 team+date covering the
//    searched and sorted columns + 120 team+Company + 1 for the hourly counts.
//  - filters: 600 filters with their MCs, members, contacts and FTS5 index: 1,898 B a filter.
//  - small tables (a few pages each, mostly empty): payload per row × 1.3 for page fill and cell
//    headers (call_history's pages hold 1.13 × its payload; rows written one at a time fill less).
// Tables the demo does not fill are estimated from their columns (stated per row).
const MEASURED = {
  call_history: { bytes: 797, how: 'measured: 40,000 rows with the indexes of migration 0015' },
  // + 245 B a filter for the derived list and search columns of migrations 0016/0017 (the filter
  // table's pages went from 4.3 to 9.2 MB for 20,000 filters, measured with that change)
  broker_filters: { bytes: 1898 + 245, how: 'measured: 600 filters with MCs, members, contacts, FTS5; + derived columns' },
  login_events: { bytes: Math.round(116.1 * 1.3), how: 'measured payload × 1.3 (133 rows)' },
  link_click_stats: { bytes: Math.round(99.2 * 1.3), how: 'measured payload × 1.3 (568 rows)' },
  active_loads: { bytes: Math.round(294.2 * 1.3), how: 'measured payload × 1.3 (75 rows)' },
  payments: { bytes: Math.round(274 * 1.3), how: 'measured payload × 1.3 (8 rows)' },
  broker_filter_events: { bytes: 250, how: 'estimated: 4 ids (84 B), kind, changes JSON ~60 B, time, one index' },
  payment_items_receipts: { bytes: 400, how: 'estimated: one item and one receipt row per payment' },
  subscription_reminders: { bytes: 120, how: 'estimated: user id, kind, period, time' },
};

function measure(file) {
  const q = (sql) => execFileSync('sqlite3', ['-json', file, sql], { encoding: 'utf8' }).trim() || '[]';
  const sizeOf = (tables) =>
    JSON.parse(
      q(
        `select sum(pgsize) as pages, sum(payload) as payload from dbstat where name in (select name from sqlite_master where tbl_name in (${tables.map((t) => `'${t}'`).join(',')}) or tbl_name like '${tables[0]}%')`,
      ),
    )[0];
  const count = (t) => JSON.parse(q(`select count(*) as n from ${t}`))[0].n;
  const history = sizeOf(['call_history']);
  const filters = JSON.parse(
    q("select sum(pgsize) as pages from dbstat where name in (select name from sqlite_master where tbl_name like 'broker_filter%')"),
  )[0];
  const small = (t) => {
    const n = count(t);
    const s = JSON.parse(q(`select sum(payload) as payload from dbstat where name in (select name from sqlite_master where tbl_name = '${t}')`))[0];
    return n ? Math.round((s.payload / n) * 1.3) : MEASURED[t].bytes;
  };
  MEASURED.call_history = { bytes: Math.round(history.pages / count('call_history')), how: `measured: ${count('call_history')} rows` };
  MEASURED.broker_filters = { bytes: Math.round(filters.pages / count('broker_filters')), how: `measured: ${count('broker_filters')} filters` };
  for (const t of ['login_events', 'link_click_stats', 'active_loads', 'payments'])
    MEASURED[t] = { bytes: small(t), how: `measured payload × 1.3 (${count(t)} rows)` };
}

// ---------------------------------------------------------------------------------------------
// The demo company's shape per team per day (worker/dev/seed/builders.ts, seedSchema defaults):
// a manager and 8 agents; 20,000 contact-history rows over 90 days; 200 filters made over 180
// days; 3 active loads per agent (1 for the manager) dated over the last 5 days; a login on 70%
// of days per user; 3 short links per manager with 0-12 people and 0-2 bots a day, one referrer,
// country and device row each day; payments monthly per user.
const TEAM_USERS = 9;
const DAILY_ROWS = {
  call_history: { rows: 20_000 / 90, why: '20,000 rows per team over 90 days (about 25 calls and e-mails a person a day)' },
  broker_filters: { rows: 200 / 180, why: '200 filters made over 180 days' },
  broker_filter_events: { rows: (200 / 180) * 3, why: 'about 3 audit events per filter (created, edited, verified)' },
  active_loads: { rows: (8 * 3 + 1) / 5, why: '25 loads over 5 days; kept until the user deletes them (worst case: never)' },
  login_events: { rows: 0.7 * TEAM_USERS, why: 'a login on 70% of days by each of 9 people' },
  link_click_stats: { rows: 3 * ((12 / 13) * 4 + 2 / 3), why: '3 links a day: person, bot, referrer, country and device rows' },
  payments: { rows: TEAM_USERS / 30, why: 'each person pays monthly' },
  payment_items_receipts: { rows: TEAM_USERS / 30, why: 'with each payment' },
  subscription_reminders: { rows: (TEAM_USERS * 2) / 30, why: 'two reminders a month per person' },
};
// Not growing per day: users, MC settings and lines, filter types, promo codes (per team, fixed);
// sessions (a row per login, deleted at the user's next login after it expires: about 7 days of
// logins); link_click_flushes (pruned after an hour); email_tokens (one per mail link, small).
/** The fixed part of a team: 9 users, 27 MC settings and lines, 5 filter types (measured pages / rows). */
const TEAM_FIXED_BYTES = 9 * 400 + 27 * (415 + 125) + 5 * 300 + 44 * 200;

// ---------------------------------------------------------------------------------------------
// Retention: Contact History keeps HOT_DAYS in D1; older rows go to R2 as monthly per-team NDJSON
// objects. Everything else stays (together under 8 KB a team a day).
const HOT_DAYS = 400; // the 40-day view needs 40; 400 keeps a year of history for look-ups and the year-on-year view
const RETAINED = { call_history: HOT_DAYS };

function growth() {
  const perTable = Object.entries(DAILY_ROWS).map(([table, d]) => {
    const size = MEASURED[table];
    return {
      table,
      rowsPerDay: d.rows,
      bytesPerRow: size.bytes,
      bytesPerDay: d.rows * size.bytes,
      why: d.why,
      how: size.how,
      keptDays: RETAINED[table] ?? null,
    };
  });
  perTable.sort((a, b) => b.bytesPerDay - a.bytesPerDay);
  const total = perTable.reduce((s, t) => s + t.bytesPerDay, 0);
  return { perTable, total };
}

/** Days until `teams` teams fill one database; with retention, the retained tables stop growing after their window. */
function daysToFill(teams, perTable, withRetention) {
  const fixed = teams * TEAM_FIXED_BYTES;
  if (fixed >= DB_LIMIT_BYTES) return 0;
  let size = fixed;
  for (let day = 1; day <= 365 * 100; day++) {
    for (const t of perTable) {
      if (withRetention && t.keptDays !== null && day > t.keptDays) continue;
      size += teams * t.bytesPerDay;
    }
    if (size >= DB_LIMIT_BYTES) return day;
  }
  return Number.POSITIVE_INFINITY;
}

/** The largest number of teams one database holds for ever under retention (the retained windows full). */
function teamsAtSteadyState(perTable, years) {
  const perTeam = TEAM_FIXED_BYTES + perTable.reduce((s, t) => s + t.bytesPerDay * (t.keptDays !== null ? Math.min(t.keptDays, years * 365) : years * 365), 0);
  return Math.floor(DB_LIMIT_BYTES / perTeam);
}

// ---------------------------------------------------------------------------------------------
// One query at a time: the database time a team's working hour asks for, from the calls it makes
// and each call's service time on one connection (BENCHMARKS.md, bare runtime, 1-connection p50,
// which includes the Worker's own time: an upper bound on the database's share). Calls the bench
// does not measure take the nearest measured call's time, named below.
const SERVICE_MS = {
  status: 1, // GET /api/subscription/status, 1 ms
  links: 3, // GET /api/link, 3 ms
  users: 7, // GET /api/user (admin, 500 users), 7 ms
  broker: 8, // POST /api/broker on 20,000 filters, 8 ms (a team of 200 filters costs far less)
  historyWhole: 383, // POST /api/callHistory/getHistory, 40,000 rows at once, 383 ms
  historyPage: 6, // a Load of the paged form (BENCHMARKS.md): 6 ms with its summary (target 30)
  login: 16, // PBKDF2 CPU, not database time
};
/** A team's working hour (9 people, 8 working hours a day): calls and the service time each takes. */
const TEAM_HOUR = [
  {
    call: 'extension sync: status + MC settings + minified filters, every 5 minutes per person',
    perHour: TEAM_USERS * 12,
    ms: SERVICE_MS.status + SERVICE_MS.links + SERVICE_MS.links,
  },
  { call: 'POST /api/callHistory/log (a contact logged)', perHour: 20_000 / 90 / 8, ms: SERVICE_MS.links, writes: true },
  { call: 'POST /api/activeLoad/add', perHour: 5 / 8, ms: SERVICE_MS.links, writes: true },
  { call: 'filter searches and list loads (10 per person)', perHour: TEAM_USERS * 10, ms: SERVICE_MS.broker },
  { call: "the lead's queue count (every minute)", perHour: 60, ms: SERVICE_MS.status },
  { call: 'Contact History loads (manager 6, each agent 2)', perHour: 6 + 16, ms: null },
  { call: 'users, lines, links, profile screens (5 per person)', perHour: TEAM_USERS * 5, ms: SERVICE_MS.users },
  { call: 'status on focus (10 per person)', perHour: TEAM_USERS * 10, ms: SERVICE_MS.status },
];

function load(historyMs) {
  const rows = TEAM_HOUR.map((c) => ({ ...c, ms: c.ms ?? historyMs, busyMs: c.perHour * (c.ms ?? historyMs) }));
  const busyMs = rows.reduce((s, r) => s + r.busyMs, 0);
  const calls = rows.reduce((s, r) => s + r.perHour, 0);
  // one database serves one query at a time: 3,600,000 ms of work an hour at 100%; keep it under
  // 50% busy so a burst does not queue for long (an M/M/1 queue at 50% waits one service time on average)
  // with reads on replicas (docs/decisions/0015-read-replicas.md) the primary still runs the writes
  // and every call's token check (a point lookup; status's whole 1 ms is its upper bound)
  const primaryMs = rows.reduce((s, r) => s + (r.writes ? r.busyMs : 0), 0) + calls * SERVICE_MS.status;
  return {
    rows,
    calls,
    busyMs,
    teamsAt100: Math.floor(3_600_000 / busyMs),
    teamsAt50: Math.floor(1_800_000 / busyMs),
    primaryMs,
    primaryTeamsAt50: Math.floor(1_800_000 / primaryMs),
  };
}

// ---------------------------------------------------------------------------------------------
// Shards (docs/decisions/0174-company-shards.md, 0181-moving-companies.md): each SHARD_* holds
// whole companies, so a shard holds what one database holds (the steady state with retention
// above, or the load at 50% busy, whichever is smaller). What every team shares is the control
// plane (DB): the account directory, companies, money and API keys, and the company -> shard
// lookup every isolate makes once a minute per company it serves (worker/lib/shards.ts).
const CONTROL = {
  // 9 accounts (user id, e-mail, company, time: ~200 B with its two indexes), the company row
  fixedBytes: TEAM_USERS * 200 + 150,
  // payments and their items and receipts, kept for ever (the same rows as above, now in DB)
  bytesPerDay: DAILY_ROWS.payments.rows * MEASURED.payments.bytes + DAILY_ROWS.payment_items_receipts.rows * MEASURED.payment_items_receipts.bytes,
  // a point lookup by primary key; a login reads the directory (two lookups) and writes nothing here
  lookupMs: SERVICE_MS.status,
  perTeamHour: {
    placement: 60, // one company -> shard lookup a minute per isolate: one isolate per team assumed
    logins: (0.7 * TEAM_USERS * 2) / 8, // a login's two directory reads, 70% of days, 8 hours
  },
};

function shardCapacity(loadBound, storageBound) {
  const perTeamControlMs = Object.values(CONTROL.perTeamHour).reduce((a, b) => a + b, 0) * CONTROL.lookupMs;
  const controlLoadTeams = Math.floor(1_800_000 / perTeamControlMs);
  const perTeamShard = Math.min(loadBound, storageBound);
  return SHARD_COUNTS.map((shards) => {
    const teams = shards * perTeamShard;
    // the control plane's own 10 GB: the teams' fixed rows and their money rows growing for ever
    const controlBytesFixed = teams * CONTROL.fixedBytes;
    const controlDaysToFill = controlBytesFixed >= DB_LIMIT_BYTES ? 0 : (DB_LIMIT_BYTES - controlBytesFixed) / (teams * CONTROL.bytesPerDay);
    return {
      shards,
      perShard: perTeamShard,
      teams: Math.min(teams, controlLoadTeams),
      byShards: teams,
      controlLoadTeams,
      controlYearsToFill: controlDaysToFill / 365,
    };
  });
}

// ---------------------------------------------------------------------------------------------
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const args = process.argv.slice(2);
const measureAt = args.indexOf('--measure');
if (measureAt >= 0) measure(args[measureAt + 1]);
const historyAt = args.indexOf('--history-rows-per-day');
if (historyAt >= 0) {
  const rows = Number(args[historyAt + 1]);
  if (!(rows > 0)) throw new Error('--history-rows-per-day needs a positive number');
  DAILY_ROWS.call_history = { rows, why: `${fmt(rows)} rows per team a day (--history-rows-per-day)` };
  TEAM_HOUR[1].perHour = rows / 8;
}
const { perTable, total } = growth();
const fills = TEAM_COUNTS.map((teams) => ({
  teams,
  gbPerYear: (teams * total * 365) / GB,
  daysWithout: daysToFill(teams, perTable, false),
  daysWith: daysToFill(teams, perTable, true),
}));
const loads = { wholeHistory: load(SERVICE_MS.historyWhole), pagedHistory: load(SERVICE_MS.historyPage) };
const steady = { fiveYears: teamsAtSteadyState(perTable, 5), tenYears: teamsAtSteadyState(perTable, 10) };
const sharded = shardCapacity(loads.pagedHistory.teamsAt50, steady.tenYears);

if (args.includes('--json')) {
  console.log(
    JSON.stringify({ perTable, totalBytesPerTeamDay: total, fills, loads, steady, sharded }, (_k, v) => (v === Number.POSITIVE_INFINITY ? 'never' : v), 2),
  );
  process.exit(0);
}

const years = (days) => (!Number.isFinite(days) ? 'never' : days < 365 ? `${fmt(days)} days` : `${fmt(days)} days (${fmt(days / 365, 1)} years)`);
console.log('Growth per team per day (demo company shape: a manager and 8 agents)\n');
console.log('| table | rows/day | bytes/row | KB/day | share | kept in D1 | source of the rows |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const t of perTable)
  console.log(
    `| ${t.table} | ${fmt(t.rowsPerDay, 1)} | ${fmt(t.bytesPerRow)} | ${fmt(t.bytesPerDay / 1000, 1)} | ${fmt((100 * t.bytesPerDay) / total, 1)}% | ${t.keptDays ? `${t.keptDays} days` : 'always'} | ${t.why} |`,
  );
console.log(`| **total** | | | **${fmt(total / 1000, 1)}** | | | ${fmt((total * 365) / 1e6, 1)} MB a team a year |`);
console.log(`\nFixed per team (users, MC settings and lines, filter types, live sessions): ${fmt(TEAM_FIXED_BYTES / 1000, 1)} KB\n`);
console.log('When one 10 GB database fills\n');
console.log(`| teams | GB a year | without retention | with retention (Contact History ${HOT_DAYS} days in D1) |`);
console.log('| --- | --- | --- | --- |');
for (const f of fills) console.log(`| ${fmt(f.teams)} | ${fmt(f.gbPerYear, 1)} | ${years(f.daysWithout)} | ${years(f.daysWith)} |`);
console.log(
  `\nTeams one database holds with retention, once every retained window is full: ${fmt(steady.fiveYears)} after 5 years, ${fmt(steady.tenYears)} after 10\n`,
);
console.log('One query at a time: database time a team working hour asks for (1-connection p50 from BENCHMARKS.md, an upper bound)\n');
console.log('| call | calls/hour | ms each | ms/hour |');
console.log('| --- | --- | --- | --- |');
for (const r of loads.pagedHistory.rows) console.log(`| ${r.call} | ${fmt(r.perHour, 1)} | ${fmt(r.ms)} | ${fmt(r.busyMs)} |`);
for (const [label, l] of [
  ['history by the page (a Load 6 ms in BENCHMARKS.md)', loads.pagedHistory],
  ["the spec's whole-range getHistory (383 ms a 40,000-row load)", loads.wholeHistory],
])
  console.log(
    `\n${label}: ${fmt(l.calls)} calls and ${fmt(l.busyMs / 1000, 1)} s of database time per team hour (${fmt(l.calls / 3600, 2)} req/s); one database: ${fmt(l.teamsAt100)} teams at 100% busy, ${fmt(l.teamsAt50)} teams at 50%`,
  );
const p = loads.pagedHistory;
console.log(
  `\nWith the reads on replicas, the primary keeps the writes and the token checks: ${fmt(p.primaryMs / 1000, 2)} s per team hour, ${fmt(p.primaryTeamsAt50)} teams at 50% busy (each replica serves the reads of about ${fmt(p.teamsAt50)} teams)`,
);
console.log(
  `\nTeams the product holds on shards, retention on (a shard: the smaller of ${fmt(sharded[0].perShard)} teams by space after 10 years and ${fmt(loads.pagedHistory.teamsAt50)} at 50% busy; the control plane: its lookups at 50% busy and its own 10 GB)\n`,
);
console.log('| shards | teams the shards hold | control plane lookups hold | teams the product holds | control plane full in (money rows kept) |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of sharded)
  console.log(`| ${fmt(r.shards)} | ${fmt(r.byShards)} | ${fmt(r.controlLoadTeams)} | **${fmt(r.teams)}** | ${fmt(r.controlYearsToFill, 1)} years |`);
