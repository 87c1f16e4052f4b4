import { eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { brokerFilterAliases, brokerFilterContacts, brokerFilterEvents, brokerFilters, brokerFilterUsers } from '../db/schema';
import type { Caller, Db } from '../env';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { chunks, isUniqueViolation, runBatch } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { type Message, textOf } from '../lib/messages';
import { teamUsers } from '../lib/team';
import { normalizeBrokerName, normalizeCarrierNumber } from './broker-name';
import { teamTypes } from './filter-types.service';
import {
  badContactMessage,
  cleanContacts,
  FILTER_MESSAGES,
  type FilterDto,
  type ImportPreviewRow,
  type ImportRow,
  MAX_CONTACTS,
  statusLabel,
  usersLabel,
} from './filters.schema';
import { fillNormalNames } from './filters-identity.service';
import { selectDtos, type Viewer, viewerOf, visibleTo } from './filters-visibility.service';

const f = brokerFilters;

interface Planned {
  preview: ImportPreviewRow;
  create?: { name: string; normalName: string; typeId: string; comment: string; contacts: string[]; mcNumber: string | null; dotNumber: string | null };
}

const digitsOrNull = (raw: string): string | null | false => {
  const v = normalizeCarrierNumber(raw);
  if (!v) return null;
  return /^\d{1,8}$/.test(v) ? v : false;
};

/** A row naming the same broker as an earlier row of the file is refused as that row's copy. */
async function plan(db: Db, v: Viewer, rows: ImportRow[]): Promise<Planned[]> {
  await fillNormalNames(db, v.teamId);
  const [types, existing, aliases] = await Promise.all([
    teamTypes(db, v.teamId),
    db.select({ name: f.name, normalName: f.normalName, mcNumber: f.mcNumber }).from(f).where(eq(f.teamId, v.teamId)),
    db
      .select({ normalAlias: brokerFilterAliases.normalAlias, name: f.name })
      .from(brokerFilterAliases)
      .innerJoin(f, eq(f.id, brokerFilterAliases.filterId))
      .where(eq(brokerFilterAliases.teamId, v.teamId)),
  ]);
  const typeByName = new Map(types.map((t) => [t.typeName.trim().toLowerCase(), t.id]));
  const byName = new Map<string, string>();
  const byMc = new Map<string, string>();
  for (const e of existing) {
    if (e.normalName) byName.set(e.normalName, e.name);
    if (e.mcNumber) byMc.set(e.mcNumber, e.name);
  }
  for (const a of aliases) byName.set(a.normalAlias, a.name);
  const inFileName = new Map<string, number>();
  const inFileMc = new Map<string, number>();
  return rows.map((r, i): Planned => {
    const row = i + 1;
    const name = r.name.trim();
    const refuse = (reason: string | Message): Planned => ({
      preview: { row, name, outcome: 'refuse', ...(typeof reason === 'string' ? { detail: reason } : { detail: textOf(reason), code: reason.code }) },
    });
    const normalName = normalizeBrokerName(name);
    if (!normalName) return refuse(FILTER_MESSAGES.nameEmpty);
    const mcNumber = digitsOrNull(r.mcNumber);
    if (mcNumber === false) return refuse(FILTER_MESSAGES.badMcNumber);
    const dotNumber = digitsOrNull(r.dotNumber);
    if (dotNumber === false) return refuse(FILTER_MESSAGES.badDotNumber);
    const match = byName.get(normalName) ?? (mcNumber ? byMc.get(mcNumber) : undefined);
    if (match !== undefined) return { preview: { row, name, outcome: 'match', detail: match } };
    const earlier = inFileName.get(normalName) ?? (mcNumber ? inFileMc.get(mcNumber) : undefined);
    if (earlier !== undefined) return refuse(`Same broker as row ${earlier}`);
    if (!r.type.trim()) return refuse(FILTER_MESSAGES.typeEmpty);
    const typeId = typeByName.get(r.type.trim().toLowerCase());
    if (!typeId) return refuse(`Unknown type "${r.type.trim()}"`);
    const rawContacts = r.contacts.split(/[;,\n]/);
    const badContact = badContactMessage(rawContacts);
    if (badContact) return refuse(badContact);
    const contacts = cleanContacts(rawContacts);
    if (contacts.length > MAX_CONTACTS) return refuse(`At most ${MAX_CONTACTS} contacts`);
    inFileName.set(normalName, row);
    if (mcNumber) inFileMc.set(mcNumber, row);
    return {
      preview: { row, name, outcome: 'create', detail: '' },
      create: { name, normalName, typeId, comment: r.comment.trim(), contacts, mcNumber, dotNumber },
    };
  });
}

const summary = (planned: Planned[]) => ({
  create: planned.filter((p) => p.preview.outcome === 'create').length,
  match: planned.filter((p) => p.preview.outcome === 'match').length,
  refuse: planned.filter((p) => p.preview.outcome === 'refuse').length,
});

/** POST /api/broker/import/preview: nothing is written. */
export async function previewImport(db: Db, caller: Caller, rows: ImportRow[]) {
  const v = await viewerOf(db, caller, true);
  const planned = await plan(db, v, rows);
  return { rows: planned.map((p) => p.preview), ...summary(planned) };
}

/** Rows per INSERT…SELECT: one JSON parameter each, well under D1's 100 KB statement and 2 MB value limits. */
const ROWS_PER_STATEMENT = 250;

/**
 * One db.batch (all or nothing), one INSERT…SELECT over json_each per chunk. A filter saved meanwhile
 * with the same name or MC fails the batch on the unique index: 409, nothing written.
 */
export async function runImport(db: Db, caller: Caller, rows: ImportRow[]) {
  const v = await viewerOf(db, caller, true);
  const planned = await plan(db, v, rows);
  const creates = planned.flatMap((p) => (p.create ? [{ ...p.create, id: randomId() }] : []));
  const counts = summary(planned);
  if (!creates.length) return { message: 'Nothing to import', ...counts };
  const userIds = [...new Set([v.caller.id, ...(await teamUsers(db, v.teamId)).map((u) => u.id)])];
  const now = Date.now();
  const base = sql`(select coalesce(max(${f.index}), 0) from ${f} where ${f.teamId} = ${v.teamId})`;
  const statements: BatchItem<'sqlite'>[] = [];
  for (const [n, part] of chunks(creates, ROWS_PER_STATEMENT).entries()) {
    const offset = n * ROWS_PER_STATEMENT;
    const json = JSON.stringify(part.map((c, i) => ({ ...c, n: offset + i + 1 })));
    // The contact and user rows go first: the filter row's insert trigger then derives its lists
    // once (migration 0017), where rows added after it would each rewrite them (5,000 × 40 users).
    statements.push(
      db.insert(brokerFilterContacts).select(sql`select j.value ->> 'id', c.value, c.key from json_each(${json}) j, json_each(j.value -> 'contacts') c`),
      db.insert(brokerFilterUsers).select(sql`select j.value ->> 'id', u.value from json_each(${json}) j, json_each(${JSON.stringify(userIds)}) u`),
      // the base index is read by each statement: earlier chunks of this batch already raised it, so
      // offsets restart; the derived columns (last seven) are placeholders the insert trigger replaces
      db.insert(f).select(
        sql`select j.value ->> 'id', ${v.teamId}, ${v.caller.id}, j.value ->> 'name', j.value ->> 'normalName', j.value ->> 'mcNumber',
          j.value ->> 'dotNumber', null, j.value ->> 'typeId', j.value ->> 'comment', 1, 1, 0, 1, 0, 1,
          ${base} + (j.value ->> 'n') - ${offset}, ${now}, ${now}, '[]', '[]', '[]', '[]', 2, '', ''
          from json_each(${json}) j`,
      ),
      db
        .insert(brokerFilterEvents)
        .select(
          sql`select lower(hex(randomblob(10))), j.value ->> 'id', ${v.teamId}, ${v.caller.id}, 'imported', json_object('row', j.value ->> 'n'), ${now} from json_each(${json}) j`,
        ),
    );
  }
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (isUniqueViolation(err)) throw apiError(COMMON_MESSAGES.importMeanwhile);
    throw err;
  }
  return { message: `${counts.create} ${counts.create === 1 ? 'filter' : 'filters'} imported`, ...counts };
}

/** A CSV cell: quoted when needed; a cell a spreadsheet would run as a formula gets a leading apostrophe. */
function csvCell(value: string): string {
  let v = value;
  if (/^[=@\t\r]/.test(v) || (/^[+-]/.test(v) && !/^[+-][\d\s().-]*$/.test(v))) v = `'${v}`;
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** The export's columns: the table's, with MC and DOT numbers; the import reads the same headers back. */
const EXPORT_COLUMNS: [string, (f: FilterDto, typeName: string, mcNames: string) => string][] = [
  ['name', (f) => f.name],
  ['type', (_f, typeName) => typeName],
  ['comment', (f) => f.comment],
  ['contacts', (f) => f.contacts.join('; ')],
  ['mcNumber', (f) => f.mcNumber ?? ''],
  ['dotNumber', (f) => f.dotNumber ?? ''],
  ['otherNames', (f) => f.aliases.join('; ')],
  ['users', (f) => usersLabel(f)],
  ['mcs', (_f, _t, mcNames) => mcNames],
  ['creator', (f) => f.creator.name],
  ['status', (f) => statusLabel(f)],
];

export async function exportFilters(db: Db, caller: Caller): Promise<string> {
  const v = await viewerOf(db, caller);
  const [types, filters, mcs] = await Promise.all([
    teamTypes(db, v.teamId),
    selectDtos(db, v, visibleTo(v), 1_000_000),
    db.all<{ id: string; name: string }>(sql`select id, name from mc_settings where user_id = ${v.teamId}`),
  ]);
  const typeName = new Map(types.map((t) => [t.id, t.typeName]));
  const mcName = new Map(mcs.map((m) => [m.id, m.name]));
  const lines = [EXPORT_COLUMNS.map(([h]) => h).join(',')];
  for (const x of filters) {
    const mcNames = x.allMC ? 'All MC' : x.mcList.map((id) => mcName.get(id) ?? 'Removed MC').join('; ');
    lines.push(EXPORT_COLUMNS.map(([, get]) => csvCell(get(x, typeName.get(x.type) ?? '', mcNames))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
