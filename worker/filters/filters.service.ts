import { and, asc, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm';
import { chunks, inJson } from '../lib/db';
import { brokerFilterContacts, brokerFilterMcs, brokerFilters, brokerFilterUsers, filterTypes, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { forbidden, notFound } from '../lib/errors';
import { randomId } from '../lib/ids';
import { isLead, teamIdOf, teamUsers, usableMcIds } from '../lib/team';
import { teamTypeIds } from './filter-types.service';
import {
  ALL_TYPES,
  cleanContacts,
  FILTER_MESSAGES,
  type FilterDto,
  type FilterSaveInput,
  type FilterSearchInput,
  type MinifiedFilterDto,
  SEARCH_LIMIT,
  type TeamUserDto,
} from './filters.schema';

const f = brokerFilters;

/** Who is looking: the team, whether it is its lead, and what decides which filters apply to it. */
interface Viewer {
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
async function viewerOf(db: Db, caller: Caller, full = false): Promise<Viewer> {
  const lead = isLead(caller);
  const base = { caller, teamId: teamIdOf(caller), lead };
  if (lead && !full) return { ...base, registeredAt: new Date(0), mcIds: [] };
  const [[me], mcIds] = await Promise.all([
    db.select({ registrationDate: users.registrationDate }).from(users).where(eq(users.id, caller.id)).limit(1),
    usableMcIds(db, caller),
  ]);
  return { ...base, registeredAt: me?.registrationDate ?? new Date(0), mcIds };
}

const onAnyMc = (ids: readonly string[]): SQL =>
  or(eq(f.allMc, true), sql`exists (select 1 from ${brokerFilterMcs} where ${brokerFilterMcs.filterId} = ${f.id} and ${inJson(brokerFilterMcs.mcId, ids)})`)!;

/** The filter's user list holds `user` (an id, or a column such as the creator's). */
const listsUser = (user: string | typeof f.creatorId) =>
  sql`exists (select 1 from ${brokerFilterUsers} where ${brokerFilterUsers.filterId} = ${f.id} and ${brokerFilterUsers.userId} = ${user})`;

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
function visibleTo(v: Viewer): SQL {
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
  mcList: sql<string>`(select json_group_array(mc_id) from broker_filter_mcs where filter_id = ${f.id})`,
  usersList: sql<string>`(select json_group_array(user_id) from broker_filter_users where filter_id = ${f.id})`,
  contacts: sql<string>`(select json_group_array(contact order by position) from broker_filter_contacts where filter_id = ${f.id})`,
};

async function selectDtos(db: Db, v: Viewer, where: SQL | undefined, limit = SEARCH_LIMIT): Promise<FilterDto[]> {
  // The newest matches (highest index) are picked first, so the list subqueries below run only
  // for the rows answered; the answer is oldest first, as the spec's list expects.
  const hits = db.select({ id: f.id }).from(f).where(where).orderBy(desc(f.index)).limit(limit).as('hits');
  const rows = await db.select(dtoSelection).from(hits).innerJoin(f, eq(f.id, hits.id)).leftJoin(users, eq(users.id, f.creatorId)).orderBy(asc(f.index));
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
  }));
}

/** POST /api/broker: the search form over the filters the caller sees. */
export async function searchFilters(db: Db, caller: Caller, input: FilterSearchInput): Promise<FilterDto[]> {
  const v = await viewerOf(db, caller);
  const where: SQL[] = [visibleTo(v)];
  const name = input.name.trim().toLowerCase();
  if (name) where.push(sql`instr(lower(${f.name}), ${name}) > 0`);
  if (input.type && input.type !== ALL_TYPES) where.push(eq(f.typeId, input.type));
  const kinds: SQL[] = [];
  if (input.onlyCreator) kinds.push(eq(f.onlyCreator, true));
  if (input.teamWithMe) kinds.push(and(eq(f.onlyCreator, false), listsUser(f.creatorId))!);
  if (input.teamWithoutMe) kinds.push(and(eq(f.onlyCreator, false), sql`not ${listsUser(f.creatorId)}`)!);
  if (kinds.length) where.push(or(...kinds)!);
  if (input.onlyContacts) where.push(eq(f.onlyOnContacts, true));
  if (input.creator) where.push(eq(f.creatorId, input.creator));
  if (!input.allMC) where.push(onAnyMc(input.mcList));
  return selectDtos(db, v, and(...where));
}

async function visibleFilter(db: Db, v: Viewer, filterId: string) {
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
  return {
    name: input.name.trim(),
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
  };
}

/** The filter row's own columns from the checked input; a lead's save verifies the filter, an agent's leaves it to the manager. */
const filterColumns = (r: Awaited<ReturnType<typeof resolveInput>>, lead: boolean) => ({
  name: r.name,
  typeId: r.typeId,
  comment: r.comment,
  isVisible: r.isVisible,
  isVerified: lead,
  onlyCreator: r.onlyCreator,
  allMc: r.allMc,
  onlyOnContacts: r.onlyOnContacts,
  newUsers: r.newUsers,
});

function childRows(db: Db, filterId: string, r: { mcList: string[]; usersList: string[]; contacts: string[] }) {
  return [
    ...chunks(r.mcList, 40).map((part) => db.insert(brokerFilterMcs).values(part.map((mcId) => ({ filterId, mcId })))),
    ...chunks(r.usersList, 40).map((part) => db.insert(brokerFilterUsers).values(part.map((userId) => ({ filterId, userId })))),
    ...chunks(
      r.contacts.map((contact, position) => ({ filterId, contact, position })),
      30,
    ).map((part) => db.insert(brokerFilterContacts).values(part)),
  ];
}

/** POST /api/broker/add: a lead's filter is verified at once; an agent's waits for its manager. */
export async function addFilter(db: Db, caller: Caller, input: FilterSaveInput) {
  const v = await viewerOf(db, caller, true);
  const r = await resolveInput(db, v, input, caller.id);
  const id = randomId();
  const now = new Date();
  await db.batch([
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
    ...childRows(db, id, r),
  ]);
  return { message: v.lead ? FILTER_MESSAGES.added : FILTER_MESSAGES.addedUnverified, _id: id };
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
  await db.batch([
    db
      .update(f)
      .set({ ...filterColumns(r, v.lead), updatedAt: new Date() })
      .where(eq(f.id, row.id)),
    db.delete(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, row.id)),
    db.delete(brokerFilterUsers).where(eq(brokerFilterUsers.filterId, row.id)),
    db.delete(brokerFilterContacts).where(eq(brokerFilterContacts.filterId, row.id)),
    ...childRows(db, row.id, r),
  ]);
  return { message: v.lead && !row.isVerified ? FILTER_MESSAGES.verified : FILTER_MESSAGES.updated };
}

/** The edit rights of `canEdit` as a condition, for writes that check and change in one statement. */
const editableBy = (v: Viewer): SQL => (v.lead ? eq(f.teamId, v.teamId) : and(eq(f.teamId, v.teamId), eq(f.creatorId, v.caller.id), eq(f.onlyCreator, true))!);

/**
 * PUT /api/broker/update/isactive/: Active <-> Disabled. One statement flips the stored state and
 * answers the new one, with the edit rights in its `where`: simultaneous toggles each flip once and
 * report the state they set (a read-then-write lost flips). `updatedAt` stays: it marks the last
 * save of the details.
 */
export async function toggleActive(db: Db, caller: Caller, filterId: string) {
  const v = await viewerOf(db, caller);
  const flip = () =>
    db
      .update(f)
      .set({ isVisible: sql`not ${f.isVisible}` })
      .where(and(eq(f.id, filterId), editableBy(v)))
      .returning({ isVisible: f.isVisible });
  let [after] = await flip();
  if (!after) {
    // nothing flipped: answer why (404 not seen, 403 not editable); rights gained meanwhile flip now
    await editableFilter(db, v, filterId);
    [after] = await flip();
    if (!after) throw notFound(FILTER_MESSAGES.notFound);
  }
  const isVisible = !!after.isVisible;
  return { message: isVisible ? FILTER_MESSAGES.activated : FILTER_MESSAGES.disabled, isVisible };
}

/** PUT /api/broker/update/delete/: the filter and its MC, user and contact rows, together. */
export async function deleteFilter(db: Db, caller: Caller, filterId: string) {
  const v = await viewerOf(db, caller);
  const row = await editableFilter(db, v, filterId);
  await db.batch([
    db.delete(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, row.id)),
    db.delete(brokerFilterUsers).where(eq(brokerFilterUsers.filterId, row.id)),
    db.delete(brokerFilterContacts).where(eq(brokerFilterContacts.filterId, row.id)),
    db.delete(f).where(eq(f.id, row.id)),
  ]);
  return { message: FILTER_MESSAGES.deleted };
}

/** GET /api/broker/allNames: the company names the caller sees, for the search autocomplete. */
export async function allNames(db: Db, caller: Caller): Promise<string[]> {
  const v = await viewerOf(db, caller);
  const rows = await db.selectDistinct({ name: f.name }).from(f).where(visibleTo(v)).orderBy(sql`${f.name} collate nocase`);
  return rows.map((r) => r.name);
}

/**
 * GET /api/broker/minified: the filters in force for the caller on a load board: active, verified
 * (or its own), applying to it as a user, on one of its MCs; with the type's name and colour.
 */
export async function minified(db: Db, caller: Caller): Promise<MinifiedFilterDto[]> {
  const v = await viewerOf(db, caller, true);
  const rows = await db
    .select({
      id: f.id,
      name: f.name,
      typeId: f.typeId,
      typeName: filterTypes.typeName,
      color: filterTypes.color,
      comment: f.comment,
      onlyOnContacts: f.onlyOnContacts,
      allMc: f.allMc,
      mcList: dtoSelection.mcList,
      contacts: dtoSelection.contacts,
    })
    .from(f)
    .leftJoin(filterTypes, and(eq(filterTypes.id, f.typeId), eq(filterTypes.teamId, f.teamId)))
    .where(and(visibleTo(v), eq(f.isVisible, true), or(eq(f.isVerified, true), eq(f.creatorId, caller.id)), appliesTo(v), onAnyMc(v.mcIds)))
    .orderBy(asc(f.index));
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    type: r.typeId,
    typeName: r.typeName ?? '',
    color: r.color ?? '',
    comment: r.comment,
    onlyOnContacts: r.onlyOnContacts,
    contacts: JSON.parse(r.contacts) as string[],
    allMC: r.allMc,
    mcList: JSON.parse(r.mcList) as string[],
  }));
}

/** GET /api/broker/teamUsers (not in the spec): the team's users for the modal's user list. */
export async function listTeamUsers(db: Db, caller: Caller): Promise<TeamUserDto[]> {
  const rows = await teamUsers(db, teamIdOf(caller));
  return rows.map((u) => ({ _id: u.id, name: u.name, userType: u.userType }));
}
