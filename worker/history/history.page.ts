import { type SQL, sql } from 'drizzle-orm';
import { alias, SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { callHistory, mcSettings, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { jsonValues } from '../lib/db';
import { csvCell, HISTORY_CSV_COLUMNS } from './history.csv';
import { HISTORY_SEARCH_TEXT } from './history.schema';
import type { HistoryDayDto, HistoryExportQuery, HistoryPageQuery, HistoryRowDto, HistorySortColumn } from './history.schema';
import { checkUsers, historyRowJson, type Scope, scopeFor } from './history.service';

/**
 * Contact History by the page (docs/decisions/0008-history.md, "By the page"): the server searches,
 * filters by Company, sorts and pages a load, and streams it as CSV. Every statement reads the
 * (team, date) or (user, date) covering index; the rows of a page are found on the index first and
 * read from the table only for the page itself.
 */

const c = alias(callHistory, 'c');
const u = alias(users, 'u');

/**
 * The load's rows: the caller's scope, the range, the users, the MCs and the kinds (what
 * getHistory answers). `inRange: false` leaves the range out, for a statement that bounds the date
 * itself (the days): SQLite searches the index with one pair of bounds, and given two it may pick
 * the wider (measured: 70 ms instead of 6 on 17,000 rows).
 */
function loadConditions(scope: Scope, q: HistoryExportQuery, inRange = true): SQL[] | null {
  const kinds = [...(q.phoneLogs ? ['call'] : []), ...(q.emailLogs ? ['email'] : [])];
  if (!kinds.length) return null;
  const where = ['userId' in scope ? sql`${c.userId} = ${scope.userId}` : sql`${c.teamId} = ${scope.teamId}`];
  if (inRange) where.push(sql`${c.callDate} >= ${q.dateFrom.getTime()}`, sql`${c.callDate} < ${q.dateTo.getTime()}`);
  const usersList = [...new Set(q.usersList ?? [])];
  if (usersList.length && !('userId' in scope)) where.push(sql`${c.userId} in ${jsonValues(usersList)}`);
  if (kinds.length === 1) where.push(sql`${c.kind} = ${kinds[0]}`);
  const mcList = [...new Set(q.mcList ?? [])];
  if (mcList.length) {
    // a team MC matches the rows on it and on every agent setting that points at it
    where.push(
      sql`${c.mcSettingId} in (select ${mcSettings.id} from ${mcSettings} where ${mcSettings.id} in ${jsonValues(mcList)} or ${mcSettings.parentMcId} in ${jsonValues(mcList)})`,
    );
  }
  return where;
}

/** LIKE's own characters in the user's words are matched as themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * The view's narrowing of the load: the Company (exact) and the search (case-insensitive, anywhere
 * in Agent, MC, Company, Address, Origin, Destination, Load Date or Contact; a call's number is
 * stored as digits, so the digits of "312 555" find "+1 312 555 0142"). The row's own text is
 * HISTORY_SEARCH_TEXT, which a team's search reads from its index (call_history_team_search); the
 * agents whose name matches are looked up once among the scope's users (the team's members now).
 */
function viewConditions(scope: Scope, q: HistoryExportQuery): SQL[] {
  const where: SQL[] = [];
  if (q.company) where.push(sql`${c.brokerName} = ${q.company}`);
  if (q.search) {
    const pattern = likePattern(q.search);
    const text = sql.raw(HISTORY_SEARCH_TEXT);
    const members = 'userId' in scope ? sql`${users.id} = ${scope.userId}` : sql`(${users.id} = ${scope.teamId} or ${users.parentId} = ${scope.teamId})`;
    const any = [
      sql`${text} like ${pattern} escape '\\'`,
      sql`${c.userId} in (select ${users.id} from ${users} where ${members} and ${users.name} like ${pattern} escape '\\')`,
    ];
    const digits = q.search.replace(/[\s().+-]/g, '');
    if (/^\d{3,}$/.test(digits) && digits !== q.search) any.push(sql`${text} like ${`%${digits}%`}`);
    where.push(sql`(${sql.join(any, sql` or `)})`);
  }
  return where;
}

/** The sort key of each column: text case-insensitively; Contact Date as stored. */
const SORT_KEYS: Record<Exclude<HistorySortColumn, 'callDate'>, SQL> = {
  agent: sql`coalesce(${u.name}, '') collate nocase`,
  mcName: sql`${c.mcName} collate nocase`,
  brokerName: sql`${c.brokerName} collate nocase`,
  address: sql`${c.address} collate nocase`,
  origin: sql`${c.origin} collate nocase`,
  dest: sql`${c.dest} collate nocase`,
  loadDate: sql`${c.loadDate} collate nocase`,
};
const rowid = sql`${c}.rowid`;

/**
 * The order: the column in its direction, then Contact Date newest first, then the newer entry.
 * Sorting by Contact Date is the date and then the entry, both in the asked direction.
 */
function orderOf(sort: HistoryExportQuery['sort']): SQL {
  const dir = sql.raw(sort.dir);
  if (sort.column === 'callDate') return sql`${c.callDate} ${dir}, ${rowid} ${dir}`;
  return sql`${SORT_KEYS[sort.column]} ${dir}, ${c.callDate} desc, ${rowid} desc`;
}

/** Rows after `last` in `orderOf(sort)`: the export's keyset page. */
function after(sort: HistoryExportQuery['sort'], last: { k: string | number; d: number; r: number }): SQL {
  const dateThenRow = (cmp: SQL) => sql`(${c.callDate} ${cmp} ${last.d} or (${c.callDate} = ${last.d} and ${rowid} ${cmp} ${last.r}))`;
  if (sort.column === 'callDate') return dateThenRow(sql.raw(sort.dir === 'asc' ? '>' : '<'));
  const key = SORT_KEYS[sort.column];
  const cmp = sql.raw(sort.dir === 'asc' ? '>' : '<');
  return sql`(${key} ${cmp} ${last.k} or (${key} = ${last.k} and ${dateThenRow(sql.raw('<'))}))`;
}

/** One row as the spec's JSON object, built by SQLite (getHistory's own, on the aliased tables). */
const rowJson = historyRowJson(c, u);

/**
 * The statements as D1's own, so several go in one `batch()` (drizzle batches its query builders,
 * not raw SQL); written by drizzle's dialect with the app's snake_case columns.
 */
const dialect = new SQLiteAsyncDialect({ casing: 'snake_case' });
const d1 = (db: Db) => (db as unknown as { $client: D1Database }).$client;
const statement = (db: Db, query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return d1(db)
    .prepare(text)
    .bind(...params);
};
async function all<T>(db: Db, query: SQL): Promise<T[]> {
  return (await statement(db, query).all<T>()).results;
}

const and = (conditions: SQL[]) => sql.join(conditions, sql` and `);
/** The aliased tables as FROM items (an alias interpolates as its name alone). */
const fromC = sql`${callHistory} "c"`;
const fromRows = sql`${fromC} left join ${users} "u" on ${u.id} = ${c.userId}`;

/** The zone's calendar date of an instant, as YYYY-MM-DD, and the instant a zone's date starts. */
function zoneDays(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const wall = (t: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  };
  const offset = (t: number) => wall(t) - Math.floor(t / 1000) * 1000;
  return {
    dateOf: (t: number) => new Date(wall(t)).toISOString().slice(0, 10),
    /** The instant `date` (YYYY-MM-DD, may overflow: Jan 32 is Feb 1) starts in the zone. */
    startOf: (y: number, m: number, d: number) => {
      const guess = Date.UTC(y, m, d);
      const first = guess - offset(guess);
      return guess - offset(first);
    },
  };
}

/**
 * The chart's days over [from, to): each calendar day of the zone the range touches, the first
 * starting at `from` and the last ending at `to`, so the days' counts add up to the load's total.
 */
export function daysOf(from: Date, to: Date, timeZone: string): { date: string; start: number; end: number }[] {
  const zone = zoneDays(timeZone);
  const days: { date: string; start: number; end: number }[] = [];
  let start = from.getTime();
  const end = to.getTime();
  while (start < end && days.length < 45) {
    const date = zone.dateOf(start);
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const next = Math.min(end, Math.max(zone.startOf(y, m - 1, d + 1), start + 1));
    days.push({ date, start, end: next });
    start = next;
  }
  return days;
}

export interface HistoryPage {
  rows: HistoryRowDto[];
  /** Contacts in the load (range, users, MCs, kinds); null with `summary: false`. */
  total: number | null;
  /** Of them, those the search and the Company leave; null with `summary: false` when nothing narrows the load. */
  filteredTotal: number | null;
  page: number;
  pageSize: number;
  /** The Companies of the load, A to Z: the Company filter's choices; null with `summary: false`. */
  companies: string[] | null;
  /** Each day of the range in `timeZone`, days without contacts included; null with `summary: false`. */
  perDay: HistoryDayDto[] | null;
}

/**
 * POST /api/callHistory/page: one page of the view with the load's counts, Companies and days,
 * in one batch of three statements (the page, with its count when a search or Company narrows
 * the load; the days; the Companies).
 */
export async function historyPage(db: Db, caller: Caller, q: HistoryPageQuery): Promise<HistoryPage> {
  const scope = await scopeFor(db, caller, q.managerId);
  await checkUsers(db, scope, q.usersList ?? []);
  const days = daysOf(q.dateFrom, q.dateTo, q.timeZone);
  const base = { page: q.page, pageSize: q.pageSize };
  const load = loadConditions(scope, q);
  if (!load) {
    if (!q.summary) return { ...base, rows: [], total: null, filteredTotal: 0, companies: null, perDay: null };
    return { ...base, rows: [], total: 0, filteredTotal: 0, companies: [], perDay: days.map(({ date }) => ({ date, calls: 0, emails: 0 })) };
  }
  const view = viewConditions(scope, q);
  const order = orderOf(q.sort);
  // the page's rows are picked on the index (and the sort column), then only they are read whole
  const pick = sql`limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`;
  // the page's rows are picked on the index (and the sort column), then only they are read whole;
  // when a search or Company narrows the load, the same pass counts the matches (a window count:
  // one LIKE over the range, not two)
  const pageRows = view.length
    ? statement(
        db,
        sql`with p as (select ${rowid} as r, count(*) over () as n from ${fromRows} where ${and([...load, ...view])} order by ${order} ${pick})
        select ${rowJson} as j, p.n as n from p join ${fromC} on ${rowid} = p.r left join ${users} "u" on ${u.id} = ${c.userId}
        order by ${order}`,
      )
    : statement(
        db,
        sql`select ${rowJson} as j from ${fromRows}
        where ${rowid} in (select ${rowid} from ${fromRows} where ${and(load)} order by ${order} ${pick})
        order by ${order}`,
      );
  // the days: one index range per day
  const perDay = statement(
    db,
    sql`select d.key as day, sum(${c.kind} = 'call') as calls, count(*) as total
    from json_each(${JSON.stringify(days.map((d) => [d.start, d.end]))}) d join ${fromC}
      on ${and(loadConditions(scope, q, false)!)} and ${c.callDate} >= d.value ->> 0 and ${c.callDate} < d.value ->> 1
    group by d.key`,
  );
  const companies = statement(db, sql`select ${c.brokerName} as name from ${fromC} where ${and(load)} group by ${c.brokerName}`);
  // the load's days and Companies only when the client has not got them (two of the three reads)
  const results = q.summary ? await d1(db).batch([pageRows, perDay, companies]) : [await pageRows.all()];
  const pageResult = results[0]!.results as { j: string; n?: number }[];
  // a narrowed view's count came with its page; past the last page there is no row to carry it
  let filteredTotal: number | null = null;
  if (view.length) {
    filteredTotal = pageResult.length
      ? Number(pageResult[0]!.n)
      : Number((await all<{ n: number }>(db, sql`select count(*) as n from ${fromRows} where ${and([...load, ...view])}`))[0]?.n ?? 0);
  }
  const rows = pageResult.map((r) => JSON.parse(r.j) as HistoryRowDto);
  if (!q.summary) return { ...base, rows, total: null, filteredTotal, companies: null, perDay: null };
  const dayResult = results[1]!.results as { day: number; calls: number; total: number }[];
  const companyResult = results[2]!.results as { name: string }[];
  const perDayDto = days.map(({ date }) => ({ date, calls: 0, emails: 0 }));
  let total = 0;
  for (const row of dayResult) {
    const day = perDayDto[Number(row.day)];
    if (!day) continue;
    day.calls = Number(row.calls);
    day.emails = Number(row.total) - Number(row.calls);
    total += Number(row.total);
  }
  // one calendar day may appear twice when the range ends mid-day: the chart shows it once
  const merged: HistoryDayDto[] = [];
  for (const day of perDayDto) {
    const last = merged[merged.length - 1];
    if (last && last.date === day.date) {
      last.calls += day.calls;
      last.emails += day.emails;
    } else merged.push(day);
  }
  return {
    ...base,
    rows,
    total,
    filteredTotal: filteredTotal ?? total,
    companies: companyResult.map((r) => r.name).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    perDay: merged,
  };
}

/** How many rows each of the export's reads takes. */
export const EXPORT_PAGE_ROWS = 2000;

/**
 * POST /api/callHistory/export: the whole view (no row cap) as CSV text, read in keyset pages of
 * EXPORT_PAGE_ROWS as the client takes them. The caller's scope and the users are checked first, so
 * a refused export answers its 4xx before any CSV.
 */
export async function exportHistory(db: Db, caller: Caller, q: HistoryExportQuery): Promise<ReadableStream<Uint8Array>> {
  const scope = await scopeFor(db, caller, q.managerId);
  await checkUsers(db, scope, q.usersList ?? []);
  const load = loadConditions(scope, q);
  const where = load ? [...load, ...viewConditions(scope, q)] : null;
  const order = orderOf(q.sort);
  const key = q.sort.column === 'callDate' ? sql`${c.callDate}` : SORT_KEYS[q.sort.column];
  const encoder = new TextEncoder();
  let last: { k: string | number; d: number; r: number } | null = null;
  let done = !where;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // a BOM first, so spreadsheets read UTF-8
        controller.enqueue(encoder.encode(`\uFEFF${HISTORY_CSV_COLUMNS.map(([header]) => header).join(',')}\r\n`));
        return;
      }
      if (done || !where) {
        controller.close();
        return;
      }
      const rows = await all<{ j: string; k: string | number; d: number; r: number }>(
        db,
        sql`select ${rowJson} as j, ${key} as k, ${c.callDate} as d, ${rowid} as r
        from ${fromRows} where ${and(last ? [...where, after(q.sort, last)] : where)} order by ${order} limit ${EXPORT_PAGE_ROWS}`,
      );
      if (rows.length < EXPORT_PAGE_ROWS) done = true;
      const lastRow = rows[rows.length - 1];
      if (!lastRow) {
        controller.close();
        return;
      }
      last = { k: lastRow.k, d: Number(lastRow.d), r: Number(lastRow.r) };
      let text = '';
      for (const { j } of rows) {
        const row = JSON.parse(j) as HistoryRowDto;
        text += `${HISTORY_CSV_COLUMNS.map(([, get]) => csvCell(get(row))).join(',')}\r\n`;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}
