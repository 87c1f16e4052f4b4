/** docs/decisions/0007-filters.md */
import { and, desc, eq, inArray, isNotNull, lt, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { brokerFilterMcs, brokerFilters, brokerFilterUsers, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { inJson } from '../lib/db';
import { apiError } from '../lib/errors';
import { jsonArray, selectJsonRows } from '../lib/json-text';
import { isLead, teamIdOf, usableMcIds } from '../lib/team';
import { normalizeBrokerName, normalizeCarrierNumber } from './broker-name';
import { ALL_TYPES, FILTER_MESSAGES, type FilterDto, type FilterSearchInput, SEARCH_LIMIT } from './filters.schema';

const f = brokerFilters;

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

/** For ids whose JSON form needs no escape, `instr(list_json, json_quote(id))` is exact: a quote only opens or closes an element. */
const plainId = (id: string) => /^[A-Za-z0-9_-]+$/.test(id);

/** The filter's JSON list column (migration 0017) holds `id`: one string search on the row, no index seek. */
const jsonListHas = (list: typeof f.mcListJson | typeof f.usersListJson, id: string) => sql`instr(${list}, json_quote(${id})) > 0`;

export const onAnyMc = (ids: readonly string[]): SQL => {
  if (ids.length <= 20 && ids.every(plainId)) return or(eq(f.allMc, true), ...ids.map((id) => jsonListHas(f.mcListJson, id)))!;
  return or(
    eq(f.allMc, true),
    sql`exists (select 1 from ${brokerFilterMcs} where ${brokerFilterMcs.filterId} = ${f.id} and ${inJson(brokerFilterMcs.mcId, ids)})`,
  )!;
};

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
export const appliesTo = (v: Viewer): SQL =>
  or(
    and(eq(f.creatorId, v.caller.id), eq(f.onlyCreator, true)),
    and(eq(f.onlyCreator, false), or(listsUser(v.caller.id), and(eq(f.newUsers, true), lt(f.updatedAt, v.registeredAt)))),
  )!;

/** A lead sees all of its team's; anyone else its own, plus the verified ones that apply to it on one of its MCs. */
export function visibleTo(v: Viewer): SQL {
  const team = eq(f.teamId, v.teamId);
  if (v.lead) return team;
  return and(team, or(eq(f.creatorId, v.caller.id), and(eq(f.isVerified, true), appliesTo(v), onAnyMc(v.mcIds))))!;
}

/** Edit rights: a lead edits every filter of its team; others only their own creator-only ones. */
export const canEdit = (v: Viewer, row: { creatorId: string; onlyCreator: boolean }) => v.lead || (row.creatorId === v.caller.id && row.onlyCreator);

/** The edit rights of `canEdit` as a condition, for writes that check and change in one statement. */
export const editableBy = (v: Viewer): SQL =>
  v.lead ? eq(f.teamId, v.teamId) : and(eq(f.teamId, v.teamId), eq(f.creatorId, v.caller.id), eq(f.onlyCreator, true))!;

/** The creator of a rejected filter saves it again, which sends it back to the queue (docs/rules/filters.md#0089-reject-marks). */
export const canCorrect = (v: Viewer, row: { creatorId: string; rejectedReason: string | null }) =>
  row.creatorId === v.caller.id && row.rejectedReason !== null;

export const savableBy = (v: Viewer): SQL => or(editableBy(v), and(eq(f.teamId, v.teamId), eq(f.creatorId, v.caller.id), isNotNull(f.rejectedReason)))!;

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
    canCorrect: canCorrect(v, r),
    creator: { _id: r.creatorId, name: r.creatorName ?? '' },
    index: r.index,
    mcNumber: r.mcNumber,
    dotNumber: r.dotNumber,
    aliases: JSON.parse(r.aliases) as string[],
    rejectedReason: r.rejectedReason,
  }));
}

/** A 0/1 column as a JSON boolean inside json_object. */
export const jsonBool = (x: SQLWrapper) => sql`json(iif(${x}, 'true', 'false'))`;

/**
 * Built by SQLite, one object a row (D1's 2 MB string limit forbids the whole answer as one):
 * materialising and re-serialising 500 objects was the cost. Same rules as `canEdit`/`canCorrect`.
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
  'canCorrect', ${jsonBool(sql`${f.creatorId} = ${v.caller.id} and ${f.rejectedReason} is not null`)},
  'creator', json_object('_id', ${f.creatorId}, 'name', coalesce(${users.name}, '')),
  'index', ${f.index},
  'mcNumber', ${f.mcNumber},
  'dotNumber', ${f.dotNumber},
  'aliases', json(${f.aliasesJson}),
  'rejectedReason', ${f.rejectedReason}
)`;

/** The newest `limit` matches (the walk stops at the cap), oldest first as the spec's list expects. */
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
 * From 3 characters the FTS5 trigram index answers (migration 0012); a trigram index cannot look up
 * shorter terms, which scan the team's derived columns newest first. A trimmed 1–2 character term
 * holds no line break, so a match never spans two fields.
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
  if (!row) throw apiError(FILTER_MESSAGES.notFound);
  return row;
}

export async function editableFilter(db: Db, v: Viewer, filterId: string) {
  const row = await visibleFilter(db, v, filterId);
  if (!canEdit(v, row)) throw apiError(FILTER_MESSAGES.cannotEdit);
  return row;
}

/** A filter whose details the caller may save: one it may edit, or its own rejected one (`canCorrect`). */
export async function savableFilter(db: Db, v: Viewer, filterId: string) {
  const row = await visibleFilter(db, v, filterId);
  if (!canEdit(v, row) && !canCorrect(v, row)) throw apiError(FILTER_MESSAGES.cannotEdit);
  return row;
}

export async function allNames(db: Db, caller: Caller): Promise<string[]> {
  const v = await viewerOf(db, caller);
  const rows = await db.selectDistinct({ name: f.name }).from(f).where(visibleTo(v)).orderBy(sql`${f.name} collate nocase`);
  return rows.map((r) => r.name);
}
