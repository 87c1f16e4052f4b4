import type { TFunction } from 'i18next';
import { matchTemplate } from '../../../worker/lib/coded';
import { PLACEHOLDER_LIST } from '../../../worker/mc-settings/email-template.schema';
import { LINE_NUMBERS, MC_MESSAGES } from '../../../worker/mc-settings/mc-settings.schema';
import { DIALER_MESSAGES, MAX_DIALER_TEMPLATE } from '../../../worker/team/dialer';
import { MAX_LINE_LABEL, TEAM_MESSAGES } from '../../../worker/team/team.schema';
import { messageText } from '../../i18n/errors';

/**
 * The Lines screen's own messages (its shared schemas' checks and the answers to its calls) in the
 * user's language: each is found by the schema's constant it was made from, never by loose
 * wording; anything else goes to messageText (docs/decisions/0023-languages.md).
 */
export function linesMessage(t: TFunction, message: string | null | undefined): string {
  if (!message) return '';
  const fixed: Record<string, () => string> = {
    [MC_MESSAGES.nameEmpty]: () => t('linesMessages.nameEmpty'),
    [MC_MESSAGES.selectMc]: () => t('linesMessages.selectMc'),
    [MC_MESSAGES.selectLine]: () => t('linesMessages.selectLine'),
    [MC_MESSAGES.oneLine]: () => t('linesMessages.oneLine'),
    [MC_MESSAGES.lineForEvery]: () => t('linesMessages.lineForEvery'),
    [MC_MESSAGES.mcNotFound]: () => t('linesMessages.mcNotFound'),
    [MC_MESSAGES.alreadyAdded]: () => t('linesMessages.alreadyAdded'),
    [MC_MESSAGES.added]: () => t('linesMessages.added'),
    [MC_MESSAGES.saved]: () => t('linesMessages.saved'),
    [MC_MESSAGES.deleted]: () => t('linesMessages.deleted'),
    [TEAM_MESSAGES.saved]: () => t('linesMessages.teamSaved'),
    [TEAM_MESSAGES.window]: () => t('linesMessages.window'),
    [DIALER_MESSAGES.templateEmpty]: () => t('linesMessages.templateEmpty'),
    [DIALER_MESSAGES.templateTo]: () => t('linesMessages.templateTo'),
    [DIALER_MESSAGES.templateLong({ max: MAX_DIALER_TEMPLATE })]: () => t('linesMessages.templateLong', { max: MAX_DIALER_TEMPLATE }),
    [DIALER_MESSAGES.templateScheme]: () => t('linesMessages.templateScheme'),
  };
  const known = fixed[message];
  if (known) return known();
  for (const line of LINE_NUMBERS) {
    if (message === TEAM_MESSAGES.lineTwice({ line })) return t('linesMessages.lineTwice', { line });
    if (message === TEAM_MESSAGES.callerNumber({ line })) return t('linesMessages.callerNumber', { line });
    if (message === TEAM_MESSAGES.label({ line, max: MAX_LINE_LABEL })) return t('linesMessages.label', { line, max: MAX_LINE_LABEL });
  }
  // templateError's refusal, for the subject or the content
  const template = /^Unknown placeholders? (.+) in the e-mail (subject|content)\. Use /.exec(message);
  if (template) return templateProblem(t, template[1]!.split(', '), template[2] as 'subject' | 'content');
  const unknown = matchTemplate(DIALER_MESSAGES.templateUnknown.text, message);
  if (unknown) return t('linesMessages.templateUnknown', { name: unknown.name });
  return messageText(message);
}

/** A template's unknown placeholders, said as the save refuses them (templateError's words). */
export function templateProblem(t: TFunction, unknown: string[], where: 'subject' | 'content'): string {
  const values = { count: unknown.length, names: unknown.join(', '), list: PLACEHOLDER_LIST };
  return where === 'subject' ? t('mcFields.unknownSubject', values) : t('mcFields.unknownContent', values);
}
