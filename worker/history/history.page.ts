import { type SQL, sql } from 'drizzle-orm';
import { alias, SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { callHistory, callHistoryHours, mcSettings, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { jsonValues } from '../lib/db';
import { csvCell, HISTORY_CSV_COLUMNS } from './history.csv';
import type { HistoryDayDto, HistoryExportQuery, HistoryPage, HistoryPageQuery, HistoryRowDto, HistorySortColumn } from './history.schema';
import { HISTORY_SEARCH_COLUMNS } from './history.schema';
import { checkUsers, historyRowJson, type Scope, scopeFor } from './history.service';
import { archivedMonthsIn } from './history-archive.service';
import { daysOf } from './zone-days';

/** docs/decisions/0101-history-by-the-page.md: every statement reads a covering index; a page's rows are read whole only for the page. */

const c = alias(callHistory, 'c');
const u = alias(users, 'u');

/**
 * `inRange: false` for a statement that bounds the date itself: given two pairs of bounds SQLite
 * may search the index with the wider (measured: 70 ms instead of 6 on 17,000 rows).
 */
function loadConditions(scope: Scope, q: HistoryExportQuery, inRange = true): SQL[] | null {
  const kinds = [...(q.phoneLogs ? ['call'] : []), ...(q.emailLogs ? ['email'] : [])];
  if (!kinds.length) return null;
  const where = ['userId' in scope ? sql`${c.userId} = ${scope.userId}` : sql`${c.teamId} = ${scope.teamId}`];
  if (inRange) where.push(sql`${c.callDate} >= ${q.dateFrom.getTime()}`, sql`${c.callDate} < ${q.dateTo.getTime()}`);
  const usersList = [...new Set(q.usersList ?? [])];
  if (usersList.length && !('userId' in scope)) where.push(sql`${c.userId} in ${jsonValues(usersList)}`);
  if (kinds.length === 1) where.push(sql`${c.kind} = ${kinds[0]}`);
  if (q.board) where.push(sql`${c.board} = ${q.board}`);
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
 * The Company's first test is in the Company index's case-insensitive order, so SQLite finds its
 * rows in that index. A call's number is stored as digits, so "312 555" finds "+1 312 555 0142".
 */
function viewConditions(scope: Scope, q: HistoryExportQuery): SQL[] {
  const where: SQL[] = [];
  if (q.company) where.push(sql`${c.brokerName} = ${q.company} collate nocase`, sql`${c.brokerName} = ${q.company}`);
  if (q.search) {
    const pattern = likePattern(q.search);
    const members = 'userId' in scope ? sql`${users.id} = ${scope.userId}` : sql`(${users.id} = ${scope.teamId} or ${users.parentId} = ${scope.teamId})`;
    const any = [
      ...HISTORY_SEARCH_COLUMNS.map((column) => sql`${c[column]} like ${pattern} escape '\\'`),
      sql`${c.userId} in (select ${users.id} from ${users} where ${members} and ${users.name} like ${pattern} escape '\\')`,
    ];
    const digits = q.search.replace(/[\s().+-]/g, '');
    if (/^\d{3,}$/.test(digits) && digits !== q.search) any.push(sql`${c.contact} like ${`%${digits}%`}`);
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

/** Then Contact Date newest first, then the newer entry. */
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

const rowJson = historyRowJson(c, u);

/** D1's own statements, so several go in one `batch()` (drizzle batches its query builders, not raw SQL). */
const dialect = new SQLiteAsyncDialect({ casing: 'snake_case' });
const statement = (db: Db, query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
};
async function all<T>(db: Db, query: SQL): Promise<T[]> {
  return (await statement(db, query).all<T>()).results;
}

const and = (conditions: SQL[]) => sql.join(conditions, sql` and `);
/** The aliased tables as FROM items (an alias interpolates as its name alone). */
const fromC = sql`${callHistory} "c"`;
const fromRows = sql`${fromC} left join ${users} "u" on ${u.id} = ${c.userId}`;

const HOUR = 3_600_000;

/** A team's load of every user, MC and board: what call_history_hours counts. */
const wholeTeam = (scope: Scope, q: HistoryExportQuery): scope is { teamId: string } =>
  'teamId' in scope && !q.usersList?.length && !q.mcList?.length && !q.board;

/** The hours' count of the load's kinds. */
function hoursCount(q: HistoryExportQuery): SQL {
  const h = callHistoryHours;
  if (q.phoneLogs && q.emailLogs) return sql`${h.calls} + ${h.emails}`;
  return q.phoneLogs ? sql`${h.calls}` : sql`${h.emails}`;
}

/**
 * Skips the whole hours whose running count (call_history_hours) fits in the offset and walks only
 * the rest on the index: page 400 of 40,000 rows walks about one hour instead of 20,000 rows.
 */
function pickPastHours(scope: { teamId: string }, q: HistoryPageQuery, order: SQL): SQL {
  const h = callHistoryHours;
  const from = q.dateFrom.getTime();
  const to = q.dateTo.getTime();
  const desc = q.sort.dir === 'desc';
  const offset = (q.page - 1) * q.pageSize;
  // the load without its range: the statement bounds the date itself, once (SQLite searches the
  // index with one pair of bounds, and given two it may pick the wider)
  const rows = and(loadConditions(scope, q, false)!);
  // the whole hours of the range, and the cut hour at the end the order starts from
  const first = Math.ceil(from / HOUR);
  const last = Math.floor(to / HOUR);
  const [cutFrom, cutTo] = desc ? [last * HOUR, to] : [from, first * HOUR];
  const cutCount = sql`(select count(*) from ${fromC} where ${rows} and ${c.callDate} >= ${cutFrom} and ${c.callDate} < ${cutTo})`;
  // the farthest hour from the near end whose rows, with the nearer ones', are no more than the offset
  const skipped = sql`with w as (
      select ${h.hour} as hour, ${cutCount} + sum(${hoursCount(q)}) over (order by ${h.hour} ${sql.raw(desc ? 'desc' : 'asc')}) as upto
      from ${h} where ${h.teamId} = ${scope.teamId} and ${h.hour} >= ${first} and ${h.hour} < ${last}
    ), b as (select hour, upto from w where upto <= ${offset} order by hour ${sql.raw(desc ? 'asc' : 'desc')} limit 1)`;
  const range = desc
    ? sql`${c.callDate} >= ${from} and ${c.callDate} < coalesce((select hour * ${HOUR} from b), ${to})`
    : sql`${c.callDate} >= coalesce((select (hour + 1) * ${HOUR} from b), ${from}) and ${c.callDate} < ${to}`;
  return sql`${skipped} select ${rowid} from ${fromC} where ${rows} and ${range}
    order by ${order} limit ${q.pageSize} offset ${offset} - coalesce((select upto from b), 0)`;
}

/**
 * A team's whole load reads whole hours from call_history_hours and counts only the cut parts on
 * the index; a narrowed load counts on the index, one range per day. No load date bounds: see
 * `loadConditions`.
 */
function daysQuery(scope: Scope, q: HistoryExportQuery, days: { start: number; end: number }[]): SQL {
  const onRows = (ranges: [number, number, number][]) =>
    sql`select d.value ->> 0 as day, sum(${c.kind} = 'call') as calls, sum(${c.kind} = 'email') as emails
    from json_each(${JSON.stringify(ranges)}) d join ${fromC}
      on ${and(loadConditions(scope, q, false)!)} and ${c.callDate} >= d.value ->> 1 and ${c.callDate} < d.value ->> 2
    group by d.value ->> 0`;
  if (!wholeTeam(scope, q)) return onRows(days.map((d, i) => [i, d.start, d.end]));
  const hours: [number, number, number][] = [];
  const cuts: [number, number, number][] = [];
  for (const [i, { start, end }] of days.entries()) {
    const first = Math.ceil(start / HOUR);
    const last = Math.floor(end / HOUR);
    if (first >= last) {
      cuts.push([i, start, end]);
      continue;
    }
    hours.push([i, first, last]);
    if (start < first * HOUR) cuts.push([i, start, first * HOUR]);
    if (last * HOUR < end) cuts.push([i, last * HOUR, end]);
  }
  const h = callHistoryHours;
  const calls = q.phoneLogs ? sql`${h.calls}` : sql`0`;
  const emails = q.emailLogs ? sql`${h.emails}` : sql`0`;
  const fromHours = sql`select d.value ->> 0 as day, sum(${calls}) as calls, sum(${emails}) as emails
    from json_each(${JSON.stringify(hours)}) d join ${h}
      on ${h.teamId} = ${scope.teamId} and ${h.hour} >= d.value ->> 1 and ${h.hour} < d.value ->> 2
    group by d.value ->> 0`;
  return cuts.length ? sql`${fromHours} union all ${onRows(cuts)}` : fromHours;
}

/**
 * A team's: one index seek per name in the Company index's order (SQLite has no skip scan), kept
 * when the load has a row of it, instead of a pass over the load's rows.
 */
function companiesOf(scope: Scope, load: SQL[]): SQL {
  if (!('teamId' in scope)) return sql`select ${c.brokerName} as name from ${fromC} where ${and(load)} group by ${c.brokerName}`;
  const h = callHistory;
  const key = sql`${h.brokerName} collate nocase`;
  const first = (column: SQL, after: SQL) =>
    sql`(select ${column} from ${h} where ${h.teamId} = ${scope.teamId} and ${after} order by ${key}, ${h.brokerName} limit 1)`;
  // the next name: a later exact name in the same case-insensitive group, else the next group's first
  const next = (column: SQL) => sql`coalesce(${first(column, sql`${key} = k.nk and ${h.brokerName} > k.name`)}, ${first(column, sql`${key} > k.nk`)})`;
  return sql`with recursive k(nk, name) as (
      select ${first(key, sql`1`)}, ${first(sql`${h.brokerName}`, sql`1`)}
      union all select ${next(key)}, ${next(sql`${h.brokerName}`)} from k where k.name is not null
    )
    select k.name as name from k where k.name is not null
      and exists (select 1 from ${fromC} where ${c.brokerName} = k.name collate nocase and ${c.brokerName} = k.name and ${and(load)})`;
}

/** One batch: the page (with its count when narrowed), the days, the Companies. */
export async function historyPage(db: Db, caller: Caller, q: HistoryPageQuery): Promise<HistoryPage> {
  const scope = await scopeFor(db, caller, q.managerId);
  await checkUsers(db, scope, q.usersList ?? []);
  const days = daysOf(q.dateFrom, q.dateTo, q.timeZone);
  const base = { page: q.page, pageSize: q.pageSize };
  // the range's months in the archive, said with the load's summary (their rows are not in it)
  const archived = q.summary ? archivedMonthsIn(db, scope, q.dateFrom, q.dateTo) : null;
  // awaited below; a failed load must not leave it rejected unwatched meanwhile
  archived?.catch(() => undefined);
  const load = loadConditions(scope, q);
  if (!load) {
    if (!q.summary) return { ...base, rows: [], total: null, filteredTotal: 0, companies: null, perDay: null, archived: null };
    return {
      ...base,
      rows: [],
      total: 0,
      filteredTotal: 0,
      companies: [],
      perDay: days.map(({ date }) => ({ date, calls: 0, emails: 0 })),
      archived: await archived,
    };
  }
  const view = viewConditions(scope, q);
  const order = orderOf(q.sort);
  const pick = sql`limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`;
  // the page's rows are picked on an index (and the sort column), then only they are read whole;
  // sorted by Company, a team's rows are picked in the Company index's order (no sort of the range)
  const byCompany = q.sort.column === 'brokerName' && 'teamId' in scope;
  const pickFrom = byCompany ? sql`${callHistory} "c" indexed by call_history_team_company left join ${users} "u" on ${u.id} = ${c.userId}` : fromRows;
  const picked =
    q.sort.column === 'callDate' && !view.length && wholeTeam(scope, q)
      ? pickPastHours(scope, q, order)
      : sql`select ${rowid} from ${pickFrom} where ${and([...load, ...view])} order by ${order} ${pick}`;
  const pageRows = statement(db, sql`select ${rowJson} as j from ${fromRows} where ${rowid} in (${picked}) order by ${order}`);
  // when a search or Company narrows the load, its matches are counted apart: the page itself
  // stops at its last row, and a count reads no more than it must
  const matches = view.length ? statement(db, sql`select count(*) as n from ${fromC} where ${and([...load, ...view])}`) : null;
  const perDay = statement(db, daysQuery(scope, q, days));
  const companies = statement(db, companiesOf(scope, load));
  // the load's days and Companies only when the client has not got them
  const reads = [pageRows, ...(matches ? [matches] : []), ...(q.summary ? [perDay, companies] : [])];
  const results = await db.$client.batch(reads);
  const pageResult = results[0]!.results as { j: string }[];
  const filteredTotal = matches ? Number((results[1]!.results as { n: number }[])[0]?.n ?? 0) : null;
  const rows = pageResult.map((r) => JSON.parse(r.j) as HistoryRowDto);
  if (!q.summary) return { ...base, rows, total: null, filteredTotal, companies: null, perDay: null, archived: null };
  const dayResult = results.at(-2)!.results as { day: number; calls: number; emails: number }[];
  const companyResult = results.at(-1)!.results as { name: string }[];
  const perDayDto = days.map(({ date }) => ({ date, calls: 0, emails: 0 }));
  let total = 0;
  for (const row of dayResult) {
    const day = perDayDto[Number(row.day)];
    if (!day) continue;
    day.calls += Number(row.calls);
    day.emails += Number(row.emails);
    total += Number(row.calls) + Number(row.emails);
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
    archived: await archived,
  };
}

export const EXPORT_PAGE_ROWS = 2000;

/** Scope and users are checked first, so a refused export answers its 4xx before any CSV. */
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
