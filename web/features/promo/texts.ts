import type { TFunction } from 'i18next';
import { PROMO_MESSAGES, type PromoEffectType } from '../../../worker/promo/promo.schema';

/** A code's effect in the user's language: "20% off the next payment", "2 free months". */
export const effectText = (t: TFunction, type: PromoEffectType, value: number) =>
  type === 'discountPercent' ? t('promo.effectDiscount', { value }) : t('promo.effectMonths', { count: value });

/** The effect types of the type select, in the user's language. */
export const effectTypeText = (t: TFunction, type: PromoEffectType) => (type === 'discountPercent' ? t('promo.typeDiscount') : t('promo.typeMonths'));

/** The promo form's own messages (the shared schema's, checked on the screen before anything is sent) as catalogue keys. */
const FORM_MESSAGES = new Map<string, `promo.errors.${'type' | 'name' | 'percent' | 'months' | 'amount' | 'userMissing'}`>([
  [PROMO_MESSAGES.type, 'promo.errors.type'],
  [PROMO_MESSAGES.name, 'promo.errors.name'],
  [PROMO_MESSAGES.percent, 'promo.errors.percent'],
  [PROMO_MESSAGES.months, 'promo.errors.months'],
  [PROMO_MESSAGES.amount, 'promo.errors.amount'],
  [PROMO_MESSAGES.userMissing, 'promo.errors.userMissing'],
]);

/** A message the promo forms made, in the user's language (null for none). */
export function formProblemText(t: TFunction, message: string | null): string | null {
  if (!message) return null;
  const key = FORM_MESSAGES.get(message);
  return key ? t(key) : message;
}
