import { and, asc, desc, eq, inArray, isNull, lt, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import {
  brokerFilterAliases,
  brokerFilterContacts,
  brokerFilterEvents,
  brokerFilterMcs,
  brokerFilterNotes,
  brokerFilters,
  brokerFilterUsers,
  brokerVetting,
  type FilterEventKind,
  filterTeamStamps,
  filterTypes,
  users,
} from '../db/schema';
import type { Caller, Db } from '../env';
import { chunks, inJson, isUniqueViolation } from '../lib/db';
import { FMCSA_ACTOR, seedStatement } from '../vetting/vetting.service';
import { conflict, forbidden, notFound } from '../lib/errors';
import { randomId, sha256Hex } from '../lib/ids';
import { jsonArray, selectJsonRows } from '../lib/json-text';
import { isLead, teamIdOf, teamUsers, usableMcIds } from '../lib/team';
import { normalizeBrokerName, normalizeCarrierNumber } from './broker-name';
import { teamTypeIds } from './filter-types.service';
import {
  ALL_TYPES,
  type BulkInput,
  cleanContacts,
  duplicateMessage,
  HIDDEN_DUPLICATE_MESSAGE,
  FILTER_MESSAGES,
  type FilterDto,
  type FilterEventDto,
  type FilterNoteDto,
  type FilterSaveInput,
  type FilterSearchInput,
  SEARCH_LIMIT,
  type TeamUserDto,
} from './filters.schema';

const f = brokerFilters;
const aliasesOf = brokerFilterAliases;

/** Who is looking: the team, whether it is its lead, and what decides which filters apply to it. */
export interface Viewer {
  caller: Caller;
  teamId: string;
  lead: boolean;
  registeredAt: Date;
  mcIds: string[];
}

/**
 * A lead sees its whole team, so unless `full` (saving a filter, the minified list) its
 * registration date and MC ids are not read: the search costs two queries fewer.
 */
export async function viewerOf(db: Db, caller: Caller, full = false): Promise<Viewer> {
  const lead = isLead(caller);
  const base = { caller, teamId: teamIdOf(caller), lead };
  if (lead && !full) return { ...base, registeredAt: new Date(0), mcIds: [] };
  const [[me], mcIds] = await Promise.all([
    db.select({ registrationDate: users.registrationDate }).from(users).where(eq(users.id, caller.id)).limit(1),
    usableMcIds(db, caller),
  ]);
  return { ...base, registeredAt: me?.registrationDate ?? new Date(0), mcIds };
}

/**
 * Ids whose JSON form is `"id"` with nothing escaped (randomId's alphabet, test ids with dashes):
 * for them `instr(list_json, json_quote(id))` is exact, since a quote in the list's JSON only
 * opens or closes an element. Anything else is looked up in the list table.
 */
const plainId = (id: string) => /^[A-Za-z0-9_-]+$/.test(id);

/** The filter's JSON list column (migration 0017) holds `id`: one string search on the row, no index seek. */
const jsonListHas = (list: typeof f.mcListJson | typeof f.usersListJson, id: string) => sql`instr(${list}, json_quote(${id})) > 0`;

const onAnyMc = (ids: readonly string[]): SQL => {
  if (ids.length <= 20 && ids.every(plainId)) return or(eq(f.allMc, true), ...ids.map((id) => jsonListHas(f.mcListJson, id)))!;
  return or(
    eq(f.allMc, true),
    sql`exists (select 1 from ${brokerFilterMcs} where ${brokerFilterMcs.filterId} = ${f.id} and ${inJson(brokerFilterMcs.mcId, ids)})`,
  )!;
};

/** The filter's user list holds `user`. */
const listsUser = (user: string) =>
  plainId(user)
    ? jsonListHas(f.usersListJson, user)
    : sql`exists (select 1 from ${brokerFilterUsers} where ${brokerFilterUsers.filterId} = ${f.id} and ${brokerFilterUsers.userId} = ${user})`;

/** `broker_filters.users_kind`: the Users column, kept by triggers from only_creator and the user list. */
export const USERS_KIND = { onlyCreator: 0, teamWithMe: 1, teamWithoutMe: 2 } as const;

/**
 * The filter applies to the viewer as a user: its own creator-only filter, or a team filter that
 * lists it, or one with `newUsers` saved before the viewer joined (an agent added later).
 */
const appliesTo = (v: Viewer): SQL =>
  or(
    and(eq(f.creatorId, v.caller.id), eq(f.onlyCreator, true)),
    and(eq(f.onlyCreator, false), or(listsUser(v.caller.id), and(eq(f.newUsers, true), lt(f.updatedAt, v.registeredAt)))),
  )!;

/**
 * Which of the team's filters a viewer sees (docs/decisions/0007-filters.md): a lead sees all of its
 * team's; anyone else its own, plus the verified ones that apply to it on one of its MCs.
 */
export function visibleTo(v: Viewer): SQL {
  const team = eq(f.teamId, v.teamId);
  if (v.lead) return team;
  return and(team, or(eq(f.creatorId, v.caller.id), and(eq(f.isVerified, true), appliesTo(v), onAnyMc(v.mcIds))))!;
}

/** Edit rights: a lead edits every filter of its team; others only their own creator-only ones. */
const canEdit = (v: Viewer, row: { creatorId: string; onlyCreator: boolean }) => v.lead || (row.creatorId === v.caller.id && row.onlyCreator);

const dtoSelection = {
  id: f.id,
  name: f.name,
  typeId: f.typeId,
  comment: f.comment,
  isVisible: f.isVisible,
  isVerified: f.isVerified,
  onlyCreator: f.onlyCreator,
  allMc: f.allMc,
  onlyOnContacts: f.onlyOnContacts,
  newUsers: f.newUsers,
  index: f.index,
  creatorId: f.creatorId,
  creatorName: users.name,
  // the lists as the triggers of migration 0017 keep them on the row: no subquery per row
  mcList: f.mcListJson,
  usersList: f.usersListJson,
  contacts: f.contactsJson,
  aliases: f.aliasesJson,
  mcNumber: f.mcNumber,
  dotNumber: f.dotNumber,
  rejectedReason: f.rejectedReason,
};

export async function selectDtos(db: Db, v: Viewer, where: SQL | undefined, limit = SEARCH_LIMIT, newestFirst = false): Promise<FilterDto[]> {
  // The newest matches (highest index) are read first, so the walk stops at the cap; the answer
  // is oldest first, as the spec's list expects (the queue's newest first).
  const rows = await db.select(dtoSelection).from(f).leftJoin(users, eq(users.id, f.creatorId)).where(where).orderBy(desc(f.index)).limit(limit);
  if (!newestFirst) rows.reverse();
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    type: r.typeId,
    comment: r.comment,
    isVisible: r.isVisible,
    isVerified: r.isVerified,
    onlyCreator: r.onlyCreator,
    allMC: r.allMc,
    mcList: JSON.parse(r.mcList) as string[],
    usersList: JSON.parse(r.usersList) as string[],
    onlyOnContacts: r.onlyOnContacts,
    contacts: JSON.parse(r.contacts) as string[],
    newUsers: r.newUsers,
    canEdit: canEdit(v, r),
    creator: { _id: r.creatorId, name: r.creatorName ?? '' },
    index: r.index,
    mcNumber: r.mcNumber,
    dotNumber: r.dotNumber,
    aliases: JSON.parse(r.aliases) as string[],
    rejectedReason: r.rejectedReason,
  }));
}

/** A 0/1 column as a JSON boolean inside json_object. */
const jsonBool = (x: SQLWrapper) => sql`json(iif(${x}, 'true', 'false'))`;

/**
 * One filter as the spec's JSON object (FilterDto, key for key), built by SQLite from the row and
 * its derived lists (migration 0017): the Worker splices the rows into the answer instead of
 * materialising 500 objects and serialising them again (the house's way for big lists, as
 * Contact History's historyRowJson). One object a row, never the whole answer as one string
 * (D1's 2 MB string limit). `canEdit` is the same rule as `canEdit` below.
 */
const filterRowJson = (v: Viewer) => sql<string>`json_object(
  '_id', ${f.id},
  'name', ${f.name},
  'type', ${f.typeId},
  'comment', ${f.comment},
  'isVisible', ${jsonBool(f.isVisible)},
  'isVerified', ${jsonBool(f.isVerified)},
  'onlyCreator', ${jsonBool(f.onlyCreator)},
  'allMC', ${jsonBool(f.allMc)},
  'mcList', json(${f.mcListJson}),
  'usersList', json(${f.usersListJson}),
  'onlyOnContacts', ${jsonBool(f.onlyOnContacts)},
  'contacts', json(${f.contactsJson}),
  'newUsers', ${jsonBool(f.newUsers)},
  'canEdit', ${v.lead ? sql`json('true')` : jsonBool(sql`${f.creatorId} = ${v.caller.id} and ${f.onlyCreator}`)},
  'creator', json_object('_id', ${f.creatorId}, 'name', coalesce(${users.name}, '')),
  'index', ${f.index},
  'mcNumber', ${f.mcNumber},
  'dotNumber', ${f.dotNumber},
  'aliases', json(${f.aliasesJson}),
  'rejectedReason', ${f.rejectedReason}
)`;

/**
 * The search's answer as JSON text (FilterDto[]): the newest `limit` matches (highest index, so
 * the walk stops at the cap), oldest first as the spec's list expects, or newest first (the queue).
 */
export async function selectJson(db: Db, v: Viewer, where: SQL | undefined, limit = SEARCH_LIMIT, newestFirst = false): Promise<string> {
  const rows = await selectJsonRows(
    db,
    db
      .select({ j: filterRowJson(v) })
      .from(f)
      .leftJoin(users, eq(users.id, f.creatorId))
      .where(where)
      .orderBy(desc(f.index))
      .limit(limit),
  );
  if (!newestFirst) rows.reverse();
  return jsonArray(rows);
}

/**
 * The search box's term: part of the name or of an alias, part of a contact or of the comment, or
 * an MC or DOT number (with or without its prefix). From 3 characters on, the FTS5 trigram index
 * (`broker_filters_fts`, kept by triggers: migration 0012) answers "contains"; shorter terms, which
 * a trigram index cannot look up, scan the team's filters newest first, one instr on each of two
 * derived columns (lower-cased name, comment and contacts; the aliases' normal forms: migration
 * 0017). The columns hold one field a line and a 1–2 character term cannot hold a line break
 * (it is trimmed), so a match never spans two fields.
 */
function termMatches(term: string): SQL {
  const lower = term.toLowerCase();
  const digits = normalizeCarrierNumber(term);
  const byNumber = /^\d{1,8}$/.test(digits) ? [eq(f.mcNumber, digits), eq(f.dotNumber, digits)] : [];
  if ([...term].length >= 3) {
    // one FTS5 phrase: the term as typed, quotes doubled
    const phrase = `"${term.replace(/"/g, '""')}"`;
    return or(sql`${f}.rowid in (select rowid from broker_filters_fts where broker_filters_fts match ${phrase})`, ...byNumber)!;
  }
  const normal = normalizeBrokerName(term);
  const parts: SQL[] = [sql`instr(${f.searchText}, ${lower}) > 0`, ...byNumber];
  if (normal) parts.push(sql`instr(${f.aliasesText}, ${normal}) > 0`);
  return or(...parts)!;
}

/** POST /api/broker: the search form over the filters the caller sees, as the JSON text of FilterDto[]. */
export async function searchFilters(db: Db, caller: Caller, input: FilterSearchInput): Promise<string> {
  const v = await viewerOf(db, caller);
  const where: SQL[] = [visibleTo(v)];
  const term = input.name.trim();
  if (term) where.push(termMatches(term));
  if (input.type && input.type !== ALL_TYPES) where.push(eq(f.typeId, input.type));
  // the Users column's kinds (kept by the triggers of migration 0017), ORed; none or all ticked: any
  const ticked: [boolean | undefined, number][] = [
    [input.onlyCreator, USERS_KIND.onlyCreator],
    [input.teamWithMe, USERS_KIND.teamWithMe],
    [input.teamWithoutMe, USERS_KIND.teamWithoutMe],
  ];
  const kinds = ticked.filter(([on]) => on).map(([, kind]) => kind);
  if (kinds.length === 1) where.push(eq(f.usersKind, kinds[0]!));
  else if (kinds.length === 2) where.push(inArray(f.usersKind, kinds));
  if (input.onlyContacts) where.push(eq(f.onlyOnContacts, true));
  if (input.creator) where.push(eq(f.creatorId, input.creator));
  if (!input.allMC) where.push(onAnyMc(input.mcList));
  return selectJson(db, v, and(...where));
}

export async function visibleFilter(db: Db, v: Viewer, filterId: string) {
  const [row] = await db
    .select()
    .from(f)
    .where(and(eq(f.id, filterId), visibleTo(v)))
    .limit(1);
  if (!row) throw notFound(FILTER_MESSAGES.notFound);
  return row;
}

async function editableFilter(db: Db, v: Viewer, filterId: string) {
  const row = await visibleFilter(db, v, filterId);
  if (!canEdit(v, row)) throw forbidden(FILTER_MESSAGES.cannotEdit);
  return row;
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** A name's aliases as stored: trimmed, one per normal form, none equal to the name itself. */
export function cleanAliases(aliases: readonly string[], normalName: string): { alias: string; normalAlias: string }[] {
  const seen = new Set([normalName]);
  const out: { alias: string; normalAlias: string }[] = [];
  for (const raw of aliases) {
    const alias = raw.trim();
    const normalAlias = normalizeBrokerName(alias);
    if (normalAlias && !seen.has(normalAlias)) {
      seen.add(normalAlias);
      out.push({ alias, normalAlias });
    }
  }
  return out;
}

/** The checked, normalised content of the filter modal, ready to write. */
async function resolveInput(db: Db, v: Viewer, input: FilterSaveInput, creatorId: string) {
  if (!(await teamTypeIds(db, v.teamId)).has(input.type!)) throw notFound(FILTER_MESSAGES.typeNotFound);
  const mcList = input.allMC ? [] : unique(input.mcList);
  const usable = new Set(v.mcIds);
  if (mcList.some((id) => !usable.has(id))) throw notFound(FILTER_MESSAGES.mcNotFound);
  let usersList: string[];
  if (input.onlyCreator) usersList = [creatorId];
  else {
    usersList = unique(input.usersList);
    const team = new Set((await teamUsers(db, v.teamId)).map((u) => u.id));
    team.add(creatorId);
    if (usersList.some((id) => !team.has(id))) throw notFound(FILTER_MESSAGES.userNotFound);
  }
  const contacts = cleanContacts(input.contacts);
  const name = input.name.trim();
  const normalName = normalizeBrokerName(name);
  return {
    name,
    normalName,
    mcNumber: input.mcNumber ?? null,
    dotNumber: input.dotNumber ?? null,
    typeId: input.type!,
    comment: (input.comment ?? '').trim(),
    isVisible: input.isVisible,
    onlyCreator: input.onlyCreator,
    allMc: input.allMC,
    // with no contacts the contacts-only option is turned off (spec: Filter save)
    onlyOnContacts: contacts.length > 0 && input.onlyOnContacts,
    newUsers: !input.onlyCreator && input.newUsers,
    mcList,
    usersList,
    contacts,
    aliases: cleanAliases(input.aliases, normalName),
  };
}
type Resolved = Awaited<ReturnType<typeof resolveInput>>;

/** The filter row's own columns from the checked input; a lead's save verifies the filter, an agent's leaves it to the manager. */
const filterColumns = (r: Resolved, lead: boolean) => ({
  name: r.name,
  normalName: r.normalName,
  mcNumber: r.mcNumber,
  dotNumber: r.dotNumber,
  typeId: r.typeId,
  comment: r.comment,
  isVisible: r.isVisible,
  isVerified: lead,
  // a save is a new submission: a rejection is answered by the next save
  rejectedReason: null,
  onlyCreator: r.onlyCreator,
  allMc: r.allMc,
  onlyOnContacts: r.onlyOnContacts,
  newUsers: r.newUsers,
});

function childRows(db: Db, filterId: string, teamId: string, r: Pick<Resolved, 'mcList' | 'usersList' | 'contacts' | 'aliases'>) {
  return [
    ...chunks(r.mcList, 40).map((part) => db.insert(brokerFilterMcs).values(part.map((mcId) => ({ filterId, mcId })))),
    ...chunks(r.usersList, 40).map((part) => db.insert(brokerFilterUsers).values(part.map((userId) => ({ filterId, userId })))),
    ...chunks(
      r.contacts.map((contact, position) => ({ filterId, contact, position })),
      30,
    ).map((part) => db.insert(brokerFilterContacts).values(part)),
    ...chunks(r.aliases, 20).map((part) => db.insert(aliasesOf).values(part.map((a) => ({ filterId, teamId, ...a })))),
  ];
}

/** The broker's FMCSA record, made (not checked yet) when a save names an MC or DOT number without one. */
const vettingSeed = (db: Db, r: { mcNumber: string | null; dotNumber: string | null }) => {
  const statement = seedStatement(db, [{ dot: r.dotNumber, mc: r.mcNumber }]);
  return statement ? [statement] : [];
};

/** One audit row, for the batch that makes the change it records. */
export const eventRow = (db: Db, v: Viewer, filterId: string, kind: FilterEventKind, changes: Record<string, unknown> = {}, at = new Date()) =>
  db.insert(brokerFilterEvents).values({ id: randomId(), filterId, teamId: v.teamId, actorId: v.caller.id, kind, changes: JSON.stringify(changes), at });

/**
 * Audit rows for every filter `where` selects, written by one INSERT…SELECT so the rows recorded
 * are exactly the rows the next statement of the same batch changes (same `where`).
 */
export const eventsFor = (db: Db, v: Viewer, kind: FilterEventKind | SQL, changes: SQL, where: SQL) =>
  // columns in the table's order: id, filter_id, team_id, actor_id, kind, changes, at
  db
    .insert(brokerFilterEvents)
    .select(sql`select lower(hex(randomblob(10))), ${f.id}, ${f.teamId}, ${v.caller.id}, ${kind}, ${changes}, ${Date.now()} from ${f} where ${where}`);

/**
 * Rows saved before `normal_name` existed get it on the team's next write (SQL cannot compute the
 * normal form; docs/decisions/0088-duplicate-rule-in-database.md). A row whose normal name another filter of the team
 * already holds keeps its data and gets `<normal>#<id>`, so the team's older duplicates stay
 * readable and the rule holds for every new save. Each update is one statement: racing fills agree.
 */
export async function fillNormalNames(db: Db, teamId: string) {
  const rows = await db
    .select({ id: f.id, name: f.name })
    .from(f)
    .where(and(eq(f.teamId, teamId), isNull(f.normalName)))
    .limit(2000);
  if (!rows.length) return;
  const updates = rows.map((row) => {
    const normal = normalizeBrokerName(row.name) || row.id;
    return db
      .update(f)
      .set({
        normalName: sql`case
          when exists (select 1 from ${f} other where other.team_id = ${teamId} and other.normal_name = ${normal})
            or exists (select 1 from ${aliasesOf} where ${aliasesOf.teamId} = ${teamId} and ${aliasesOf.normalAlias} = ${normal})
          then ${`${normal}#${row.id}`} else ${normal} end`,
      })
      .where(and(eq(f.id, row.id), isNull(f.normalName)));
  });
  for (const part of chunks(updates, 50)) await db.batch(part as unknown as [(typeof part)[0]]);
}

/**
 * The duplicate rule's answer after a unique index or trigger refused a save: 409 naming the
 * filter that holds the name, an alias or the MC number (with its id when the caller sees it, so
 * the modal can offer "Open it").
 */
export async function duplicateError(
  db: Db,
  v: Viewer,
  r: { normalName: string; mcNumber: string | null; aliases: { normalAlias: string }[] },
  selfId?: string,
) {
  const names = [r.normalName, ...r.aliases.map((a) => a.normalAlias)];
  const byName = or(
    inJson(f.normalName, names),
    sql`${f.id} in (select ${aliasesOf.filterId} from ${aliasesOf} where ${aliasesOf.teamId} = ${v.teamId} and ${inJson(aliasesOf.normalAlias, names)})`,
  );
  const [hit] = await db
    .select({ id: f.id, name: f.name, visible: sql<number>`${visibleTo(v)}` })
    .from(f)
    .where(and(eq(f.teamId, v.teamId), selfId ? sql`${f.id} <> ${selfId}` : undefined, r.mcNumber ? or(byName, eq(f.mcNumber, r.mcNumber)) : byName))
    .limit(1);
  if (!hit) return conflict(duplicateMessage('this name'));
  // a filter the caller cannot see is not named: neither its name nor its id leaks
  if (!hit.visible) return conflict(HIDDEN_DUPLICATE_MESSAGE);
  return conflict(duplicateMessage(hit.name), { existingFilterId: hit.id, existingFilterName: hit.name });
}

async function batchOrDuplicate(db: Db, v: Viewer, r: Parameters<typeof duplicateError>[2], statements: unknown[], selfId?: string) {
  try {
    await db.batch(statements as unknown as Parameters<Db['batch']>[0]);
  } catch (err) {
    if (isUniqueViolation(err)) throw await duplicateError(db, v, r, selfId);
    throw err;
  }
}

/** POST /api/broker/add: a lead's filter is verified at once; an agent's waits for its manager. */
export async function addFilter(db: Db, caller: Caller, input: FilterSaveInput) {
  const v = await viewerOf(db, caller, true);
  const r = await resolveInput(db, v, input, caller.id);
  await fillNormalNames(db, v.teamId);
  const id = randomId();
  const now = new Date();
  await batchOrDuplicate(db, v, r, [
    db.insert(f).values({
      id,
      teamId: v.teamId,
      creatorId: caller.id,
      ...filterColumns(r, v.lead),
      // the team's next number, taken by the insert itself
      index: sql`(select coalesce(max(${f.index}), 0) + 1 from ${f} where ${f.teamId} = ${v.teamId})`,
      createdAt: now,
      updatedAt: now,
    }),
    ...childRows(db, id, v.teamId, r),
    eventRow(db, v, id, 'created', { name: r.name, ...(r.mcNumber ? { mcNumber: r.mcNumber } : {}) }, now),
    // a new MC or DOT number: its FMCSA record, checked by the vetting job (never in this request)
    ...vettingSeed(db, r),
  ]);
  return { message: v.lead ? FILTER_MESSAGES.added : FILTER_MESSAGES.addedUnverified, _id: id };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The audit's "fields changed": {field: [before, after]} for each field the save changes. */
function changedFields(before: FilterDto, r: Resolved): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  const pairs: [string, unknown, unknown][] = [
    ['name', before.name, r.name],
    ['type', before.type, r.typeId],
    ['comment', before.comment, r.comment],
    ['mcNumber', before.mcNumber, r.mcNumber],
    ['dotNumber', before.dotNumber, r.dotNumber],
    ['isVisible', before.isVisible, r.isVisible],
    ['onlyCreator', before.onlyCreator, r.onlyCreator],
    ['allMC', before.allMC, r.allMc],
    ['onlyOnContacts', before.onlyOnContacts, r.onlyOnContacts],
    ['newUsers', before.newUsers, r.newUsers],
  ];
  for (const [field, a, b] of pairs) if (a !== b) out[field] = [a, b];
  const lists: [string, string[], string[]][] = [
    ['mcList', [...before.mcList].sort(), [...r.mcList].sort()],
    ['usersList', [...before.usersList].sort(), [...r.usersList].sort()],
    ['contacts', before.contacts, r.contacts],
    ['aliases', before.aliases, r.aliases.map((a) => a.alias)],
  ];
  for (const [field, a, b] of lists) if (!sameList(a, b)) out[field] = [a, b];
  return out;
}

/**
 * POST /api/broker/update/details: a lead's save verifies the filter ('Verify and Update Info');
 * an agent's save of its own filter makes it unverified again until the manager looks at it.
 */
export async function updateFilter(db: Db, caller: Caller, input: FilterSaveInput) {
  if (!input.updateFilterId) throw notFound(FILTER_MESSAGES.notFound);
  const v = await viewerOf(db, caller, true);
  const row = await editableFilter(db, v, input.updateFilterId);
  const r = await resolveInput(db, v, input, row.creatorId);
  await fillNormalNames(db, v.teamId);
  const [before] = await selectDtos(db, v, eq(f.id, row.id), 1);
  const changes = before ? changedFields(before, r) : {};
  const verifying = v.lead && !row.isVerified;
  await batchOrDuplicate(
    db,
    v,
    r,
    [
      db
        .update(f)
        .set({ ...filterColumns(r, v.lead), updatedAt: new Date() })
        .where(eq(f.id, row.id)),
      db.delete(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, row.id)),
      db.delete(brokerFilterUsers).where(eq(brokerFilterUsers.filterId, row.id)),
      db.delete(brokerFilterContacts).where(eq(brokerFilterContacts.filterId, row.id)),
      db.delete(aliasesOf).where(eq(aliasesOf.filterId, row.id)),
      ...childRows(db, row.id, v.teamId, r),
      eventRow(db, v, row.id, 'edited', changes),
      ...(verifying ? [eventRow(db, v, row.id, 'verified')] : []),
      ...vettingSeed(db, r),
    ],
    row.id,
  );
  return { message: verifying ? FILTER_MESSAGES.verified : FILTER_MESSAGES.updated };
}

/** The edit rights of `canEdit` as a condition, for writes that check and change in one statement. */
const editableBy = (v: Viewer): SQL => (v.lead ? eq(f.teamId, v.teamId) : and(eq(f.teamId, v.teamId), eq(f.creatorId, v.caller.id), eq(f.onlyCreator, true))!);

/**
 * PUT /api/broker/update/isactive/: Active <-> Disabled. One statement flips the stored state and
 * answers the new one, with the edit rights in its `where`: simultaneous toggles each flip once and
 * report the state they set (a read-then-write lost flips). The audit row is written by the next
 * statement of the same batch with the same `where`, reading the state the flip set.
 * `updatedAt` stays: it marks the last save of the details.
 */
export async function toggleActive(db: Db, caller: Caller, filterId: string) {
  const v = await viewerOf(db, caller);
  const mine = and(eq(f.id, filterId), editableBy(v))!;
  const flip = async () => {
    const [flipped] = await db.batch([
      db
        .update(f)
        .set({ isVisible: sql`not ${f.isVisible}` })
        .where(mine)
        .returning({ isVisible: f.isVisible }),
      eventsFor(db, v, sql`case when ${f.isVisible} then 'enabled' else 'disabled' end`, sql`'{}'`, mine),
    ]);
    return flipped[0];
  };
  let after = await flip();
  if (!after) {
    // nothing flipped: answer why (404 not seen, 403 not editable); rights gained meanwhile flip now
    await editableFilter(db, v, filterId);
    after = await flip();
    if (!after) throw notFound(FILTER_MESSAGES.notFound);
  }
  const isVisible = !!after.isVisible;
  return { message: isVisible ? FILTER_MESSAGES.activated : FILTER_MESSAGES.disabled, isVisible };
}

/** The statements deleting every filter `where` selects with its child rows, audit first (one batch). */
function deleteStatements(db: Db, v: Viewer, where: SQL, reason?: string) {
  const ids = sql`(select ${f.id} from ${f} where ${where})`;
  return [
    eventsFor(db, v, 'deleted', sql`json_object('name', ${f.name}${reason ? sql`, 'reason', ${reason}` : sql``})`, where),
    db.delete(brokerFilterMcs).where(sql`${brokerFilterMcs.filterId} in ${ids}`),
    db.delete(brokerFilterUsers).where(sql`${brokerFilterUsers.filterId} in ${ids}`),
    db.delete(brokerFilterContacts).where(sql`${brokerFilterContacts.filterId} in ${ids}`),
    db.delete(aliasesOf).where(sql`${aliasesOf.filterId} in ${ids}`),
    db.delete(brokerFilterNotes).where(sql`${brokerFilterNotes.filterId} in ${ids}`),
    db.delete(f).where(where),
  ];
}

/** PUT /api/broker/update/delete/: the filter and its MC, user, contact, alias and note rows, together; the audit stays. */
export async function deleteFilter(db: Db, caller: Caller, filterId: string) {
  const v = await viewerOf(db, caller);
  const row = await editableFilter(db, v, filterId);
  await db.batch(deleteStatements(db, v, and(eq(f.id, row.id), editableBy(v))!) as unknown as Parameters<Db['batch']>[0]);
  return { message: FILTER_MESSAGES.deleted };
}

/** GET /api/broker/:filterId/history: the filter's audit trail, newest first. */
export async function filterHistory(db: Db, caller: Caller, filterId: string): Promise<FilterEventDto[]> {
  const v = await viewerOf(db, caller);
  await visibleFilter(db, v, filterId);
  const e = brokerFilterEvents;
  const rows = await db
    .select({ id: e.id, kind: e.kind, actorId: e.actorId, actorName: users.name, changes: e.changes, at: e.at })
    .from(e)
    .leftJoin(users, eq(users.id, e.actorId))
    .where(and(eq(e.filterId, filterId), eq(e.teamId, v.teamId)))
    .orderBy(desc(e.at), desc(e.kind))
    .limit(500);
  return rows.map((r) => ({
    _id: r.id,
    kind: r.kind,
    actor: { _id: r.actorId, name: r.actorName ?? (r.actorId === FMCSA_ACTOR ? 'FMCSA' : 'Removed user') },
    changes: JSON.parse(r.changes) as Record<string, unknown>,
    at: r.at.toISOString(),
  }));
}

/** GET /api/broker/:filterId/notes: the notes thread, oldest first. */
export async function listNotes(db: Db, caller: Caller, filterId: string): Promise<FilterNoteDto[]> {
  const v = await viewerOf(db, caller);
  await visibleFilter(db, v, filterId);
  const n = brokerFilterNotes;
  const rows = await db
    .select({ id: n.id, authorId: n.authorId, authorName: users.name, text: n.text, at: n.at })
    .from(n)
    .leftJoin(users, eq(users.id, n.authorId))
    .where(and(eq(n.filterId, filterId), eq(n.teamId, v.teamId)))
    .orderBy(asc(n.at), asc(n.id))
    .limit(1000);
  return rows.map((r) => ({ _id: r.id, author: { _id: r.authorId, name: r.authorName ?? 'Removed user' }, text: r.text, at: r.at.toISOString() }));
}

/** POST /api/broker/:filterId/notes: anyone who sees the filter adds to its thread; the audit records it. */
export async function addNote(db: Db, caller: Caller, filterId: string, text: string) {
  const v = await viewerOf(db, caller);
  await visibleFilter(db, v, filterId);
  const id = randomId();
  const at = new Date();
  await db.batch([
    db.insert(brokerFilterNotes).values({ id, filterId, teamId: v.teamId, authorId: caller.id, text, at }),
    eventRow(db, v, filterId, 'noted', { noteId: id }, at),
  ]);
  return { message: FILTER_MESSAGES.noteAdded, _id: id };
}

/** The team's filters waiting for the manager: unverified and not rejected. */
const waiting = (teamId: string) => and(eq(f.teamId, teamId), eq(f.isVerified, false), isNull(f.rejectedReason))!;

/** GET /api/broker/queue/count: the menu's badge (the partial index answers it). */
export async function queueCount(db: Db, caller: Caller) {
  // named: without an ORDER BY, SQLite took another index on the team (reading its 20,000 filters);
  // the literals are the partial index's own condition, which INDEXED BY requires the query to imply
  const [row] = await db.all<{ count: number }>(
    sql`select count(*) as count from ${f} indexed by broker_filters_team_queue
    where ${f.teamId} = ${teamIdOf(caller)} and ${f.isVerified} = 0 and ${f.rejectedReason} is null`,
  );
  return { count: row?.count ?? 0 };
}

/** GET /api/broker/queue: the waiting filters, newest first, as the JSON text of FilterDto[]. */
export async function queue(db: Db, caller: Caller): Promise<string> {
  const v = await viewerOf(db, caller);
  return selectJson(db, v, waiting(v.teamId), SEARCH_LIMIT, true);
}

/** POST /api/broker/queue/verify: the selected waiting filters verified by one statement, audited by the one before it. */
export async function verifyMany(db: Db, caller: Caller, filterIds: string[]) {
  const v = await viewerOf(db, caller);
  const where = and(waiting(v.teamId), inJson(f.id, filterIds))!;
  const [, updated] = await db.batch([
    eventsFor(db, v, 'verified', sql`'{}'`, where),
    db.update(f).set({ isVerified: true }).where(where).returning({ id: f.id }),
  ]);
  if (!updated.length) throw notFound(FILTER_MESSAGES.notFound);
  return { message: updated.length === 1 ? 'Filter verified' : `${updated.length} filters verified`, count: updated.length };
}

/** POST /api/broker/queue/reject: the agent sees "Rejected: <reason>" on its filter until it saves again. */
export async function reject(db: Db, caller: Caller, filterId: string, reason: string) {
  const v = await viewerOf(db, caller);
  const where = and(waiting(v.teamId), eq(f.id, filterId))!;
  const [, updated] = await db.batch([
    eventsFor(db, v, 'rejected', sql`json_object('reason', ${reason})`, where),
    db.update(f).set({ rejectedReason: reason }).where(where).returning({ id: f.id }),
  ]);
  if (!updated.length) throw notFound(FILTER_MESSAGES.notFound);
  return { message: FILTER_MESSAGES.rejected };
}

/**
 * POST /api/broker/bulk: disable, enable, delete or change the type of the selected filters the
 * caller may edit (others are left as they are and not counted); one statement changes them all,
 * the statement before it in the same batch audits exactly those rows.
 */
export async function bulk(db: Db, caller: Caller, input: BulkInput) {
  const v = await viewerOf(db, caller);
  // none of the ids is a filter the caller sees (another team's, say): 404 as for one id
  const [seen] = await db
    .select({ n: sql<number>`count(*)` })
    .from(f)
    .where(and(inJson(f.id, input.filterIds), visibleTo(v)));
  if (!seen?.n) throw notFound(FILTER_MESSAGES.notFound);
  const mine = and(inJson(f.id, input.filterIds), editableBy(v))!;
  let statements: unknown[];
  if (input.action === 'disable' || input.action === 'enable') {
    const on = input.action === 'enable';
    const where = and(mine, eq(f.isVisible, !on))!;
    statements = [eventsFor(db, v, input.action === 'enable' ? 'enabled' : 'disabled', sql`'{}'`, where), db.update(f).set({ isVisible: on }).where(where)];
  } else if (input.action === 'setType') {
    const type = input.type!;
    if (!(await teamTypeIds(db, v.teamId)).has(type)) throw notFound(FILTER_MESSAGES.typeNotFound);
    const where = and(mine, sql`${f.typeId} <> ${type}`)!;
    statements = [
      eventsFor(db, v, 'edited', sql`json_object('type', json_array(${f.typeId}, ${type}))`, where),
      db.update(f).set({ typeId: type, updatedAt: new Date() }).where(where),
    ];
  } else statements = deleteStatements(db, v, mine);
  const results = (await db.batch(statements as unknown as Parameters<Db['batch']>[0])) as unknown as readonly { meta?: { changes?: number } }[];
  const count = results[0]?.meta?.changes ?? 0;
  const done = { disable: 'disabled', enable: 'activated', delete: 'deleted', setType: 'updated' }[input.action];
  return { message: `${count} ${count === 1 ? 'filter' : 'filters'} ${done}`, count };
}

/** GET /api/broker/allNames: the company names the caller sees, for the search autocomplete. */
export async function allNames(db: Db, caller: Caller): Promise<string[]> {
  const v = await viewerOf(db, caller);
  const rows = await db.selectDistinct({ name: f.name }).from(f).where(visibleTo(v)).orderBy(sql`${f.name} collate nocase`);
  return rows.map((r) => r.name);
}

/** One filter as the extension's JSON object (MinifiedFilterDto, key for key), built by SQLite like filterRowJson. */
const minifiedRowJson = sql<string>`json_object(
  '_id', ${f.id},
  'name', ${f.name},
  'type', ${f.typeId},
  'typeName', coalesce(${filterTypes.typeName}, ''),
  'color', coalesce(${filterTypes.color}, ''),
  'comment', ${f.comment},
  'onlyOnContacts', ${jsonBool(f.onlyOnContacts)},
  'contacts', json(${f.contactsJson}),
  'allMC', ${jsonBool(f.allMc)},
  'mcList', json(${f.mcListJson}),
  'mcNumber', ${f.mcNumber},
  'aliases', json(${f.aliasesJson}),
  'vetting', (select json_object('state', bv.state, 'checkedAt', bv.checked_at) from ${brokerVetting} bv where bv.key = case
    when ltrim(coalesce(${f.dotNumber}, ''), '0') <> '' then 'dot:' || ltrim(${f.dotNumber}, '0')
    when ltrim(coalesce(${f.mcNumber}, ''), '0') <> '' then 'mc:' || ltrim(${f.mcNumber}, '0') end)
)`;

/** Raise when the answer's shape changes, so a stored list is never kept across it. */
const MINIFIED_SHAPE = 2;

/** An If-None-Match header holds `etag` (a list, weak or not, or `*`). */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch &&
  ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === etag || tag === '*';
  });

/**
 * GET /api/broker/minified: the filters in force for the caller on a load board: active, verified
 * (or its own), applying to it as a user, on one of its MCs; with the type's name and colour. As
 * JSON text (MinifiedFilterDto[]) with an ETag; `json` is null when `ifNoneMatch` holds it (304).
 *
 * The ETag is a hash of the team's filter stamp (a new random value in the same statement as any
 * change to the team's filters, their lists or its types: triggers of migration 0017) and of what
 * else decides the answer: the caller, its team, registration date and MCs. The stamp is read
 * before the filters, so an answer is never older than its ETag; a write in between only makes
 * the next sync download again.
 */
export async function minified(db: Db, caller: Caller, ifNoneMatch?: string): Promise<{ etag: string; json: string | null }> {
  const [v, [stampRow], [vettingRow]] = await Promise.all([
    viewerOf(db, caller, true),
    db
      .select({ stamp: filterTeamStamps.stamp })
      .from(filterTeamStamps)
      .where(eq(filterTeamStamps.teamId, teamIdOf(caller)))
      .limit(1),
    // the newest FMCSA status change of any broker (one index seek): a change shows on the board at the next sync
    db.select({ at: sql<number | null>`max(${brokerVetting.stateChangedAt})` }).from(brokerVetting),
  ]);
  const key = [
    MINIFIED_SHAPE,
    stampRow?.stamp ?? '-',
    vettingRow?.at ?? '-',
    v.teamId,
    caller.id,
    v.registeredAt.getTime(),
    [...v.mcIds].sort().join(','),
  ].join('|');
  const etag = `"${(await sha256Hex(key)).slice(0, 32)}"`;
  if (matches(ifNoneMatch, etag)) return { etag, json: null };
  // Only filters that can apply to the caller are read (appliesTo's three ways, each an index):
  // the ones listing it, its own, and its team's for users added later saved before it joined;
  // not the team's tens of thousands. The full conditions below still decide.
  const candidates = sql`${f}.rowid in (
    select bf.rowid from ${brokerFilterUsers} bu join ${f} bf on bf.id = bu.filter_id where bu.user_id = ${caller.id}
    union all select c.rowid from ${f} c where c.creator_id = ${caller.id}
    union all select n.rowid from ${f} n where n.team_id = ${v.teamId} and n.new_users = 1 and n.updated_at < ${v.registeredAt.getTime()})`;
  const query = db
    .select({ j: minifiedRowJson })
    .from(f)
    .leftJoin(filterTypes, and(eq(filterTypes.id, f.typeId), eq(filterTypes.teamId, f.teamId)))
    .where(
      and(
        candidates,
        // visibleTo(v) follows from the conditions below (verified and applying on one of its
        // MCs, or its own): only its team condition is left, unary + so the team's index is not
        // walked instead of the candidates
        sql`+${f.teamId} = ${v.teamId}`,
        eq(f.isVisible, true),
        isNull(f.rejectedReason),
        or(eq(f.isVerified, true), eq(f.creatorId, caller.id)),
        appliesTo(v),
        onAnyMc(v.mcIds),
      ),
    )
    .orderBy(asc(f.index));
  return { etag, json: jsonArray(await selectJsonRows(db, query)) };
}

/** GET /api/broker/teamUsers (not in the spec): the team's users for the modal's user list. */
export async function listTeamUsers(db: Db, caller: Caller): Promise<TeamUserDto[]> {
  const rows = await teamUsers(db, teamIdOf(caller));
  return rows.map((u) => ({ _id: u.id, name: u.name, userType: u.userType }));
}
