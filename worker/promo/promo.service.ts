import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { promoCodes, promoUses, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { badRequest, conflict, notFound } from '../lib/errors';
import { randomId } from '../lib/ids';
import { extendByMonths } from '../lib/subscription';
import { pendingDiscount } from './promo.discount';
import { effectValueError, PROMO_MESSAGES, type PromoDto } from './promo.schema';

type PromoRow = typeof promoCodes.$inferSelect;
/** Unambiguous alphabet (no 0/O, 1/I/L): codes are read aloud and typed by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 10;

export function randomCode(length = CODE_LENGTH) {
  let out = '';
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out += CODE_ALPHABET[b % CODE_ALPHABET.length];
    }
  }
  return out;
}

const normalize = (name: string) => name.trim().toUpperCase();

async function toDtos(db: Db, rows: PromoRow[]): Promise<PromoDto[]> {
  const ids = rows.map((r) => r.id);
  const uses: { promoId: string; useDate: Date; userId: string; email: string | null; name: string | null }[] = [];
  const userIds = new Set(rows.map((r) => r.assignedUserId).filter((x): x is string => !!x));
  for (let i = 0; i < ids.length; i += 90) {
    uses.push(
      ...(await db
        .select({ promoId: promoUses.promoId, useDate: promoUses.useDate, userId: promoUses.userId, email: users.email, name: users.name })
        .from(promoUses)
        .leftJoin(users, eq(users.id, promoUses.userId))
        .where(inArray(promoUses.promoId, ids.slice(i, i + 90)))),
    );
  }
  const assigned = new Map<string, string>();
  const list = [...userIds];
  for (let i = 0; i < list.length; i += 90)
    for (const u of await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, list.slice(i, i + 90)))) assigned.set(u.id, u.email);
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    effectType: r.effectType,
    effectValue: r.effectValue,
    isFree: r.isFree,
    isPublic: r.isPublic,
    maxUses: r.maxUses,
    usedCount: r.usedCount,
    assignedUser: r.assignedUserId ? { _id: r.assignedUserId, email: assigned.get(r.assignedUserId) ?? '' } : null,
    createdAt: r.createdAt.toISOString(),
    usedUsersList: uses
      .filter((u) => u.promoId === r.id)
      .map((u) => ({ user: u.email ? { _id: u.userId, email: u.email, name: u.name ?? '' } : null, useDate: u.useDate.toISOString() })),
  }));
}

/** free: not handed out and unused; used: handed out or partly used; finished: every use taken. */
export type PromoList = 'all' | 'free' | 'used' | 'finished';

export async function list(db: Db, which: PromoList) {
  const where =
    which === 'free'
      ? and(eq(promoCodes.isFree, true), eq(promoCodes.usedCount, 0))
      : which === 'used'
        ? and(lt(promoCodes.usedCount, promoCodes.maxUses), or(eq(promoCodes.isFree, false), gt(promoCodes.usedCount, 0)))
        : which === 'finished'
          ? gte(promoCodes.usedCount, promoCodes.maxUses)
          : undefined;
  const rows = await db.select().from(promoCodes).where(where).orderBy(desc(promoCodes.createdAt), asc(promoCodes.name)).limit(5000);
  return toDtos(db, rows);
}

export async function createRandom(db: Db, caller: Caller, input: { effectType: PromoRow['effectType']; effectValue: number; generateAmount: number }) {
  const problem = effectValueError(input.effectType, input.effectValue);
  if (problem) throw badRequest(problem);
  const createdAt = new Date();
  const rows = Array.from({ length: input.generateAmount }, () => ({
    id: randomId(),
    name: randomCode(),
    effectType: input.effectType,
    effectValue: input.effectValue,
    createdBy: caller.id,
    createdAt,
  }));
  const statements = rows.map((r) => db.insert(promoCodes).values(r).onConflictDoNothing());
  await db.batch(statements as [(typeof statements)[0], ...(typeof statements)[number][]]);
  const made = await db.select().from(promoCodes).where(inArray(promoCodes.id, rows.map((r) => r.id).slice(0, 90)));
  const rest = rows.length > 90 ? await db.select().from(promoCodes).where(and(eq(promoCodes.createdBy, caller.id), eq(promoCodes.createdAt, createdAt))) : [];
  const byId = new Map([...made, ...rest].map((r) => [r.id, r]));
  return { message: `${byId.size} promo codes created`, codes: await toDtos(db, [...byId.values()]) };
}

export async function create(db: Db, caller: Caller, input: { name: string; effectType: PromoRow['effectType']; effectValue: number; maxUses: number; isPublic: boolean }) {
  const name = normalize(input.name);
  if (!/^[A-Z0-9-]{4,32}$/.test(name)) throw badRequest(PROMO_MESSAGES.name);
  const problem = effectValueError(input.effectType, input.effectValue);
  if (problem) throw badRequest(problem);
  const row = { id: randomId(), name, effectType: input.effectType, effectValue: input.effectValue, maxUses: input.maxUses, isPublic: input.isPublic, createdBy: caller.id, createdAt: new Date() };
  try {
    await db.insert(promoCodes).values(row);
  } catch {
    throw conflict(PROMO_MESSAGES.nameTaken);
  }
  return (await toDtos(db, [{ ...row, isFree: true, usedCount: 0, assignedUserId: null }]))[0]!;
}

async function byId(db: Db, id: string) {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id)).limit(1);
  if (!row) throw notFound(PROMO_MESSAGES.notFound);
  return row;
}

export async function remove(db: Db, id: string) {
  const row = await byId(db, id);
  if (row.usedCount > 0) throw conflict(PROMO_MESSAGES.deleteUsed);
  await db.delete(promoCodes).where(and(eq(promoCodes.id, row.id), eq(promoCodes.usedCount, 0)));
  return { message: 'Promo code deleted' };
}

/** Ties a code to one user: only that user may use it (and it is no longer free to hand out). */
export async function assign(db: Db, input: { id: string; userId?: string; email?: string }) {
  const row = await byId(db, input.id);
  const [user] = input.userId
    ? await db.select().from(users).where(and(eq(users.id, input.userId), isNull(users.deletedAt))).limit(1)
    : await db.select().from(users).where(and(eq(users.email, (input.email ?? '').trim().toLowerCase()), isNull(users.deletedAt))).limit(1);
  if (!user) throw notFound('User not found');
  await db.update(promoCodes).set({ assignedUserId: user.id, isPublic: false, isFree: false }).where(eq(promoCodes.id, row.id));
  return { message: `Promo code assigned to ${user.email}` };
}

export async function unassign(db: Db, id: string) {
  const row = await byId(db, id);
  await db.update(promoCodes).set({ assignedUserId: null, isPublic: true }).where(eq(promoCodes.id, row.id));
  return { message: 'Assignment removed' };
}

export async function setFreeStatus(db: Db, list: { _id: string; isFree: boolean }[]) {
  const statements = list.map((item) => db.update(promoCodes).set({ isFree: item.isFree }).where(eq(promoCodes.id, item._id)));
  const results = await db.batch(statements as [(typeof statements)[0], ...(typeof statements)[number][]]);
  const changed = results.reduce((n, r) => n + ((r as { meta?: { changes?: number } }).meta?.changes ?? 0), 0);
  return { message: `${changed} promo codes updated` };
}

/** What a user may do with a code, or why not. */
async function usable(db: Db, caller: Caller, rawName: string) {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.name, normalize(rawName))).limit(1);
  if (!row || (row.assignedUserId && row.assignedUserId !== caller.id)) throw notFound(PROMO_MESSAGES.notFound);
  const [mine] = await db.select({ id: promoUses.id }).from(promoUses).where(and(eq(promoUses.promoId, row.id), eq(promoUses.userId, caller.id))).limit(1);
  if (mine) throw badRequest(PROMO_MESSAGES.alreadyUsed);
  if (row.usedCount >= row.maxUses) throw badRequest(PROMO_MESSAGES.finished);
  return row;
}

export async function check(db: Db, caller: Caller, name: string) {
  return (await toDtos(db, [await usable(db, caller, name)]))[0]!;
}

/**
 * Uses a code once for the caller. One D1 batch: the use row goes in only while uses remain
 * (the unique promo+user index refuses a second use), the count is recomputed from the rows,
 * and free months extend the subscription only if this use landed. Exact under concurrency.
 */
export async function use(env: Bindings, db: Db, caller: Caller, name: string) {
  const row = await usable(db, caller, name);
  if (row.effectType === 'discountPercent' && (await pendingDiscount(db, caller.id))) throw conflict(PROMO_MESSAGES.pending);
  const useId = randomId();
  const now = new Date();
  // the use row goes in only while uses remain: INSERT … SELECT … WHERE used_count < max_uses
  const insertUse = db.insert(promoUses).select(
    db
      .select({
        id: sql<string>`${useId}`.as('id'),
        promoId: promoCodes.id,
        userId: sql<string>`${caller.id}`.as('user_id'),
        useDate: sql<number>`${now.getTime()}`.as('use_date'),
        orderId: sql<null>`null`.as('order_id'),
      })
      .from(promoCodes)
      .where(and(eq(promoCodes.id, row.id), lt(promoCodes.usedCount, promoCodes.maxUses))),
  );
  const recount = db
    .update(promoCodes)
    .set({ usedCount: sql`(select count(*) from ${promoUses} where ${promoUses.promoId} = ${row.id})`, isFree: false })
    .where(eq(promoCodes.id, row.id));
  const statements: Parameters<typeof db.batch>[0][number][] = [insertUse, recount];
  if (row.effectType === 'freeMonths') {
    const [me] = await db.select({ end: users.subscriptionEndDate }).from(users).where(eq(users.id, caller.id));
    const newEnd = extendByMonths(me?.end ?? null, row.effectValue, now);
    statements.push(
      db
        .update(users)
        .set({ subscriptionEndDate: newEnd })
        .where(and(eq(users.id, caller.id), sql`exists (select 1 from ${promoUses} where ${promoUses.id} = ${useId})`)),
    );
  }
  try {
    await db.batch(statements as [(typeof statements)[0], ...(typeof statements)[number][]]);
  } catch (err) {
    console.error('promo use batch', err);
    // the unique index: the same user raced itself
    throw badRequest(PROMO_MESSAGES.alreadyUsed);
  }
  const [landed] = await db.select({ id: promoUses.id }).from(promoUses).where(eq(promoUses.id, useId)).limit(1);
  if (!landed) throw badRequest(PROMO_MESSAGES.finished);
  void env;
  return {
    message:
      row.effectType === 'freeMonths'
        ? `Promo code applied: ${row.effectValue} free month${row.effectValue === 1 ? '' : 's'} added`
        : `Promo code applied: ${row.effectValue}% off your next payment`,
  };
}
