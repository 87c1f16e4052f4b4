import { and, eq, isNull, sql } from 'drizzle-orm';
import { AUTH_MESSAGES, hasInvisibleChars, normalizeEmail } from '../auth/auth.schema';
import { emailIsFree, insertAccount, sendTokenMail } from '../auth/auth.service';
import { users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { eraseTeamHistory } from '../history/archive-job';
import { COMMON_MESSAGES, GENERAL_MESSAGES } from '../lib/common-messages';
import { allShards, d1Of, fencedD1, shardDb } from '../lib/d1';
import { inJson } from '../lib/db';
import { findUserByEmail, type Home, settleAccount, userAnywhere } from '../lib/directory';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import type { Language } from '../lib/languages';
import { hashPassword } from '../lib/passwords';
import { enforceLimit, LIMITS } from '../lib/rate-limit';
import { secrets } from '../lib/secrets';
import { childrenOf, visibleIds } from '../lib/team';
import { changeRoleOrParent, splitAfterDirector } from './membership';
import { type NewUser, USER_MESSAGES, type UserDto, type UserType } from './users.schema';

export type UserRow = typeof users.$inferSelect;
const DAY = 86_400_000;
/** Days a trial started by an admin lasts when the user has no later end date. */
export const ADMIN_TRIAL_DAYS = 14;

export const live = isNull(users.deletedAt);

export async function liveUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), live))
    .limit(1);
  return row;
}

async function parentsOf(db: Db, rows: UserRow[]) {
  const map = new Map<string, { _id: string; name: string; email: string }>();
  const inRows = new Map(rows.map((r) => [r.id, r]));
  const missing: string[] = [];
  for (const id of new Set(rows.map((r) => r.parentId).filter((p): p is string => !!p))) {
    const row = inRows.get(id);
    if (row) map.set(id, { _id: row.id, name: row.name, email: row.email });
    else missing.push(id);
  }
  if (missing.length)
    for (const p of await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inJson(users.id, missing)))
      map.set(p.id, { _id: p.id, name: p.name, email: p.email });
  return map;
}

export function toDto(row: UserRow, parent: UserDto['parent']): UserDto {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    userType: row.userType,
    isEmailVerified: row.isEmailVerified,
    isTrialPeriod: row.isTrialPeriod,
    subscriptionEndDate: row.subscriptionEndDate?.toISOString() ?? null,
    registrationDate: row.registrationDate.toISOString(),
    date: row.registrationDate.toISOString(),
    parent,
    phone: row.phone,
    country: row.country,
    remindersEnabled: row.remindersEnabled,
    language: row.language,
  };
}

/** Like reminders, the user's own choice (or the admin's). */
export async function updateLanguage(db: Db, caller: Caller, id: string, language: Language) {
  const target = await visibleUser(db, caller, id);
  if (caller.userType !== 'admin' && target.id !== caller.id) throw apiError(COMMON_MESSAGES.notAllowedUser);
  await db.update(users).set({ language }).where(eq(users.id, target.id));
  return { message: 'Language updated', language };
}

async function toDtos(db: Db, rows: UserRow[]): Promise<UserDto[]> {
  const parents = await parentsOf(db, rows);
  return rows.map((r) => toDto(r, r.parentId ? (parents.get(r.parentId) ?? null) : null));
}

/** The user `id` if the caller may see it; otherwise 404, as if it did not exist. */
export async function visibleUser(db: Db, caller: Caller, id: string): Promise<UserRow> {
  const row = await liveUser(db, id);
  const ids = row ? await visibleIds(db, caller) : null;
  if (!row || (ids && !ids.has(row.id))) throw apiError(COMMON_MESSAGES.userNotFound);
  return row;
}

/** Who may change a user's name, e-mail and password: the admin, the user itself, and an agent's manager. */
function mayManage(caller: Caller, target: UserRow) {
  return (
    caller.userType === 'admin' || caller.id === target.id || (caller.userType === 'manager' && target.parentId === caller.id && target.userType === 'agent')
  );
}

export async function managedUser(db: Db, caller: Caller, id: string) {
  const target = await visibleUser(db, caller, id);
  if (!mayManage(caller, target)) throw apiError(COMMON_MESSAGES.notAllowedUser);
  return target;
}

const liveUsers = (db: Db, ids: string[]): Promise<UserRow[]> =>
  ids.length
    ? db
        .select()
        .from(users)
        .where(and(inJson(users.id, ids), live))
    : Promise.resolve([]);

/** The admin's lists span every shard; a tree never crosses companies, so parents are in the same shard. */
async function everywhere(env: Bindings, type: UserType | null, order: (a: UserDto, b: UserDto) => number): Promise<UserDto[]> {
  const lists = await Promise.all(
    allShards(env).map(async (shard) => {
      const db = shardDb(env, shard);
      const rows = await db
        .select()
        .from(users)
        .where(type ? and(eq(users.userType, type), live) : live);
      return toDtos(db, rows);
    }),
  );
  return lists.flat().sort(order);
}

// ties (one millisecond) by id in SQLite's binary order, as GET /api/user/page breaks them
const byRegistration = (a: UserDto, b: UserDto) => a.registrationDate.localeCompare(b.registrationDate) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
const byName = (a: UserDto, b: UserDto) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a._id.localeCompare(b._id));

export async function listUsers(env: Bindings, db: Db, caller: Caller): Promise<UserDto[]> {
  if (caller.userType === 'admin') return everywhere(env, null, byRegistration);
  const ids = [...((await visibleIds(db, caller)) ?? [])].filter((id) => id !== caller.id);
  const rows = await liveUsers(db, ids);
  rows.sort((a, b) => a.registrationDate.getTime() - b.registrationDate.getTime());
  return toDtos(db, rows);
}

export async function getUser(db: Db, caller: Caller, id: string) {
  const row = await visibleUser(db, caller, id);
  return (await toDtos(db, [row]))[0]!;
}

export async function childUsers(db: Db, caller: Caller, id: string) {
  await visibleUser(db, caller, id);
  return toDtos(db, await childrenOf(db, [id]));
}

export const byType = (env: Bindings, type: UserType) => everywhere(env, type, byName);

/** The manager of the caller's team: an agent's parent, a manager itself, else null. */
export async function teamManager(db: Db, caller: Caller) {
  const id = caller.userType === 'manager' ? caller.id : caller.userType === 'agent' ? caller.parentId : null;
  const row = id ? await liveUser(db, id) : undefined;
  return row ? (await toDtos(db, [row]))[0]! : null;
}

export async function directorManagers(env: Bindings, db: Db, caller: Caller) {
  if (caller.userType === 'admin') return byType(env, 'manager');
  return toDtos(
    db,
    (await childrenOf(db, [caller.id])).filter((u) => u.userType === 'manager'),
  );
}

/** The caller's team: a manager and its agents; a director's managers and their agents; an agent itself. */
export async function allTeam(env: Bindings, db: Db, caller: Caller) {
  if (caller.userType === 'admin') return listUsers(env, db, caller);
  const ids = [...((await visibleIds(db, caller)) ?? [])].filter((id) => caller.userType !== 'director' || id !== caller.id);
  const rows = await liveUsers(db, ids);
  rows.sort((a, b) => (a.userType === b.userType ? a.name.localeCompare(b.name) : a.userType === 'manager' ? -1 : 1));
  return toDtos(db, rows);
}

/** A manager's agents (and the manager), for managers, their directors and the admin. */
export async function managerChildUsers(db: Db, caller: Caller, parentId: string, includeParent: boolean) {
  const manager = await visibleUser(db, caller, parentId);
  if (manager.userType !== 'manager') throw apiError(COMMON_MESSAGES.managerNotFound);
  const agents = await childrenOf(db, [manager.id]);
  return toDtos(db, includeParent ? [manager, ...agents] : agents);
}

export async function userByEmail(env: Bindings, control: Db, email: string) {
  // the schema refuses invisible characters; an older look-alike row is never answered either
  const found = hasInvisibleChars(email) ? undefined : await findUserByEmail(env, control, normalizeEmail(email));
  if (!found) throw apiError(COMMON_MESSAGES.userNotFound);
  return (await toDtos(found.home.db, [found.row]))[0]!;
}

/** The parent may be in any company. */
async function checkParent(env: Bindings, control: Db, type: UserType, parentId: string | null | undefined): Promise<UserRow | null> {
  if (type === 'agent') {
    if (!parentId) throw apiError(USER_MESSAGES.parentRequired);
    const parent = (await userAnywhere(env, control, parentId))?.row;
    if (parent?.userType !== 'manager') throw apiError(USER_MESSAGES.wrongParent);
    return parent;
  }
  if (type === 'manager' && parentId) {
    const parent = (await userAnywhere(env, control, parentId))?.row;
    if (parent?.userType !== 'director') throw apiError(USER_MESSAGES.wrongDirector);
    return parent;
  }
  return null;
}

/** The admin creates any type; a manager creates agents under itself. */
export async function createUser(env: Bindings, control: Db, caller: Caller, input: NewUser) {
  const type: UserType = caller.userType === 'admin' ? (input.newUserType ?? 'agent') : 'agent';
  const parent = caller.userType === 'admin' ? await checkParent(env, control, type, input.parentUser) : caller;
  const parentId = parent?.id ?? null;
  // only the admin's form has phone and country; a manager's agent gets neither
  const { phone, country } = caller.userType === 'admin' ? input : { phone: '', country: '' };
  const { email } = input;
  await emailIsFree(control, email);
  const user = {
    id: randomId(),
    name: input.name,
    email,
    passwordHash: await hashPassword(input.password, secrets(env).pepper),
    userType: type,
    parentId,
    phone,
    country,
    registrationDate: new Date(),
    isEmailVerified: false,
  };
  const home = await insertAccount(env, control, user, parent);
  const created = (await liveUser(home.db, user.id))!;
  return { message: 'User created. A verification e-mail has been sent.', user: (await toDtos(home.db, [created]))[0]! };
}

/**
 * Soft delete: the token version moves on and the e-mail is free again; the user's data stays.
 * A manager with agents is refused until they are moved or deleted.
 */
export async function deleteUser(env: Bindings, control: Db, home: Home, caller: Caller, userId: string) {
  const db = home.db;
  const target = await visibleUser(db, caller, userId);
  if (target.id === caller.id) throw apiError(COMMON_MESSAGES.cannotDeleteSelf);
  const allowed = caller.userType === 'admin' || (caller.userType === 'manager' && target.parentId === caller.id);
  if (!allowed) throw apiError(COMMON_MESSAGES.notAllowedDelete);
  if (target.userType === 'manager' && (await childrenOf(db, [target.id])).length) throw apiError(COMMON_MESSAGES.managerHasAgents);
  const now = new Date();
  const orphans = target.userType === 'director' ? await childrenOf(db, [target.id]) : [];
  await db.batch([
    db
      .update(users)
      .set({ deletedAt: now, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, target.id)),
    db
      .update(users)
      .set({ parentId: null, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(and(eq(users.parentId, target.id), live)),
  ]);
  // the e-mail is free again; a deleted director's managers lead companies of their own
  await settleAccount(control, target.id, { ...target, deletedAt: now });
  await splitAfterDirector(env, control, home, orphans);
  return { message: `${target.name} has been deleted` };
}

/** docs/decisions/0185-erasing-a-deleted-team.md. Rerunnable: every part deletes what is left. */
export async function eraseTeam(env: Bindings, control: Db, home: Home, caller: Caller, userId: string) {
  if (caller.userType !== 'admin') throw apiError(COMMON_MESSAGES.notAllowedDelete);
  const [target] = await home.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!target) throw apiError(COMMON_MESSAGES.userNotFound);
  if (target.userType !== 'manager') throw apiError(USER_MESSAGES.chooseManager);
  // a live manager is deleted first, with the delete's own checks (its agents gone); another erase
  // of the same team may delete it meanwhile (the delete then answers 404), which is as good
  if (!target.deletedAt)
    await deleteUser(env, control, home, caller, userId).catch(async (err: unknown) => {
      const [now] = await home.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).limit(1);
      if (!now?.deletedAt) throw err;
    });
  await eraseTeamHistory(fencedD1(d1Of(env, home.shard), home.companyId), env.HISTORY_ARCHIVE, target.id);
  return { message: `${target.name} has been deleted` };
}

export async function updateName(db: Db, caller: Caller, id: string, newName: string) {
  const target = await managedUser(db, caller, id);
  await db.update(users).set({ name: newName }).where(eq(users.id, target.id));
  return { message: 'Name updated' };
}

async function adminTarget(db: Db, caller: Caller, id: string) {
  if (caller.userType !== 'admin') throw apiError(GENERAL_MESSAGES.notAllowed);
  return visibleUser(db, caller, id);
}

/** A user who still leads a team keeps its role; the change ends the user's sessions, so a demotion takes effect at once. */
export async function updateType(env: Bindings, control: Db, home: Home, caller: Caller, id: string, type: UserType, newParent?: string | null) {
  const db = home.db;
  const target = await adminTarget(db, caller, id);
  if (target.id === caller.id) throw apiError(COMMON_MESSAGES.cannotChangeOwnType);
  if (target.userType === type) return { message: 'User type updated' };
  if ((await childrenOf(db, [target.id])).length) throw apiError(COMMON_MESSAGES.userHasTeam);
  if (newParent === target.id) throw apiError(COMMON_MESSAGES.ownParent);
  const wanted = newParent !== undefined ? newParent : type === 'agent' ? target.parentId : null;
  const parent = await checkParent(env, control, type, wanted);
  await changeRoleOrParent(env, control, home, target, { userType: type, parentId: parent?.id ?? null }, parent);
  return { message: 'User type updated' };
}

export async function updateParent(env: Bindings, control: Db, home: Home, caller: Caller, id: string, newParent: string | null) {
  const target = await adminTarget(home.db, caller, id);
  if (target.userType !== 'agent' && target.userType !== 'manager') throw apiError(COMMON_MESSAGES.onlyAgentsHaveParent);
  if (newParent === target.id) throw apiError(COMMON_MESSAGES.ownParent);
  const parent = await checkParent(env, control, target.userType, newParent || null);
  await changeRoleOrParent(env, control, home, target, { userType: target.userType, parentId: parent?.id ?? null }, parent);
  return { message: 'Parent updated' };
}

/** Admin: Start Trial gives ADMIN_TRIAL_DAYS unless a later end date exists; Stop Trial ends it now. */
export async function setTrial(db: Db, caller: Caller, id: string, isActive: boolean) {
  const target = await adminTarget(db, caller, id);
  const now = Date.now();
  const end = target.subscriptionEndDate?.getTime() ?? 0;
  if (isActive) {
    const subscriptionEndDate = end > now ? target.subscriptionEndDate : new Date(now + ADMIN_TRIAL_DAYS * DAY);
    await db.update(users).set({ isTrialPeriod: true, subscriptionEndDate }).where(eq(users.id, target.id));
    return { message: 'Trial started' };
  }
  const subscriptionEndDate = target.isTrialPeriod && end > now ? new Date(now) : target.subscriptionEndDate;
  await db.update(users).set({ isTrialPeriod: false, subscriptionEndDate }).where(eq(users.id, target.id));
  return { message: 'Trial stopped' };
}

export async function setTrialEndDate(db: Db, caller: Caller, id: string, date: Date) {
  const target = await adminTarget(db, caller, id);
  await db.update(users).set({ subscriptionEndDate: date }).where(eq(users.id, target.id));
  return { message: 'Trial end date updated' };
}

export async function resendVerification(env: Bindings, db: Db, caller: Caller, id: string) {
  const target = await managedUser(db, caller, id);
  if (target.isEmailVerified) throw apiError(COMMON_MESSAGES.alreadyVerified);
  await enforceLimit(env, `mail:${target.email}`, LIMITS.mailPerAddress, AUTH_MESSAGES.tooManyMails);
  await sendTokenMail(env, db, target, 'verify');
  return { message: 'Verification e-mail sent' };
}
