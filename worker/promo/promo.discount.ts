import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { promoCodes, promoUses } from '../db/schema';
import type { Db } from '../env';

/** The confirmation spends the discount in the same D1 batch that extends the subscription, which extends only if that batch spent it. */
export interface PendingDiscount {
  promoUseId: string;
  name: string;
  percent: number;
}

export async function pendingDiscount(db: Db, userId: string): Promise<PendingDiscount | null> {
  const [row] = await db
    .select({ promoUseId: promoUses.id, name: promoCodes.name, percent: promoCodes.effectValue })
    .from(promoUses)
    .innerJoin(promoCodes, eq(promoCodes.id, promoUses.promoId))
    .where(and(eq(promoUses.userId, userId), isNull(promoUses.orderId), eq(promoCodes.effectType, 'discountPercent')))
    .orderBy(desc(promoUses.useDate))
    .limit(1);
  return row ? { ...row, percent: Math.min(100, Math.max(0, row.percent)) } : null;
}

/** SQL: the promo use was spent on this order (true once `spendDiscount` for it landed). */
export const discountSpentOn = (promoUseId: string, orderId: string): SQL =>
  sql`exists (select 1 from ${promoUses} where ${promoUses.id} = ${promoUseId} and ${promoUses.orderId} = ${orderId})`;

/** The statement that spends a pending discount on an order; put it in the confirmation's batch. */
export const spendDiscount = (db: Db, promoUseId: string, orderId: string) =>
  db
    .update(promoUses)
    .set({ orderId })
    .where(and(eq(promoUses.id, promoUseId), isNull(promoUses.orderId)));
