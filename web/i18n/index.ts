import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language, LOCALES, languageFromTags } from '../../worker/lib/languages';
import { setFormatLocale } from '../lib/format-dates';
import en from './en.json';

/**
 * The SPA's languages through i18next (docs/decisions/0023-languages.md). English is bundled (the
 * default and the fallback); Russian and Armenian are fetched with a dynamic import when chosen,
 * so the login page's first bundle carries only English.
 */
export { LANGUAGES, type Language };

/**
 * English texts of screens that are not on the login page: each screen's lazy chunk brings its
 * own (web/i18n/en-<feature>.json) and adds it here when it loads, so the first bundle holds only
 * the login page's and the shell's English.
 */
export function addEnglish(texts: object) {
  i18next.addResourceBundle('en', 'translation', texts, true, false);
}

/** The SPA's current language, kept beside the session (not in `userData`, whose shape the spec fixes). */
const LANGUAGE_KEY = 'language';
/** Set while a language picked on the login screen waits to be saved on the user at sign-in. */
const PICKED_KEY = 'languagePicked';

type Catalogue = Record<string, unknown>;
/**
 * Russian and Armenian, fetched when chosen: the shell's part (`ru.json`) and every screen's own
 * part (`ru-<feature>.json`), so a screen's texts live beside each other in every language.
 */
const parts = {
  ru: import.meta.glob<Catalogue>(['./ru.json', './ru-*.json'], { import: 'default' }),
  hy: import.meta.glob<Catalogue>(['./hy.json', './hy-*.json'], { import: 'default' }),
} satisfies Record<Exclude<Language, 'en'>, Record<string, () => Promise<Catalogue>>>;

async function loadCatalogue(language: Exclude<Language, 'en'>): Promise<Catalogue> {
  const loaded = await Promise.all(Object.values(parts[language]).map((load) => load()));
  return Object.assign({}, ...loaded);
}

function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** The language to start in: the one kept here, else the browser's when it is one of ours, else English. */
export const initialLanguage = (): Language =>
  storedLanguage() ?? (typeof navigator === 'undefined' ? null : languageFromTags(navigator.languages ?? [navigator.language])) ?? DEFAULT_LANGUAGE;

void i18next.use(initReactI18next).init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  initAsync: false,
});

/** The language the screens speak now. */
export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE);

/**
 * Switches the screens, the formats and `<html lang>` to `language`, fetching its catalogue first.
 * `remember` keeps it for the next visit (and for the login call when `picked`).
 */
export async function applyLanguage(language: Language, { picked = false }: { picked?: boolean } = {}) {
  if (language !== 'en' && !i18next.hasResourceBundle(language, 'translation')) {
    i18next.addResourceBundle(language, 'translation', await loadCatalogue(language));
  }
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
    if (picked) localStorage.setItem(PICKED_KEY, '1');
  } catch {
    // private mode: the choice lasts this visit
  }
  setFormatLocale(formatLocale(language));
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

/** The language picked on the login screen before signing in, if any: the login call saves it on the user. */
export function pickedLanguage(): Language | undefined {
  try {
    return localStorage.getItem(PICKED_KEY) ? (storedLanguage() ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}

/** After sign-in: the user's own language rules from now on. */
export function followUserLanguage(language: Language | undefined) {
  try {
    localStorage.removeItem(PICKED_KEY);
  } catch {
    // nothing kept
  }
  if (language && language !== currentLanguage()) void applyLanguage(language);
}

/** English keeps the browser's English (en-GB writes "25 Nov 2026"); the others their own locale. */
function formatLocale(language: Language) {
  if (language === 'en') {
    const browser = typeof navigator === 'undefined' ? undefined : navigator.language;
    return browser?.toLowerCase().startsWith('en') ? browser : LOCALES.en;
  }
  return LOCALES[language];
}

export default i18next;
