import { and, asc, desc, eq, gt, lte } from 'drizzle-orm';
import type * as z from 'zod';
import { priceSchedule } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { PAYMENT_MESSAGES, type PriceChangeDto, type priceScheduleSchema } from './payments.schema';

/** MONTHLY_PRICE_AMD: the price until the admin schedules another. */
export const configuredPrice = (env: Bindings) => {
  const price = Number.parseInt(env.MONTHLY_PRICE_AMD, 10);
  return Number.isFinite(price) && price > 0 ? price : 5000;
};

/** Orders are priced with it when they are made. */
export async function pricesAt(env: Bindings, db: Db, now = new Date()) {
  const [[current], [next]] = await Promise.all([
    db.select().from(priceSchedule).where(lte(priceSchedule.effectiveFrom, now)).orderBy(desc(priceSchedule.effectiveFrom)).limit(1),
    db.select().from(priceSchedule).where(gt(priceSchedule.effectiveFrom, now)).orderBy(asc(priceSchedule.effectiveFrom)).limit(1),
  ]);
  return {
    price: current?.price ?? configuredPrice(env),
    upcoming: next ? { price: next.price, effectiveFrom: next.effectiveFrom.toISOString() } : null,
  };
}

const toDto = (row: typeof priceSchedule.$inferSelect, now: number): PriceChangeDto => ({
  _id: row.id,
  price: row.price,
  effectiveFrom: row.effectiveFrom.toISOString(),
  createdAt: row.createdAt.toISOString(),
  started: row.effectiveFrom.getTime() <= now,
});

export async function listPriceChanges(env: Bindings, db: Db) {
  const now = Date.now();
  const rows = await db.select().from(priceSchedule).orderBy(desc(priceSchedule.effectiveFrom)).limit(200);
  const prices = await pricesAt(env, db, new Date(now));
  return { price: prices.price, basePrice: configuredPrice(env), changes: rows.map((r) => toDto(r, now)) };
}

/** POST /api/payment/priceSchedule (admin): a new monthly price from a moment in the future; one change per moment. */
export async function schedulePrice(db: Db, caller: Caller, input: z.output<typeof priceScheduleSchema>) {
  if (input.effectiveFrom.getTime() <= Date.now()) throw apiError(PAYMENT_MESSAGES.priceInPast);
  const [row] = await db
    .insert(priceSchedule)
    .values({ id: randomId(), price: input.price, effectiveFrom: input.effectiveFrom, createdBy: caller.id, createdAt: new Date() })
    .onConflictDoNothing()
    .returning();
  if (!row) throw apiError(PAYMENT_MESSAGES.priceTaken);
  return { message: 'Price change scheduled', change: toDto(row, Date.now()) };
}

/** DELETE /api/payment/priceSchedule/{id} (admin): cancels a change that has not started (one statement: it cannot start in between). */
export async function cancelPriceChange(db: Db, id: string) {
  const now = new Date();
  const [gone] = await db
    .delete(priceSchedule)
    .where(and(eq(priceSchedule.id, id), gt(priceSchedule.effectiveFrom, now)))
    .returning({ id: priceSchedule.id });
  if (gone) return { message: 'Price change cancelled' };
  const [row] = await db.select({ id: priceSchedule.id }).from(priceSchedule).where(eq(priceSchedule.id, id)).limit(1);
  if (!row) throw apiError(PAYMENT_MESSAGES.scheduleNotFound);
  throw apiError(PAYMENT_MESSAGES.scheduleStarted);
}
