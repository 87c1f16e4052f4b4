import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { normalizeEmail } from '../auth/auth.schema';
import { promoCodes, promoUses } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { inJson, isUniqueViolation } from '../lib/db';
import { findUserByEmail, userAnywhere } from '../lib/directory';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { checkLimit, countHit, type Limit } from '../lib/rate-limit';
import { applyPromoUse, tryApply } from '../payments/settle';
import { peopleByIds } from '../users/people';
import { pendingDiscount } from './promo.discount';
import {
  effectLabel,
  normalizeCode,
  PROMO_MESSAGES,
  type PromoCheckDto,
  type PromoDto,
  type PromoEffectType,
  type PromoStatus,
  type UsePromoResult,
} from './promo.schema';

type PromoRow = typeof promoCodes.$inferSelect;

/** Unambiguous alphabet (no 0/O, 1/I/L): codes are read aloud and typed by hand. 31^10 ≈ 8·10^14 codes. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 10;
/** Wrong codes a user may try before checks are refused for a while (guessing is hopeless anyway). */
export const PROMO_GUESS_LIMIT: Limit = { limit: 30, windowMs: 15 * 60_000 };
/** Most codes any list answers (newest first). */
const LIST_LIMIT = 5000;

/** A code from `crypto.getRandomValues`, by rejection sampling (no modulo bias). */
export function randomCode(length = CODE_LENGTH) {
  const cut = 256 - (256 % CODE_ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < cut && out.length < length) out += CODE_ALPHABET[b % CODE_ALPHABET.length];
    }
  }
  return out;
}

const json = (value: unknown) => JSON.stringify(value);

export const statusOf = (r: Pick<PromoRow, 'usedCount' | 'maxUses' | 'isFree' | 'assignedUserId'>): PromoStatus =>
  r.usedCount >= r.maxUses ? 'finished' : r.isFree && r.usedCount === 0 && !r.assignedUserId ? 'free' : 'used';

const STATUS_WHERE: Record<PromoStatus, SQL> = {
  finished: gte(promoCodes.usedCount, promoCodes.maxUses),
  free: and(eq(promoCodes.isFree, true), eq(promoCodes.usedCount, 0), isNull(promoCodes.assignedUserId))!,
  used: and(lt(promoCodes.usedCount, promoCodes.maxUses), or(eq(promoCodes.isFree, false), gt(promoCodes.usedCount, 0), isNotNull(promoCodes.assignedUserId)))!,
};

/** Two control-plane queries whatever the number of codes, then one query per shard for the users. */
async function listWhere(env: Bindings, db: Db, where: SQL | undefined): Promise<PromoDto[]> {
  const rows = await db.select().from(promoCodes).where(where).orderBy(desc(promoCodes.createdAt), asc(promoCodes.name)).limit(LIST_LIMIT);
  const used = rows.filter((r) => r.usedCount > 0).map((r) => r.id);
  const uses = used.length
    ? await db
        .select({ promoId: promoUses.promoId, useDate: promoUses.useDate, userId: promoUses.userId })
        .from(promoUses)
        .where(inJson(promoUses.promoId, used))
        .orderBy(asc(promoUses.useDate))
    : [];
  const people = await peopleByIds(env, db, [...rows.map((r) => r.assignedUserId ?? ''), ...uses.map((u) => u.userId)]);
  const usesOf = new Map<string, PromoDto['usedUsersList']>();
  for (const u of uses) {
    const list = usesOf.get(u.promoId) ?? [];
    const who = people.get(u.userId);
    list.push({ user: who ? { _id: u.userId, email: who.email, name: who.name } : null, useDate: u.useDate.toISOString() });
    usesOf.set(u.promoId, list);
  }
  return rows.map((r) => {
    const assigned = r.assignedUserId ? people.get(r.assignedUserId) : undefined;
    return toDto(r, assigned?.email ?? '', assigned?.name ?? '', usesOf.get(r.id) ?? []);
  });
}

const toDto = (r: PromoRow, assignedEmail: string, assignedName: string, usedUsersList: PromoDto['usedUsersList']): PromoDto => ({
  _id: r.id,
  name: r.name,
  effectType: r.effectType,
  effectValue: r.effectValue,
  status: statusOf(r),
  isFree: r.isFree,
  isPublic: r.isPublic,
  maxUses: r.maxUses,
  usedCount: r.usedCount,
  assignedUser: r.assignedUserId ? { _id: r.assignedUserId, email: assignedEmail, name: assignedName } : null,
  createdAt: r.createdAt.toISOString(),
  usedUsersList,
});

export const list = (env: Bindings, db: Db, which: PromoStatus | 'all') => listWhere(env, db, which === 'all' ? undefined : STATUS_WHERE[which]);

async function one(env: Bindings, db: Db, id: string): Promise<PromoDto> {
  const [dto] = await listWhere(env, db, eq(promoCodes.id, id));
  if (!dto) throw apiError(PROMO_MESSAGES.notFound);
  return dto;
}

/** One INSERT … SELECT over a JSON array (D1 counts statements per request); a name taken is drawn again. */
export async function createRandom(env: Bindings, db: Db, caller: Caller, input: { effectType: PromoEffectType; effectValue: number; generateAmount: number }) {
  const createdAt = Date.now();
  const made: string[] = [];
  for (let round = 0; round < 5 && made.length < input.generateAmount; round++) {
    const batch = Array.from({ length: input.generateAmount - made.length }, () => [randomId(), randomCode()]);
    await db
      .insert(promoCodes)
      .select(
        sql`select json_extract(value, '$[0]'), json_extract(value, '$[1]'), ${input.effectType}, ${input.effectValue}, 1, 1, 1, 0, null, ${caller.id}, ${createdAt}
          from json_each(${json(batch)}) where true`,
      )
      .onConflictDoNothing();
    const landed = await db
      .select({ id: promoCodes.id })
      .from(promoCodes)
      .where(
        inJson(
          promoCodes.id,
          batch.map((b) => b[0]!),
        ),
      );
    made.push(...landed.map((r) => r.id));
  }
  const codes = await listWhere(env, db, inJson(promoCodes.id, made));
  return { message: `${codes.length} promo code${codes.length === 1 ? '' : 's'} created`, codes };
}

export async function create(
  env: Bindings,
  db: Db,
  caller: Caller,
  input: { name: string; effectType: PromoEffectType; effectValue: number; maxUses: number; isPublic: boolean },
) {
  const id = randomId();
  const result = await db
    .insert(promoCodes)
    .values({
      id,
      name: input.name,
      effectType: input.effectType,
      effectValue: input.effectValue,
      maxUses: input.maxUses,
      isPublic: input.isPublic,
      createdBy: caller.id,
      createdAt: new Date(),
    })
    .onConflictDoNothing();
  if (!result.meta.changes) throw apiError(PROMO_MESSAGES.nameTaken);
  return one(env, db, id);
}

async function byId(db: Db, id: string) {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id)).limit(1);
  if (!row) throw apiError(PROMO_MESSAGES.notFound);
  return row;
}

/** Only a code nobody has used: who used what is history and stays. */
export async function remove(db: Db, id: string) {
  const row = await byId(db, id);
  const result = await db
    .delete(promoCodes)
    .where(and(eq(promoCodes.id, row.id), eq(promoCodes.usedCount, 0), sql`not exists (select 1 from ${promoUses} where ${promoUses.promoId} = ${row.id})`));
  if (!result.meta.changes) throw apiError(PROMO_MESSAGES.deleteUsed);
  return { message: 'Promo code deleted' };
}

/** Ties an unused code to one user of any company (by id or e-mail, through the directory): only that user may use it; it is handed out. */
export async function assign(env: Bindings, db: Db, input: { id: string; userId?: string; email?: string }) {
  const row = await byId(db, input.id);
  const email = normalizeEmail(input.email ?? '');
  const found = input.userId?.trim() ? await userAnywhere(env, db, input.userId.trim()) : email ? await findUserByEmail(env, db, email) : undefined;
  const user = found?.row;
  if (!user || user.deletedAt) throw apiError(PROMO_MESSAGES.userNotFound);
  if (user.userType === 'marketing') throw apiError(PROMO_MESSAGES.userCannotUse);
  const result = await db
    .update(promoCodes)
    .set({ assignedUserId: user.id, isPublic: false, isFree: false })
    .where(and(eq(promoCodes.id, row.id), eq(promoCodes.usedCount, 0)));
  if (!result.meta.changes) throw apiError(PROMO_MESSAGES.assignUsed);
  return { message: `Promo code ${row.name} assigned to ${user.email}`, promo: await one(env, db, row.id) };
}

/** The code becomes public again; an unused one goes back to the free list. */
export async function unassign(env: Bindings, db: Db, id: string) {
  const row = await byId(db, id);
  await db
    .update(promoCodes)
    .set({ assignedUserId: null, isPublic: true, isFree: sql`case when ${promoCodes.usedCount} = 0 then 1 else ${promoCodes.isFree} end` })
    .where(eq(promoCodes.id, row.id));
  return { message: 'Assignment removed', promo: await one(env, db, row.id) };
}

export async function setFreeStatus(db: Db, items: { _id?: string; name?: string; isFree: boolean }[]) {
  const names = items.filter((i) => !i._id && i.name).map((i) => normalizeCode(i.name!));
  const idOfName = new Map<string, string>();
  if (names.length)
    for (const r of await db.select({ id: promoCodes.id, name: promoCodes.name }).from(promoCodes).where(inJson(promoCodes.name, names)))
      idOfName.set(r.name, r.id);
  const pairs = items.map((i) => [i._id ?? idOfName.get(normalizeCode(i.name ?? '')) ?? '', i.isFree ? 1 : 0]).filter((p) => p[0]);
  if (!pairs.length) return { message: '0 promo codes updated', updated: 0 };
  // each code's new value, looked up in the [id, isFree] pairs bound as one JSON parameter
  const result = await db
    .update(promoCodes)
    .set({ isFree: sql`(select json_extract(value, '$[1]') from json_each(${json(pairs)}) where json_extract(value, '$[0]') = ${promoCodes.id})` })
    .where(
      inJson(
        promoCodes.id,
        pairs.map((p) => p[0]),
      ),
    );
  const updated = result.meta.changes ?? 0;
  return { message: `${updated} promo code${updated === 1 ? '' : 's'} updated`, updated };
}

const checkDto = (r: PromoRow): PromoCheckDto => ({
  _id: r.id,
  name: r.name,
  effectType: r.effectType,
  effectValue: r.effectValue,
  usesLeft: Math.max(0, r.maxUses - r.usedCount),
});

/** Whether the caller may use the code now, or the reason why not (the same order as `use`). */
async function usable(env: Bindings, db: Db, caller: Caller, rawName: string): Promise<PromoRow> {
  const limitKey = `promo-guess:${caller.id}`;
  await checkLimit(env, limitKey, PROMO_GUESS_LIMIT, PROMO_MESSAGES.tooManyChecks);
  const [row] = await db
    .select()
    .from(promoCodes)
    .where(eq(promoCodes.name, normalizeCode(rawName)))
    .limit(1);
  // a code reserved for someone else is, for this caller, not there at all
  if (!row || (!row.isPublic && row.assignedUserId !== caller.id)) {
    await countHit(env, limitKey, PROMO_GUESS_LIMIT);
    throw apiError(PROMO_MESSAGES.notFound);
  }
  const [mine] = await db
    .select({ id: promoUses.id })
    .from(promoUses)
    .where(and(eq(promoUses.promoId, row.id), eq(promoUses.userId, caller.id)))
    .limit(1);
  if (mine) throw apiError(PROMO_MESSAGES.alreadyUsed);
  if (row.usedCount >= row.maxUses) throw apiError(PROMO_MESSAGES.finished);
  if (row.effectType === 'discountPercent' && (await pendingDiscount(db, caller.id))) throw apiError(PROMO_MESSAGES.pending);
  return row;
}

export async function check(env: Bindings, db: Db, caller: Caller, name: string): Promise<PromoCheckDto> {
  return checkDto(await usable(env, db, caller, name));
}

/** A pending discount of the caller, in SQL (the batch's own guard against a second one). */
const hasPendingDiscount = (callerId: string) => sql`exists (select 1 from ${promoUses} join ${promoCodes} on ${promoCodes.id} = ${promoUses.promoId}
  where ${promoUses.userId} = ${callerId} and ${promoUses.orderId} is null and ${promoCodes.effectType} = 'discountPercent')`;

/**
 * Exactly once however many requests race: one batch, no read-then-write. The use row lands only
 * while `used_count < max_uses` and no other discount is pending; the count rises only if it landed.
 * Free months are then computed in SQL from the stored end date, so a payment landing at once adds
 * its own months on top. If nothing landed, `usable` names the reason.
 */
export async function use(env: Bindings, db: Db, home: { companyId: string; shard: string }, caller: Caller, name: string): Promise<UsePromoResult> {
  const row = await usable(env, db, caller, name);
  const useId = randomId();
  const now = new Date();
  const landed = sql`exists (select 1 from ${promoUses} where ${promoUses.id} = ${useId})`;
  // INSERT … SELECT: the select yields the row only while the conditions hold (columns in table order)
  const insertUse = db.insert(promoUses).select(
    db
      .select({
        id: sql<string>`${useId}`.as('id'),
        promoId: promoCodes.id,
        userId: sql<string>`${caller.id}`.as('user_id'),
        useDate: sql<number>`${now.getTime()}`.as('use_date'),
        orderId: sql<null>`null`.as('order_id'),
        applyPending: sql<number>`${row.effectType === 'freeMonths' ? 1 : 0}`.as('apply_pending'),
        appliedAt: sql<null>`null`.as('applied_at'),
      })
      .from(promoCodes)
      .where(
        and(
          eq(promoCodes.id, row.id),
          lt(promoCodes.usedCount, promoCodes.maxUses),
          or(eq(promoCodes.isPublic, true), eq(promoCodes.assignedUserId, caller.id)),
          row.effectType === 'discountPercent' ? sql`not ${hasPendingDiscount(caller.id)}` : undefined,
        ),
      ),
  );
  const increment = db
    .update(promoCodes)
    .set({ usedCount: sql`${promoCodes.usedCount} + 1`, isFree: false })
    .where(and(eq(promoCodes.id, row.id), lt(promoCodes.usedCount, promoCodes.maxUses), landed));
  try {
    await db.batch([insertUse, increment]);
  } catch (err) {
    // the unique (promo, user) index: the same user raced itself, and the other request won
    if (isUniqueViolation(err, 'promo_uses.user_id')) throw apiError(PROMO_MESSAGES.alreadyUsed);
    throw err;
  }
  const [mine] = await db.select({ id: promoUses.id }).from(promoUses).where(eq(promoUses.id, useId)).limit(1);
  if (!mine) {
    // not landed: a racing request took the last use or left a discount pending; `usable` says which
    await usable(env, db, caller, name);
    throw apiError(PROMO_MESSAGES.busy);
  }
  const applied =
    row.effectType === 'freeMonths'
      ? await tryApply('promo', useId, () => applyPromoUse(env, db, useId, { userId: caller.id, months: row.effectValue, useDate: now, home }))
      : undefined;
  const newEnd = applied?.ok ? applied.value : null;
  return {
    message: `Promo code applied: ${effectLabel(row.effectType, row.effectValue)}`,
    promo: checkDto({ ...row, usedCount: row.usedCount + 1 }),
    subscriptionEndDate: newEnd ? newEnd.toISOString() : null,
    discountPercent: row.effectType === 'discountPercent' ? row.effectValue : 0,
  };
}
