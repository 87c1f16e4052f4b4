import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { PROMO_EFFECT_TYPES } from '../../promo/promo.schema';

export const promoCodes = sqliteTable(
  'promo_codes',
  {
    id: text().primaryKey(),
    name: text().notNull(),
    effectType: text({ enum: PROMO_EFFECT_TYPES }).notNull(),
    effectValue: integer().notNull(),
    isPublic: integer({ mode: 'boolean' }).notNull().default(true),
    // 'free' codes are not yet handed out; marketing marks them as given away
    isFree: integer({ mode: 'boolean' }).notNull().default(true),
    maxUses: integer().notNull().default(1),
    usedCount: integer().notNull().default(0),
    assignedUserId: text(),
    createdBy: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // checkPromoCode / usePromoCode by name
    uniqueIndex('promo_codes_name').on(t.name),
    index('promo_codes_created').on(t.createdAt),
  ],
);

export const promoUses = sqliteTable(
  'promo_uses',
  {
    id: text().primaryKey(),
    promoId: text().notNull(),
    userId: text().notNull(),
    useDate: integer({ mode: 'timestamp_ms' }).notNull(),
    // for a discount: the order it was spent on (null while pending for the next payment)
    orderId: text(),
    // free months not yet written in the user's shard (docs/decisions/0179-money-in-the-control-plane.md)
    applyPending: integer({ mode: 'boolean' }).notNull().default(false),
    appliedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    // a code is used once per user
    uniqueIndex('promo_uses_promo_user').on(t.promoId, t.userId),
    index('promo_uses_user').on(t.userId),
    // the sweep
    index('promo_uses_apply_pending').on(t.useDate).where(sql`apply_pending = 1`),
  ],
);
