import { and, asc, eq, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { mcSettings, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { inJson } from './db';

/** The user tree: every user has at most one parent (an agent's manager, a manager's director). */

type UserRow = typeof users.$inferSelect;
const live = isNull(users.deletedAt);

/** The live children of these users, oldest first (one statement for any number of parents). */
export const childrenOf = (db: Db, parentIds: readonly string[]): Promise<UserRow[]> =>
  parentIds.length
    ? db
        .select()
        .from(users)
        .where(and(inJson(users.parentId, parentIds), live))
        .orderBy(asc(users.registrationDate))
    : Promise.resolve([]);

/**
 * The users a caller may see, by the tree: admin everyone; a director its managers and their
 * agents; a manager its agents; everyone itself. Answers null for "everyone".
 */
export async function visibleIds(db: Db, caller: Caller): Promise<Set<string> | null> {
  if (caller.userType === 'admin') return null;
  const ids = new Set([caller.id]);
  if (caller.userType === 'manager' || caller.userType === 'director') {
    const first = await childrenOf(db, [caller.id]);
    for (const u of first) ids.add(u.id);
    if (caller.userType === 'director')
      for (const u of await childrenOf(
        db,
        first.map((m) => m.id),
      ))
        ids.add(u.id);
  }
  return ids;
}

/** The admin works as the lead of a team of its own; an agent without a parent is alone in one. */
export const teamIdOf = (caller: Pick<Caller, 'id' | 'userType' | 'parentId'>) => (caller.userType === 'agent' ? (caller.parentId ?? caller.id) : caller.id);

/** Team leads (managers, and the admin for its own team) own MCs, verify filters and edit every filter. */
export const isLead = (caller: Pick<Caller, 'userType'>) => caller.userType === 'manager' || caller.userType === 'admin';

export function teamUsers(db: Db, teamId: string) {
  return db
    .select({ id: users.id, name: users.name, userType: users.userType, registrationDate: users.registrationDate })
    .from(users)
    .where(and(or(eq(users.id, teamId), eq(users.parentId, teamId)), live))
    .orderBy(asc(users.registrationDate));
}

const parent = alias(mcSettings, 'parent_mc');

/**
 * The team MC ids the caller may put on a filter and search by: a lead's own MCs; for an agent
 * the manager's MCs its own settings point at (spec: "an agent uses its manager's MCs").
 */
export async function usableMcIds(db: Db, caller: Caller): Promise<string[]> {
  const teamId = teamIdOf(caller);
  if (isLead(caller)) {
    const rows = await db
      .select({ id: mcSettings.id })
      .from(mcSettings)
      .where(and(eq(mcSettings.userId, teamId), isNull(mcSettings.parentMcId)));
    return rows.map((r) => r.id);
  }
  const rows = await db
    .select({ id: parent.id })
    .from(mcSettings)
    .innerJoin(parent, eq(parent.id, mcSettings.parentMcId))
    .where(and(eq(mcSettings.userId, caller.id), eq(parent.userId, teamId), isNull(parent.parentMcId)));
  return [...new Set(rows.map((r) => r.id))];
}
