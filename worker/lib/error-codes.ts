import { ANALYTICS_MESSAGES } from '../analytics/analytics.messages';
import { HEALTH_MESSAGES } from '../extension/extension-health.messages';
import { FILTER_MESSAGES } from '../filters/filters.messages';
import { HISTORY_MESSAGES } from '../history/history.messages';
import { LINK_MESSAGES } from '../links/links.schema';
import { LOAD_MESSAGES } from '../loads/loads.messages';
import { MAIL_MESSAGES } from '../mail/mail.messages';
import { LINES_MESSAGES } from '../mc-settings/mc-settings.messages';
import { PAYMENT_MESSAGES } from '../payments/payments.schema';
import { PROMO_MESSAGES } from '../promo/promo.schema';
import { USER_MESSAGES } from '../users/users.messages';
import { VETTING_MESSAGES } from '../vetting/vetting.messages';
import { isTemplate, type MessageParams, matchTemplate, type Template } from './coded';
import { COMMON_MESSAGES } from './common-messages';
import { codeOfMessage } from './message-codes';
import type { Message } from './messages';

/**
 * Every error message a screen or the extension can show, by its stable code
 * (docs/decisions/0023-languages.md, "Error codes"). The texts stay in each area's table (the
 * throw sites and the shared schemas use them); this names them: code `<area>.<key>`, whose
 * text the screens find at `<area>Messages.<key>` in the area's catalogue part
 * (web/i18n/<lang>-<part>.json). A message with values is a `template` and answers `params`.
 * Server only: the login page keeps its small table (worker/lib/message-codes.ts), which wins
 * for the messages it has.
 */
type Entry = string | Template | Message;
const isMessage = (entry: Entry): entry is Message => typeof entry === 'object';

export const ERROR_TABLES = {
  common: COMMON_MESSAGES,
  filter: FILTER_MESSAGES,
  vetting: VETTING_MESSAGES,
  lines: LINES_MESSAGES,
  user: USER_MESSAGES,
  history: HISTORY_MESSAGES,
  load: LOAD_MESSAGES,
  promo: PROMO_MESSAGES,
  link: LINK_MESSAGES,
  payment: PAYMENT_MESSAGES,
  mail: MAIL_MESSAGES,
  analytics: ANALYTICS_MESSAGES,
  health: HEALTH_MESSAGES,
} satisfies Record<string, Record<string, Entry>>;

/** One code per text: the login page's own code first, else the first table that has the text. */
const byMessage = new Map<string, string>();
const templates: [code: string, text: string][] = [];
const ownCodes = new Map<string, string>();
for (const [area, table] of Object.entries(ERROR_TABLES)) {
  for (const [key, entry] of Object.entries(table as Record<string, Entry>)) {
    if (isMessage(entry)) {
      if (entry.code.includes('.')) ownCodes.set(entry.code, entry.text);
      if (entry.text.includes('{{')) templates.push([entry.code, entry.text]);
      else if (!byMessage.has(entry.text)) byMessage.set(entry.text, codeOfMessage(entry.text) ?? entry.code);
      continue;
    }
    const code = `${area}.${key}`;
    if (isTemplate(entry)) templates.push([code, entry.text]);
    else if (!byMessage.has(entry)) byMessage.set(entry, codeOfMessage(entry) ?? code);
  }
}

/** The codes the API answers, each with its English text (a template's with its placeholders). */
export const ERROR_CODES: ReadonlyMap<string, string> = new Map([
  ...[...byMessage].filter(([, code]) => code.includes('.')).map(([message, code]) => [code, message] as const),
  ...templates,
  ...ownCodes,
]);

/** A message's code, and the values it carries; undefined for a message no table has. */
export function codeOf(message: string): { code: string; params?: MessageParams } | undefined {
  const code = byMessage.get(message) ?? codeOfMessage(message);
  if (code) return { code };
  for (const [templateCode, text] of templates) {
    const params = matchTemplate(text, message);
    if (params) return { code: templateCode, params };
  }
  return undefined;
}
