import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language, LOCALES } from '../../worker/lib/languages';
import { setFormatLocale } from '../lib/format-dates';
import en from './en.json';
import enLogin from './en-login.json';
import { attachLibrary, rememberLanguage } from './startup';

/**
 * The SPA's languages through i18next (docs/decisions/0023-languages.md). English is bundled (the
 * default and the fallback); Russian and Armenian are fetched with a dynamic import when chosen.
 * This module is not on an English visitor's login page: web/i18n/startup.ts shows the login
 * page's English until it loads (docs/decisions/0024-login-bundle.md).
 */
export { LANGUAGES, type Language };

/**
 * English texts of screens that are not on the login page: each screen's lazy chunk brings its
 * own (web/i18n/en-<feature>.json) and adds it here when it loads; this module brings the login
 * page's (`en-login.json`, also on the login page without it) and the shell's (`en.json`).
 */
export function addEnglish(texts: object) {
  i18next.addResourceBundle('en', 'translation', texts, true, false);
}

type Catalogue = Record<string, unknown>;
/**
 * Russian and Armenian, fetched when chosen: the shell's part (`ru.json`), the login page's
 * (`ru-login.json`) and every screen's own part (`ru-<feature>.json`), so a screen's texts live
 * beside each other in every language.
 */
const parts = {
  ru: import.meta.glob<Catalogue>(['./ru.json', './ru-*.json'], { import: 'default' }),
  hy: import.meta.glob<Catalogue>(['./hy.json', './hy-*.json'], { import: 'default' }),
} satisfies Record<Exclude<Language, 'en'>, Record<string, () => Promise<Catalogue>>>;

async function loadCatalogue(language: Exclude<Language, 'en'>): Promise<Catalogue> {
  const loaded = await Promise.all(Object.values(parts[language]).map((load) => load()));
  return Object.assign({}, ...loaded);
}

void i18next.use(initReactI18next).init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  resources: { en: { translation: { ...enLogin, ...en } } },
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
  rememberLanguage(language, picked);
  setFormatLocale(formatLocale(language));
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

/** English keeps the browser's English (en-GB writes "25 Nov 2026"); the others their own locale. */
function formatLocale(language: Language) {
  if (language === 'en') {
    const browser = typeof navigator === 'undefined' ? undefined : navigator.language;
    return browser?.toLowerCase().startsWith('en') ? browser : LOCALES.en;
  }
  return LOCALES[language];
}

// the formats follow the language from the start (English until another is applied)
setFormatLocale(formatLocale(DEFAULT_LANGUAGE));

// the login page's texts (web/i18n/startup.ts) come from i18next from now on
attachLibrary({
  t: (key, options) => i18next.t(key, options),
  language: currentLanguage,
  applyLanguage,
  onLanguageChanged: (listener) => void i18next.on('languageChanged', listener),
});

export default i18next;
