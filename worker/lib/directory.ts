import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Context } from 'hono';
import { accounts, companies, companyHomes, users } from '../db/schema';
import type { AppEnv, Bindings, Db } from '../env';
import { CONTROL, companyDb, shardDb } from './d1';
import { inJson, isUniqueViolation } from './db';
import { DIRECTORY_MESSAGES } from './directory.messages';
import { apiError } from './errors';
import { randomId } from './ids';
import type { Role as UserType } from './permissions';
import { homeStatement, placeNewCompany, STAFF_COMPANY, shardOfCompany } from './shards';

/**
 * The account directory in the control plane (docs/decisions/0174-company-shards.md): e-mail ->
 * user -> company. The user's row in its shard is the truth; the directory is an index that a
 * crash may leave ahead of it, and reads repair it (`settleAccount`).
 */

/** Where a user lives: its company, the company's shard, and a fenced handle there. */
export interface Home {
  companyId: string;
  shard: string;
  db: Db;
}

export const homeOf = (env: Bindings, companyId: string, shard: string): Home => ({ companyId, shard, db: companyDb(env, shard, companyId) });

/** The live account of an e-mail (already normalised). */
export async function accountByEmail(control: Db, email: string) {
  const [row] = await control
    .select()
    .from(accounts)
    .where(and(eq(accounts.email, email), isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

export async function accountOf(control: Db, userId: string) {
  const [row] = await control.select().from(accounts).where(eq(accounts.userId, userId)).limit(1);
  return row;
}

/** The home of a company, or undefined when the control plane does not know it. */
export async function companyHome(env: Bindings, companyId: string, fresh = false): Promise<Home | undefined> {
  const shard = await shardOfCompany(env, companyId, fresh);
  return shard ? homeOf(env, companyId, shard) : undefined;
}

/** The home of a user by id (any company): from the directory. */
export async function userHome(env: Bindings, control: Db, userId: string): Promise<Home | undefined> {
  const account = await accountOf(control, userId);
  return account ? companyHome(env, account.companyId) : undefined;
}

/** The live user row of an e-mail, wherever it lives, with its home. */
export async function findUserByEmail(env: Bindings, control: Db, email: string) {
  const account = await accountByEmail(control, email);
  if (!account) return undefined;
  const home = await companyHome(env, account.companyId);
  if (!home) return undefined;
  const [row] = await home.db
    .select()
    .from(users)
    .where(and(eq(users.id, account.userId), isNull(users.deletedAt)))
    .limit(1);
  // the directory ran ahead of the shard (a write cut off between the two): repaired from the row
  if (!row || row.email !== email) {
    await settleAccount(control, account.userId, row);
    return undefined;
  }
  if (row.companyId !== account.companyId) await settleAccount(control, row.id, row);
  return { row, home };
}

/** Brings a user's directory row in line with its shard row (deleted when the row is gone or deleted). */
export async function settleAccount(control: Db, userId: string, row: typeof users.$inferSelect | undefined) {
  if (!row || row.deletedAt) {
    await control
      .update(accounts)
      .set({ deletedAt: row?.deletedAt ?? new Date() })
      .where(and(eq(accounts.userId, userId), isNull(accounts.deletedAt)));
    return;
  }
  await control.update(accounts).set({ email: row.email, companyId: row.companyId }).where(eq(accounts.userId, userId));
}

/** Claims held this long without a user row behind them are a cut-off creation's, and free. */
const ORPHAN_CLAIM_MS = 5 * 60_000;

/**
 * Claims an e-mail for a new user in the directory, the one place an e-mail is unique across
 * shards: 409 'This e-mail is already registered' when a live account has it. A claim left by a
 * creation that never reached its shard is taken over after a few minutes.
 */
export async function claimEmail(env: Bindings, control: Db, claim: { userId: string; email: string; companyId: string }) {
  const insert = () => control.insert(accounts).values({ ...claim, createdAt: new Date() });
  try {
    await insert();
    return;
  } catch (err) {
    if (!isUniqueViolation(err, 'accounts.email')) throw err;
  }
  const held = await accountByEmail(control, claim.email);
  if (held && (await isOrphan(env, held))) {
    await control
      .update(accounts)
      .set({ deletedAt: new Date() })
      .where(and(eq(accounts.userId, held.userId), isNull(accounts.deletedAt), lt(accounts.createdAt, new Date(Date.now() - ORPHAN_CLAIM_MS))));
    try {
      await insert();
      return;
    } catch (err) {
      if (!isUniqueViolation(err, 'accounts.email')) throw err;
    }
  }
  throw apiError(DIRECTORY_MESSAGES.emailTaken);
}

async function isOrphan(env: Bindings, account: typeof accounts.$inferSelect) {
  if (account.createdAt.getTime() > Date.now() - ORPHAN_CLAIM_MS) return false;
  const home = await companyHome(env, account.companyId);
  if (!home) return true;
  const [row] = await home.db.select({ id: users.id }).from(users).where(eq(users.id, account.userId)).limit(1);
  return !row;
}

/** Gives up a claim whose user was never written (the shard refused the batch). */
export const releaseClaim = (control: Db, userId: string) => control.delete(accounts).where(eq(accounts.userId, userId));

/** Opens a new company on the emptiest placement shard: its control-plane row, then its home row in the shard. */
export async function newCompany(env: Bindings, control: Db, now = new Date()): Promise<Home> {
  const companyId = randomId();
  const shard = await placeNewCompany(env, control, companyId, now);
  await homeStatement(shardDb(env, shard), companyId, 'active', now);
  return homeOf(env, companyId, shard);
}

/** The staff company (admins and marketing users), on the control plane's database; made on first use. */
export async function staffHome(env: Bindings, control: Db): Promise<Home> {
  const now = new Date();
  await control.insert(companies).values({ id: STAFF_COMPANY, shard: CONTROL, createdAt: now }).onConflictDoNothing();
  const [row] = await control.select({ shard: companies.shard }).from(companies).where(eq(companies.id, STAFF_COMPANY));
  const shard = row!.shard;
  if (shard === CONTROL)
    await shardDb(env, shard).insert(companyHomes).values({ companyId: STAFF_COMPANY, state: 'active', changedAt: now }).onConflictDoNothing();
  return homeOf(env, STAFF_COMPANY, shard);
}

/**
 * The company a user of `type` under `parent` belongs to: staff for admins and marketing; the
 * parent's company for an agent and for a director's manager; a new company for a director, a
 * manager without a director and an agent without a manager (the top of a tree of its own).
 */
export async function homeForNewUser(env: Bindings, control: Db, type: UserType, parent: { companyId: string } | null): Promise<Home> {
  if (type === 'admin' || type === 'marketing') return staffHome(env, control);
  if (parent && (type === 'agent' || type === 'manager')) {
    const home = await companyHome(env, parent.companyId);
    if (home) return home;
  }
  return newCompany(env, control);
}

/** A live user by id wherever it lives, with its home. */
export async function userAnywhere(env: Bindings, control: Db, userId: string) {
  const home = await userHome(env, control, userId);
  if (!home) return undefined;
  const [row] = await home.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  return row ? { row, home } : undefined;
}

/** Opens a new company on a given shard (a director's managers left on their own keep their shard). */
export async function newCompanyOn(env: Bindings, control: Db, shard: string, now = new Date()): Promise<Home> {
  const companyId = randomId();
  await control.insert(companies).values({ id: companyId, shard, createdAt: now });
  await homeStatement(shardDb(env, shard), companyId, 'active', now);
  return homeOf(env, companyId, shard);
}

/** Points these users' directory rows at their new company. */
export const repointAccounts = (control: Db, userIds: readonly string[], companyId: string) =>
  userIds.length ? control.update(accounts).set({ companyId }).where(inJson(accounts.userId, userIds)) : Promise.resolve();

/**
 * Where the caller acts on user `userId`: its own company, unless the admin acts on another
 * company's user (a tree never crosses companies, so nobody else reaches another company).
 */
export async function homeForTarget<E extends AppEnv>(c: Context<E>, userId: string): Promise<Home> {
  const own: Home = { companyId: c.var.companyId, shard: c.var.shard, db: c.var.db };
  if (c.var.caller.userType !== 'admin') return own;
  const account = await accountOf(c.var.control, userId);
  if (!account || account.companyId === own.companyId) return own;
  return (await companyHome(c.env, account.companyId)) ?? own;
}

/**
 * Places a new user: its company (`homeForNewUser`), its e-mail claimed in the directory, then
 * `write` puts its row (with `companyId`) in the company's shard. A failed write gives the claim
 * back; a duplicate e-mail is 409 'This e-mail is already registered'.
 */
export async function placeUser<T extends { id: string; email: string; userType: UserType }>(
  env: Bindings,
  control: Db,
  user: T,
  parent: { companyId: string } | null,
  write: (home: Home, row: T & { companyId: string }) => Promise<unknown>,
): Promise<Home> {
  const home = await homeForNewUser(env, control, user.userType, parent);
  await claimEmail(env, control, { userId: user.id, email: user.email, companyId: home.companyId });
  try {
    await write(home, { ...user, companyId: home.companyId });
  } catch (err) {
    await releaseClaim(control, user.id).catch((e: unknown) => console.error('releasing an e-mail claim failed', e));
    if (isUniqueViolation(err, 'users.email')) throw apiError(DIRECTORY_MESSAGES.emailTaken);
    throw err;
  }
  return home;
}
