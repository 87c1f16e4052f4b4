import type { TFunction } from 'i18next';
import { PLACEHOLDER_LIST } from '../../../worker/mc-settings/email-template.schema';

/** A template's unknown placeholders, said as the save refuses them (templateError's words). */
export function templateProblem(t: TFunction, unknown: string[], where: 'subject' | 'content'): string {
  const values = { count: unknown.length, names: unknown.join(', '), list: PLACEHOLDER_LIST };
  return where === 'subject' ? t('mcFields.unknownSubject', values) : t('mcFields.unknownContent', values);
}
