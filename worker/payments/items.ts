import { eq, sql } from 'drizzle-orm';
import { paymentItems, payments } from '../db/schema';
import type { Db } from '../env';
import { inJson } from '../lib/db';

/** One line of a team order: whom it pays for, and what. */
export interface OrderItem {
  userId: string;
  months: number;
  days: number;
  /** Whole AMD before the order's promo discount. */
  price: number;
}

/**
 * The statement that records a team order's items, only if the order row is there (a free order's
 * row is inserted only if it won its discount, in the same batch). One JSON parameter for all of
 * them: D1 binds at most 100 parameters per statement.
 */
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

/** A team order's items, in the order they were recorded. */
export const itemsOf = (db: Db, orderId: string) => db.select().from(paymentItems).where(eq(paymentItems.paymentId, orderId)).orderBy(sql`rowid`);

/** The items of several orders (Payment History), by order id. */
export async function itemsByOrder(db: Db, orderIds: string[]) {
  const byOrder = new Map<string, (typeof paymentItems.$inferSelect)[]>();
  if (!orderIds.length) return byOrder;
  for (const item of await db.select().from(paymentItems).where(inJson(paymentItems.paymentId, orderIds)).orderBy(sql`rowid`))
    byOrder.set(item.paymentId, [...(byOrder.get(item.paymentId) ?? []), item]);
  return byOrder;
}
