import * as z from 'zod';
import { AUTH_MESSAGES } from '../auth/auth.messages';
import { type Message, problem } from '../lib/messages';
import { hasInvisibleChars } from '../lib/text';
import { PROMO_MESSAGES } from './promo.messages';

/** The effect types, and the promo codes table's enum. */
export const PROMO_EFFECT_TYPES = ['discountPercent', 'freeMonths'] as const;
export type PromoEffectType = (typeof PROMO_EFFECT_TYPES)[number];

export { PROMO_MESSAGES };

export const MAX_GENERATE = 500;
export const MAX_PERCENT = 100;
export const MAX_FREE_MONTHS = 24;

export const EFFECT_TYPES = [
  { value: 'discountPercent', label: 'Discount on the next payment (%)' },
  { value: 'freeMonths', label: 'Free months, added at once' },
] as const satisfies readonly { value: PromoEffectType; label: string }[];

export const effectLabel = (type: PromoEffectType, value: number) =>
  type === 'discountPercent' ? `${value}% off the next payment` : `${value} free month${value === 1 ? '' : 's'}`;

/** Checks an effect's value against its type; answers the message or null. */
export function effectValueError(type: PromoEffectType, value: number): Message<never> | null {
  if (type === 'discountPercent' && (value < 1 || value > MAX_PERCENT)) return PROMO_MESSAGES.percent;
  if (type === 'freeMonths' && (value < 1 || value > MAX_FREE_MONTHS)) return PROMO_MESSAGES.months;
  return null;
}

/** The screen's rule: a non-numeric (or smaller than 1) value becomes 1; decimals are cut. */
export const toPositiveInt = (text: string | number) => {
  const n = Math.floor(Number(text));
  return Number.isFinite(n) && n >= 1 ? n : 1;
};

/** Codes are matched case-insensitively; they are stored upper-case. */
export const normalizeCode = (name: string) => name.trim().toUpperCase();

const int = (entry: Message<never>, max: number) => {
  const message = problem(entry);
  return z.number({ message }).int(message).min(1, message).max(max, message);
};
const effectType = z.enum(PROMO_EFFECT_TYPES, { message: problem(PROMO_MESSAGES.type) });
const id = z
  .string({ message: problem(PROMO_MESSAGES.notFound) })
  .min(1, problem(PROMO_MESSAGES.notFound))
  .max(64, problem(PROMO_MESSAGES.notFound));
const codeName = z
  .string({ message: problem(PROMO_MESSAGES.notFound) })
  .trim()
  .min(1, problem(PROMO_MESSAGES.notFound))
  .max(64, problem(PROMO_MESSAGES.notFound));

const withEffectValue = <T extends { effectType: PromoEffectType; effectValue: number }>(input: T, ctx: z.RefinementCtx) => {
  const refused = effectValueError(input.effectType, input.effectValue);
  if (refused) ctx.addIssue({ code: 'custom', message: problem(refused), path: ['effectValue'] });
};

export const createRandomSchema = z
  .object({
    effectType,
    effectValue: int(PROMO_MESSAGES.value, 1000),
    generateAmount: int(PROMO_MESSAGES.amount, MAX_GENERATE),
  })
  .superRefine(withEffectValue);

export const createSchema = z
  .object({
    name: z
      .string({ message: problem(PROMO_MESSAGES.name) })
      .max(64, problem(PROMO_MESSAGES.name))
      .transform(normalizeCode)
      .pipe(z.string().regex(/^[A-Z0-9-]{4,32}$/, problem(PROMO_MESSAGES.name))),
    effectType,
    effectValue: int(PROMO_MESSAGES.value, 1000),
    maxUses: int(PROMO_MESSAGES.maxUses, 100_000).optional().default(1),
    isPublic: z.boolean().optional().default(true),
  })
  .superRefine(withEffectValue);

export const checkSchema = z.object({ name: codeName });
export const useSchema = z.object({ promoName: codeName });
export const idSchema = z.object({ id });
export const assignSchema = z
  .object({
    id,
    userId: z.string().max(64).optional(),
    email: z
      .string()
      .max(320)
      // a look-alike of an address (zero-width and other invisible characters) is nobody's
      .refine((v) => !hasInvisibleChars(v), { message: problem(AUTH_MESSAGES.emailInvalid) })
      .optional(),
  })
  .refine((v) => !!v.userId?.trim() || !!v.email?.trim(), { message: problem(PROMO_MESSAGES.userMissing) });
export const freeStatusSchema = z.object({
  list: z
    .array(
      z
        .object({ _id: z.string().max(64).optional(), name: z.string().max(64).optional(), isFree: z.boolean() })
        .refine((v) => !!v._id || !!v.name, { message: problem(PROMO_MESSAGES.listEmpty) }),
      { message: problem(PROMO_MESSAGES.listEmpty) },
    )
    .min(1, problem(PROMO_MESSAGES.listEmpty))
    .max(MAX_GENERATE, problem(PROMO_MESSAGES.listTooLong, { max: MAX_GENERATE })),
});

/** free: not handed out, not assigned, unused; used: handed out, assigned or partly used; finished: no uses left. */
export type PromoStatus = PromoDto['status'];

/** A code as marketing and the admin see it (every list). */
const promoPerson = z.strictObject({ _id: z.string(), email: z.string(), name: z.string() });
export const promoSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  effectType: z.enum(PROMO_EFFECT_TYPES),
  effectValue: z.number(),
  status: z.enum(['free', 'used', 'finished']),
  isFree: z.boolean(),
  isPublic: z.boolean(),
  maxUses: z.number(),
  usedCount: z.number(),
  assignedUser: promoPerson.nullable(),
  createdAt: z.string(),
  usedUsersList: z.array(z.strictObject({ user: promoPerson.nullable(), useDate: z.string() })),
});
export type PromoDto = z.infer<typeof promoSchema>;

/** A code as a paying user sees it (checkPromoCode): no other users, no bookkeeping. */
export const promoCheckSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  effectType: z.enum(PROMO_EFFECT_TYPES),
  effectValue: z.number(),
  usesLeft: z.number(),
});
export type PromoCheckDto = z.infer<typeof promoCheckSchema>;

export const usePromoResultSchema = z.strictObject({
  message: z.string(),
  promo: promoCheckSchema,
  /** freeMonths: the caller's new end date */
  subscriptionEndDate: z.string().nullable(),
  /** discountPercent: the discount waiting for the next payment */
  discountPercent: z.number(),
});
export type UsePromoResult = z.infer<typeof usePromoResultSchema>;
