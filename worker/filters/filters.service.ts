import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import {
  brokerFilterAliases,
  brokerFilterContacts,
  brokerFilterEvents,
  brokerFilterMcs,
  brokerFilterNotes,
  brokerFilters,
  brokerFilterUsers,
  type FilterEventKind,
  users,
} from '../db/schema';
import type { Caller, Db } from '../env';
import { chunks, runBatch } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { messageOf, textOf } from '../lib/messages';
import { teamIdOf, teamUsers } from '../lib/team';
import { FMCSA_ACTOR, seedStatements } from '../vetting/vetting.service';
import { normalizeBrokerName } from './broker-name';
import { teamTypeIds } from './filter-types.service';
import {
  cleanContacts,
  FILTER_MESSAGES,
  type FilterDto,
  type FilterEventDto,
  type FilterNoteDto,
  type FilterSaveInput,
  type TeamUserDto,
} from './filters.schema';
import { batchOrDuplicate, cleanAliases, fillNormalNames } from './filters-identity.service';
import { editableBy, editableFilter, savableBy, savableFilter, selectDtos, type Viewer, viewerOf, visibleFilter } from './filters-visibility.service';

const f = brokerFilters;
const aliasesOf = brokerFilterAliases;

const unique = (ids: readonly string[]) => [...new Set(ids)];

async function resolveInput(db: Db, v: Viewer, input: FilterSaveInput, creatorId: string) {
  if (!(await teamTypeIds(db, v.teamId)).has(input.type!)) throw apiError(FILTER_MESSAGES.typeNotFound);
  const mcList = input.allMC ? [] : unique(input.mcList);
  const usable = new Set(v.mcIds);
  if (mcList.some((id) => !usable.has(id))) throw apiError(FILTER_MESSAGES.mcNotFound);
  let usersList: string[];
  if (input.onlyCreator) usersList = [creatorId];
  else {
    usersList = unique(input.usersList);
    const team = new Set((await teamUsers(db, v.teamId)).map((u) => u.id));
    team.add(creatorId);
    if (usersList.some((id) => !team.has(id))) throw apiError(FILTER_MESSAGES.userNotFound);
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
const vettingSeed = (db: Db, r: { mcNumber: string | null; dotNumber: string | null }) => seedStatements(db, [{ dot: r.dotNumber, mc: r.mcNumber }]);

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
  return { ...messageOf(v.lead ? FILTER_MESSAGES.added : FILTER_MESSAGES.addedUnverified), _id: id };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

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

/** Its kind is null, which the column refuses, unless the caller still may save as the statement runs: lost rights write nothing. */
const guardedEditEvent = (db: Db, v: Viewer, filterId: string, changes: Record<string, unknown>, at: Date) =>
  // columns in the table's order: id, filter_id, team_id, actor_id, kind, changes, at
  db.insert(brokerFilterEvents).select(
    sql`select ${randomId()}, ${filterId}, ${v.teamId}, ${v.caller.id},
      case when exists (select 1 from ${f} where ${and(eq(f.id, filterId), savableBy(v))}) then 'edited' end,
      ${JSON.stringify(changes)}, ${at.getTime()}`,
  );

const isGuardRefusal = (err: unknown) => /NOT NULL constraint failed: broker_filter_events\.kind/.test(String((err as { cause?: unknown })?.cause ?? err));

/** An agent's save unverifies its filter; the creator of a rejected filter may save it too (rule 0089). */
export async function updateFilter(db: Db, caller: Caller, input: FilterSaveInput) {
  if (!input.updateFilterId) throw apiError(FILTER_MESSAGES.notFound);
  const v = await viewerOf(db, caller, true);
  const row = await savableFilter(db, v, input.updateFilterId);
  const r = await resolveInput(db, v, input, row.creatorId);
  await fillNormalNames(db, v.teamId);
  const [before] = await selectDtos(db, v, eq(f.id, row.id), 1);
  const changes = before ? changedFields(before, r) : {};
  const verifying = v.lead && !row.isVerified;
  const resubmitting = !v.lead && row.rejectedReason !== null;
  const at = new Date();
  try {
    await batchOrDuplicate(
      db,
      v,
      r,
      [
        guardedEditEvent(db, v, row.id, changes, at),
        db
          .update(f)
          .set({ ...filterColumns(r, v.lead), updatedAt: at })
          .where(eq(f.id, row.id)),
        db.delete(brokerFilterMcs).where(eq(brokerFilterMcs.filterId, row.id)),
        db.delete(brokerFilterUsers).where(eq(brokerFilterUsers.filterId, row.id)),
        db.delete(brokerFilterContacts).where(eq(brokerFilterContacts.filterId, row.id)),
        db.delete(aliasesOf).where(eq(aliasesOf.filterId, row.id)),
        ...childRows(db, row.id, v.teamId, r),
        ...(verifying ? [eventRow(db, v, row.id, 'verified', {}, at)] : []),
        ...(resubmitting ? [eventRow(db, v, row.id, 'resubmitted', { reason: row.rejectedReason }, at)] : []),
        ...vettingSeed(db, r),
      ],
      row.id,
    );
  } catch (err) {
    if (!isGuardRefusal(err)) throw err;
    // the rights went between the check and the write: say why (404 or 403)
    await savableFilter(db, v, row.id);
    throw apiError(FILTER_MESSAGES.cannotEdit);
  }
  return messageOf(verifying ? FILTER_MESSAGES.verified : resubmitting ? FILTER_MESSAGES.resubmitted : FILTER_MESSAGES.updated);
}

/**
 * One statement flips and answers the state, with the edit rights in its `where`: simultaneous toggles
 * each flip once (a read-then-write lost flips). `updatedAt` marks the last save of the details.
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
    if (!after) throw apiError(FILTER_MESSAGES.notFound);
  }
  const isVisible = !!after.isVisible;
  return { message: textOf(isVisible ? FILTER_MESSAGES.activated : FILTER_MESSAGES.disabled), isVisible };
}

/** The statements deleting every filter `where` selects with its child rows, audit first (one batch). */
export function deleteStatements(db: Db, v: Viewer, where: SQL, reason?: string) {
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
  await runBatch(db, deleteStatements(db, v, and(eq(f.id, row.id), editableBy(v))!));
  return { message: textOf(FILTER_MESSAGES.deleted) };
}

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
  return { message: textOf(FILTER_MESSAGES.noteAdded), _id: id };
}

/** GET /api/broker/teamUsers (not in the spec): the team's users for the modal's user list. */
export async function listTeamUsers(db: Db, caller: Caller): Promise<TeamUserDto[]> {
  const rows = await teamUsers(db, teamIdOf(caller));
  return rows.map((u) => ({ _id: u.id, name: u.name, userType: u.userType }));
}
