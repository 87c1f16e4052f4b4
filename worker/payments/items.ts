import { eq, sql } from 'drizzle-orm';
import { paymentItems, payments } from '../db/schema';
import type { Db } from '../env';
import { inJson } from '../lib/db';

export interface OrderItem {
  userId: string;
  months: number;
  days: number;
  /** Whole AMD before the order's promo discount. */
  price: number;
}

/** Only if the order row is there; one JSON parameter for all (D1 binds at most 100 per statement). */
export const insertItems = (db: Db, orderId: string, items: readonly OrderItem[]) => {
  const json = JSON.stringify(items.map((i) => ({ u: i.userId, m: i.months, d: i.days, p: i.price })));
  return db.insert(paymentItems).select(
    db
      .select({
        // every column, in the table's order
        paymentId: sql<string>`${orderId}`.as('payment_id'),
        userId: sql<string>`value ->> 'u'`.as('user_id'),
        months: sql<number>`value ->> 'm'`.as('months'),
        days: sql<number>`value ->> 'd'`.as('days'),
        price: sql<number>`value ->> 'p'`.as('price'),
        newEndDate: sql<null>`null`.as('new_end_date'),
      })
      .from(sql`json_each(${json})`)
      .where(sql`exists (select 1 from ${payments} where ${payments.id} = ${orderId})`),
  );
};

export const itemsOf = (db: Db, orderId: string) => db.select().from(paymentItems).where(eq(paymentItems.paymentId, orderId)).orderBy(sql`rowid`);

/** The items of several orders (Payment History), by order id. */
export async function itemsByOrder(db: Db, orderIds: string[]) {
  const byOrder = new Map<string, (typeof paymentItems.$inferSelect)[]>();
  if (!orderIds.length) return byOrder;
  for (const item of await db.select().from(paymentItems).where(inJson(paymentItems.paymentId, orderIds)).orderBy(sql`rowid`))
    byOrder.set(item.paymentId, [...(byOrder.get(item.paymentId) ?? []), item]);
  return byOrder;
}
