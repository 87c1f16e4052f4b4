import { and, isNull } from 'drizzle-orm';
import type * as z from 'zod';
import { users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { inJson } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { pendingDiscount } from '../promo/promo.discount';
import type { OrderItem } from './items';
import { alignDays, daysPrice, type generateTeamLinkSchema, MAX_ALIGN_DAYS, PAYMENT_MESSAGES, priceFor } from './payments.schema';
import { confirmFreeOrder, type NewOrder, recordOrder } from './payments.service';
import { pricesAt } from './prices';

/** `align`: each agent up to the manager's end date, by the day, priced pro rata. Anyone but a live agent: 404. */
export async function generateTeamLink(env: Bindings, control: Db, db: Db, caller: Caller, input: z.output<typeof generateTeamLinkSchema>) {
  if (input.paymentType.toLowerCase() === 'arca') throw apiError(PAYMENT_MESSAGES.arca);
  if (input.paymentType.toLowerCase() !== 'idram') throw apiError(PAYMENT_MESSAGES.paymentType);
  const ids = [...new Set(input.userIds)];
  const found = await db
    .select({
      id: users.id,
      name: users.name,
      parentId: users.parentId,
      userType: users.userType,
      isEmailVerified: users.isEmailVerified,
      end: users.subscriptionEndDate,
    })
    .from(users)
    .where(and(inJson(users.id, ids), isNull(users.deletedAt)));
  const byId = new Map(found.map((u) => [u.id, u]));
  const agents = ids.map((id) => byId.get(id)).filter((a): a is NonNullable<typeof a> => a?.userType === 'agent' && a.parentId === caller.id);
  // another team's user, the manager itself, a deleted or unknown id: as if it did not exist
  if (agents.length !== ids.length) throw apiError(PAYMENT_MESSAGES.userNotFound);
  if (agents.some((a) => !a.isEmailVerified)) throw apiError(PAYMENT_MESSAGES.notVerified);

  const { price } = await pricesAt(env, control);
  const now = Date.now();
  let items: OrderItem[];
  if (input.align) {
    const payerEnd = caller.subscriptionEndDate?.getTime() ?? null;
    if (payerEnd === null || payerEnd <= now) throw apiError(PAYMENT_MESSAGES.noEndToAlign);
    items = agents.map((a) => {
      const days = alignDays(payerEnd, a.end?.getTime() ?? null, now);
      if (days < 1) throw apiError(PAYMENT_MESSAGES.alreadyAligned, { name: a.name });
      if (days > MAX_ALIGN_DAYS) throw apiError(PAYMENT_MESSAGES.alignTooLong);
      return { userId: a.id, months: 0, days, price: daysPrice(price, days) };
    });
  } else {
    const months = input.amount!;
    items = agents.map((a) => ({ userId: a.id, months, days: 0, price: price * months }));
  }
  const subtotal = items.reduce((sum, i) => sum + i.price, 0);
  const discount = await pendingDiscount(control, caller.id);
  const priceTotal = priceFor(subtotal, 1, discount?.percent ?? 0);
  const order: NewOrder = {
    id: randomId(),
    kind: 'team',
    // a team order is the payer's; its payees are the items
    userId: caller.id,
    payerUserId: caller.id,
    amount: items.reduce((sum, i) => sum + i.months, 0),
    monthlyPrice: price,
  };
  if (priceTotal === 0 && discount) return confirmFreeOrder(env, control, order, discount.promoUseId, items);
  return recordOrder(env, control, order, priceTotal, discount?.promoUseId ?? null, items);
}
