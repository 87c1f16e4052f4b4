/**
 * The extension's texts in English, Russian and Armenian through i18next
 * (docs/decisions/0025-extension-languages.md). Each part (service worker, popup, options page,
 * board) runs its own instance with the three catalogues bundled: they are small, and the board's
 * content script cannot load files on DAT's page. English is the fallback. The language is the
 * signed-in user's (`ViewState.language`); before sign-in, the browser's when it is one of the
 * three, else English.
 */
import i18next from 'i18next';
import { API_ERROR_TEXTS } from '../../../web/i18n/api-error-texts';
import { messages as enMessages } from '../../../web/i18n/en.json';
import { messages as hyMessages } from '../../../web/i18n/hy.json';
import { messages as ruMessages } from '../../../web/i18n/ru.json';
import { DEFAULT_LANGUAGE, isLanguage, type Language, LOCALES, languageFromTags } from '../../../worker/lib/languages';
import { codeOfMessage, keyOfCode } from '../../../worker/lib/message-codes';
import type { ActionSubject } from '../shared/protocol';
import type { Refusal } from '../shared/refusal';
import en from './en.json';
import hy from './hy.json';
import ru from './ru.json';

export type { Language };

const i18n = i18next.createInstance();
void i18n.init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  // the API's coded messages as the web app translates them (web/i18n/*.json `messages`, and
  // each area's `<area>Messages`)
  resources: {
    en: { translation: { ...en, messages: enMessages, ...API_ERROR_TEXTS.en } },
    ru: { translation: { ...ru, messages: ruMessages, ...API_ERROR_TEXTS.ru } },
    hy: { translation: { ...hy, messages: hyMessages, ...API_ERROR_TEXTS.hy } },
  },
  interpolation: { escapeValue: false }, // texts go in as textContent, never as HTML
  returnNull: false,
  initAsync: false,
});

/** A text of the catalogue in the current language. */
export const t = i18n.t.bind(i18n);

/** The language the extension speaks now. */
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

/** The browser's language when it is one of the three, else English (before sign-in). */
export const browserLanguage = (): Language =>
  (typeof navigator === 'undefined' ? null : languageFromTags(navigator.languages ?? [navigator.language])) ?? DEFAULT_LANGUAGE;

/** Speaks `language` (the user's), or the browser's when none is known; answers whether it changed. */
export function followLanguage(language: Language | null | undefined): boolean {
  const next = isLanguage(language) ? language : browserLanguage();
  // the extension's own pages say which language they are in; DAT's page keeps its own `lang`
  if (typeof document !== 'undefined' && location.protocol === 'chrome-extension:') document.documentElement.lang = next;
  if (next === currentLanguage()) return false;
  void i18n.changeLanguage(next);
  return true;
}

/** The locale dates and times are written in: the browser's for English (as before), else the language's. */
export const formatLocale = (): string | undefined => (currentLanguage() === 'en' ? undefined : LOCALES[currentLanguage()]);

/**
 * The service worker's own messages: it keeps them in English (in storage, in answers), and the
 * screens show them in the user's language. The catalogue's `service` texts in English, by text.
 */
const SERVICE_KEYS = {
  unreachable: 'service.unreachable',
  signInAgain: 'service.signInAgain',
  somethingWrong: 'service.somethingWrong',
  pickMc: 'service.pickMc',
  boardRoles: 'service.boardRoles',
  enterAddress: 'service.enterAddress',
  pickMailClient: 'service.pickMailClient',
  unknownRequest: 'service.unknownRequest',
  noAnswer: 'service.noAnswer',
  updated: 'service.updated',
} as const satisfies Record<keyof typeof en.service, string>;
const serviceByText = new Map<string, string>(Object.entries(SERVICE_KEYS).map(([name, key]) => [en.service[name as keyof typeof en.service], key]));

/**
 * A message for the screen in the current language: the extension's own by its English text, an
 * API refusal by the code (and values) the API answered with it; anything else as it came.
 */
export function messageText(refusal: string | Refusal): string {
  const { message, code, params } = typeof refusal === 'string' ? { message: refusal } : refusal;
  const own = serviceByText.get(message);
  if (own) return t(own);
  // the code the API answered beside the message (an older stored refusal has none: the login page's by its text)
  const known = code ?? codeOfMessage(message);
  if (!known || currentLanguage() === 'en') return message;
  return t(keyOfCode(known), { ...params, defaultValue: message });
}

/** "Call to Total Quality Logistics (Chicago, IL → Dallas, TX)": a queued or refused action in the current language. */
export function actionLabel(entry: { label: string; what?: ActionSubject }): string {
  const w = entry.what;
  if (!w) return entry.label;
  const broker = w.brokerName;
  const what = w.kind === 'call' ? t('queue.callTo', { broker }) : w.kind === 'email' ? t('queue.emailTo', { broker }) : t('queue.loadFrom', { broker });
  return w.origin ? t('queue.lane', { what, origin: w.origin, dest: w.dest }) : what;
}
