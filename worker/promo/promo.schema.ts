import * as z from 'zod';
import { PROMO_EFFECT_TYPES } from '../db/schema/promo';

export const PROMO_MESSAGES = {
  type: 'Select the promo type',
  notFound: 'Promo code not found',
  finished: 'Promo code is finished',
  alreadyUsed: 'You have already used this promo code',
  pending: 'You already have a promo discount waiting for your next payment',
  nameTaken: 'A promo code with this name already exists',
  name: 'A promo code name is 4 to 32 letters, digits or -',
  deleteUsed: 'A promo code that has been used cannot be deleted',
  percent: 'A discount is 1 to 100 percent',
  months: 'Free months are 1 to 24',
} as const;

export const EFFECT_TYPES = [
  { value: 'discountPercent', label: 'Discount on the next payment (%)' },
  { value: 'freeMonths', label: 'Free months, added at once' },
] as const;

const int = (message: string, max: number) => z.number({ message }).int(message).min(1, message).max(max, message);
const effectType = z.enum(PROMO_EFFECT_TYPES, { message: PROMO_MESSAGES.type });

/** Checks an effect's value against its type; answers the message or null. */
export function effectValueError(type: (typeof PROMO_EFFECT_TYPES)[number], value: number): string | null {
  if (type === 'discountPercent' && (value < 1 || value > 100)) return PROMO_MESSAGES.percent;
  if (type === 'freeMonths' && (value < 1 || value > 24)) return PROMO_MESSAGES.months;
  return null;
}

/** The screen's rule: a non-numeric or smaller value becomes 1. */
export const toPositiveInt = (text: string) => {
  const n = Math.floor(Number(text));
  return Number.isFinite(n) && n >= 1 ? n : 1;
};

export const createRandomSchema = z.object({
  effectType,
  effectValue: int('The effect value must be a whole number of at least 1', 100),
  generateAmount: int('The amount must be a whole number from 1 to 500', 500),
});
export const createSchema = z.object({
  name: z.string().max(64),
  effectType,
  effectValue: int('The effect value must be a whole number of at least 1', 100),
  maxUses: int('Uses must be a whole number from 1 to 100000', 100_000).optional().default(1),
  isPublic: z.boolean().optional().default(true),
});
export const checkSchema = z.object({ name: z.string().min(1, PROMO_MESSAGES.notFound).max(64) });
export const useSchema = z.object({ promoName: z.string().min(1, PROMO_MESSAGES.notFound).max(64) });
export const idSchema = z.object({ id: z.string().min(1).max(64) });
export const assignSchema = z.object({ id: z.string().min(1).max(64), userId: z.string().max(64).optional(), email: z.string().max(320).optional() });
export const freeStatusSchema = z.object({
  list: z.array(z.object({ _id: z.string().min(1).max(64), isFree: z.boolean() })).min(1).max(500),
});

export interface PromoDto {
  _id: string;
  name: string;
  effectType: (typeof PROMO_EFFECT_TYPES)[number];
  effectValue: number;
  isFree: boolean;
  isPublic: boolean;
  maxUses: number;
  usedCount: number;
  assignedUser: { _id: string; email: string } | null;
  createdAt: string;
  usedUsersList: { user: { _id: string; email: string; name: string } | null; useDate: string }[];
}
