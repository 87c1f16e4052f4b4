import { ANALYTICS_MESSAGES } from './analytics/analytics.messages';
import { AUTH_MESSAGES } from './auth/auth.messages';
import { HEALTH_MESSAGES } from './extension/extension-health.messages';
import { FILTER_MESSAGES } from './filters/filters.messages';
import { HISTORY_MESSAGES } from './history/history.messages';
import { COMMON_MESSAGES, GENERAL_MESSAGES } from './lib/common-messages';
import type { Message } from './lib/messages';
import { LINK_MESSAGES } from './links/links.messages';
import { LOAD_MESSAGES } from './loads/loads.messages';
import { MAIL_MESSAGES } from './mail/mail.messages';
import { LINES_MESSAGES } from './mc-settings/mc-settings.messages';
import { PAYMENT_MESSAGES } from './payments/payments.messages';
import { PROMO_MESSAGES } from './promo/promo.messages';
import { USER_MESSAGES } from './users/users.messages';
import { VETTING_MESSAGES } from './vetting/vetting.messages';

/**
 * Every area's message table, for the checks that need them all (each code has its texts in
 * every language: web/i18n/catalogues.test.ts). Nothing answers a request from here: a route
 * throws its entry, which carries its code (docs/decisions/0182-messages-keyed-by-code.md).
 */
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
} satisfies Record<string, Record<string, Message>>;

/** The areas' codes (`<area>.<key>`), each with its English (a text with values with its placeholders). */
export const ERROR_CODES: ReadonlyMap<string, string> = new Map(
  Object.values(ERROR_TABLES)
    .flatMap((table) => Object.values(table as Record<string, Message>))
    .filter((entry) => entry.code.includes('.'))
    .map((entry) => [entry.code, entry.text]),
);

/** The login page's messages by their bare codes (its catalogue's `messages.<code>`). */
export const MESSAGE_CODES = Object.fromEntries(Object.values({ ...AUTH_MESSAGES, ...GENERAL_MESSAGES }).map((e) => [e.code, e.text])) as Record<
  keyof typeof AUTH_MESSAGES | keyof typeof GENERAL_MESSAGES,
  string
>;
