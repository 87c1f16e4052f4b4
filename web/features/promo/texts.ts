import type { TFunction } from 'i18next';
import type { Message } from '../../../worker/lib/messages';
import type { PROMO_MESSAGES, PromoEffectType } from '../../../worker/promo/promo.schema';
import { messageText } from '../../i18n/errors';

/** A code's effect in the user's language: "20% off the next payment", "2 free months". */
export const effectText = (t: TFunction, type: PromoEffectType, value: number) =>
  type === 'discountPercent' ? t('promo.effectDiscount', { value }) : t('promo.effectMonths', { count: value });

/** The effect types of the type select, in the user's language. */
export const effectTypeText = (t: TFunction, type: PromoEffectType) => (type === 'discountPercent' ? t('promo.typeDiscount') : t('promo.typeMonths'));

/** The promo form's own messages (the shared schema's, checked on the screen before anything is sent) by their entries' keys. */
const FORM_KEYS: Partial<Record<keyof typeof PROMO_MESSAGES, `promo.errors.${'type' | 'name' | 'percent' | 'months' | 'amount' | 'userMissing'}`>> = {
  type: 'promo.errors.type',
  name: 'promo.errors.name',
  percent: 'promo.errors.percent',
  months: 'promo.errors.months',
  amount: 'promo.errors.amount',
  userMissing: 'promo.errors.userMissing',
};

/** A problem the promo forms found, in the user's language (null for none). */
export function formProblemText(t: TFunction, problem: Message | null): string | null {
  if (!problem) return null;
  const key = FORM_KEYS[problem.code.slice('promo.'.length) as keyof typeof PROMO_MESSAGES];
  return key ? t(key) : messageText(problem.text, problem.code);
}
