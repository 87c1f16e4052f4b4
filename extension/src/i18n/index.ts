/**
 * The extension's texts in en, ru and hy (docs/decisions/0025-extension-languages.md). Each part
 * runs its own i18next with the catalogues bundled: the content script cannot load files on DAT's page.
 */
import i18next from 'i18next';
import { API_ERROR_TEXTS } from '../../../web/i18n/api-error-texts';
import { messages as enMessages } from '../../../web/i18n/en.json';
import { messages as hyMessages } from '../../../web/i18n/hy.json';
import { messages as ruMessages } from '../../../web/i18n/ru.json';
import { DEFAULT_LANGUAGE, isLanguage, type Language, LOCALES, languageFromTags } from '../../../worker/lib/languages';
import { keyOfCode } from '../../../worker/lib/messages';
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

export const t = i18n.t.bind(i18n);

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

export const browserLanguage = (): Language =>
  (typeof navigator === 'undefined' ? null : languageFromTags(navigator.languages ?? [navigator.language])) ?? DEFAULT_LANGUAGE;

/** Answers whether the language changed. */
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

// The service worker keeps its own messages in English (in storage, in answers); the screens
// translate them by their text.
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

/** The extension's own messages by their English text, an API refusal by its code; anything else as it came. */
export function messageText(refusal: string | Refusal): string {
  const { message, code, params } = typeof refusal === 'string' ? { message: refusal } : refusal;
  const own = serviceByText.get(message);
  if (own) return t(own);
  // by the code the API answered beside the message; a refusal without one is shown as it came
  if (!code || currentLanguage() === 'en') return message;
  return t(keyOfCode(code), { ...params, defaultValue: message });
}

/** "Call to Total Quality Logistics (Chicago, IL → Dallas, TX)": a queued or refused action in the current language. */
export function actionLabel(entry: { label: string; what?: ActionSubject }): string {
  const w = entry.what;
  if (!w) return entry.label;
  const broker = w.brokerName;
  const what = w.kind === 'call' ? t('queue.callTo', { broker }) : w.kind === 'email' ? t('queue.emailTo', { broker }) : t('queue.loadFrom', { broker });
  return w.origin ? t('queue.lane', { what, origin: w.origin, dest: w.dest }) : what;
}
