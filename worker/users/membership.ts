import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { inJson } from '../lib/db';
import { fenceFor, STAFF_COMPANY } from '../lib/shards';
import { childrenOf } from '../lib/team';
import { moveUsers } from '../shards/move';
import { companyHome, type Home, newCompanyOn, repointAccounts, staffHome } from './directory';
import type { UserType } from './users.schema';

type UserRow = typeof users.$inferSelect;

/**
 * The company a user belongs to after a role or parent change (docs/decisions/0174): staff for
 * admins and marketing; its parent's for an agent or a director's manager; otherwise the top of
 * a tree: its own company, kept when nobody else is in it, else a new one on the same shard.
 */
async function companyAfter(
  env: Bindings,
  control: Db,
  db: Db,
  target: UserRow,
  type: UserType,
  parent: { companyId: string } | null,
  team: readonly string[],
) {
  if (type === 'admin' || type === 'marketing') return staffHome(env, control);
  if (parent) return (await companyHome(env, parent.companyId)) ?? null;
  if (target.companyId !== STAFF_COMPANY) {
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, target.companyId), isNull(users.deletedAt), sql`not ${inJson(users.id, team)}`))
      .limit(1);
    if (!other) return null;
  }
  return 'new' as const;
}

/**
 * Applies a role or parent change (`patch`) to a user and moves it, with its agents, into the
 * company the change puts it in: on the same shard the rows stay and only their company changes;
 * across shards its data moves first (shards/move.ts). Ends the user's sessions (token version).
 */
export async function changeRoleOrParent(
  env: Bindings,
  control: Db,
  from: Home,
  target: UserRow,
  patch: { userType: UserType; parentId: string | null },
  parent: { companyId: string } | null,
) {
  const agents = patch.userType === 'manager' ? await childrenOf(from.db, [target.id]) : [];
  const team = [target.id, ...agents.map((a) => a.id)];
  const wanted = await companyAfter(env, control, from.db, target, patch.userType, parent, team);
  let to: Home = from;
  if (wanted === 'new') to = await newCompanyOn(env, control, from.shard);
  else if (wanted && wanted.companyId !== target.companyId) to = wanted;
  // across shards the move's commit applies the change with the new company (shards/move.ts)
  if (to.shard !== from.shard) {
    await moveUsers(env, control, { userIds: team, from, to, change: { userId: target.id, ...patch } });
    return;
  }
  // on one shard: through the old company's fence and the new one's, so neither is mid-move
  const db = from.db;
  await db.batch([
    fenceFor(db, to.companyId),
    db
      .update(users)
      .set({ ...patch, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, target.id)),
    db
      .update(users)
      .set({ companyId: to.companyId })
      .where(and(inJson(users.id, team), ne(users.companyId, to.companyId))),
  ]);
  if (to.companyId !== target.companyId) await repointAccounts(control, team, to.companyId);
}

/**
 * A deleted director's managers become the tops of their own trees: each, with its agents, gets a
 * company of its own on the director's shard. Runs after the deletion's batch.
 */
export async function splitAfterDirector(env: Bindings, control: Db, home: Home, managers: readonly UserRow[]) {
  for (const manager of managers) {
    const own = await newCompanyOn(env, control, home.shard);
    const agents = await childrenOf(home.db, [manager.id]);
    const team = [manager.id, ...agents.map((a) => a.id)];
    await home.db.batch([fenceFor(home.db, own.companyId), home.db.update(users).set({ companyId: own.companyId }).where(inJson(users.id, team))]);
    await repointAccounts(control, team, own.companyId);
  }
}
