import { and, eq, isNull, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { brokerFilters } from '../db/schema';
import type { Caller, Db } from '../env';
import { inJson, runBatch } from '../lib/db';
import { apiError } from '../lib/errors';
import { textOf } from '../lib/messages';
import { teamIdOf } from '../lib/team';
import { teamTypeIds } from './filter-types.service';
import { type BulkInput, FILTER_MESSAGES, SEARCH_LIMIT } from './filters.schema';
import { deleteStatements, eventsFor } from './filters.service';
import { editableBy, selectJson, viewerOf, visibleTo } from './filters-visibility.service';

const f = brokerFilters;

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
  if (!updated.length) throw apiError(FILTER_MESSAGES.notFound);
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
  if (!updated.length) throw apiError(FILTER_MESSAGES.notFound);
  return { message: textOf(FILTER_MESSAGES.rejected) };
}

/** Rows the caller may not edit are left and not counted; the statement before it audits exactly those rows. */
export async function bulk(db: Db, caller: Caller, input: BulkInput) {
  const v = await viewerOf(db, caller);
  // none of the ids is a filter the caller sees (another team's, say): 404 as for one id
  const [seen] = await db
    .select({ n: sql<number>`count(*)` })
    .from(f)
    .where(and(inJson(f.id, input.filterIds), visibleTo(v)));
  if (!seen?.n) throw apiError(FILTER_MESSAGES.notFound);
  const mine = and(inJson(f.id, input.filterIds), editableBy(v))!;
  let statements: BatchItem<'sqlite'>[];
  if (input.action === 'disable' || input.action === 'enable') {
    const on = input.action === 'enable';
    const where = and(mine, eq(f.isVisible, !on))!;
    statements = [eventsFor(db, v, input.action === 'enable' ? 'enabled' : 'disabled', sql`'{}'`, where), db.update(f).set({ isVisible: on }).where(where)];
  } else if (input.action === 'setType') {
    const type = input.type!;
    if (!(await teamTypeIds(db, v.teamId)).has(type)) throw apiError(FILTER_MESSAGES.typeNotFound);
    const where = and(mine, sql`${f.typeId} <> ${type}`)!;
    statements = [
      eventsFor(db, v, 'edited', sql`json_object('type', json_array(${f.typeId}, ${type}))`, where),
      db.update(f).set({ typeId: type, updatedAt: new Date() }).where(where),
    ];
  } else statements = deleteStatements(db, v, mine);
  const [events] = (await runBatch(db, statements)) as readonly D1Result[];
  const count = events?.meta.changes ?? 0;
  const done = { disable: 'disabled', enable: 'activated', delete: 'deleted', setType: 'updated' }[input.action];
  return { message: `${count} ${count === 1 ? 'filter' : 'filters'} ${done}`, count };
}
