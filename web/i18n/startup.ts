import { useMemo, useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language, languageFromTags } from '../../worker/lib/languages';
import en from './en-login.json';

/**
 * The languages as the login page sees them (docs/decisions/0024-login-bundle.md): English from
 * the bundled `en-login.json` until i18next is needed, so an English visitor's login page does not
 * carry i18next and react-i18next. The library (web/i18n/index.ts) loads when another language is
 * shown (the visitor's kept or browser language, or a pick on the login card), with a public page
 * or the registration form, and with sign-in; from then on every text here comes from it.
 */
export { LANGUAGES, type Language };

type Options = { defaultValue?: string } & Record<string, unknown>;

/** What web/i18n/index.ts hands over when it loads (it calls `attachLibrary`). */
export interface Library {
  t: (key: string, options?: Options) => string;
  language: () => Language;
  applyLanguage: (language: Language, options?: { picked?: boolean }) => Promise<void>;
  onLanguageChanged: (listener: () => void) => void;
}

let library: Library | null = null;
let loading: Promise<Library> | null = null;
let revision = 0;
const listeners = new Set<() => void>();
const changed = () => {
  revision++;
  for (const listener of listeners) listener();
};

/** Called once by web/i18n/index.ts, however it was loaded: the texts come from i18next from now on. */
export function attachLibrary(loaded: Library) {
  library = loaded;
  loaded.onLanguageChanged(changed);
  changed();
}

/** Loads i18next with the English catalogue (once); a failed load can be tried again. */
export function loadLibrary(): Promise<Library> {
  loading ??= import('./index').then(
    () => library!,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * A text of `en-login.json` before the library is loaded (its texts have no placeholders or
 * plural forms: startup.test.ts), else the `defaultValue`, else the key, as i18next answers in
 * English. A coded API message has the API's English as its `defaultValue` (web/i18n/errors.ts).
 */
function english(key: string, options?: Options): string {
  let node: unknown = en;
  for (const part of key.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : (options?.defaultValue ?? key);
}

/** A text in the current language: i18next's once loaded, else the bundled English. */
export const t = (key: string, options?: Options): string => (library ? library.t(key, options) : english(key, options));

/** The language the screens speak now. */
export const currentLanguage = (): Language => library?.language() ?? DEFAULT_LANGUAGE;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/**
 * `t` for the screens the login page shows (and the shared parts they use): re-renders when the
 * library arrives or the language changes, like react-i18next's `useTranslation`.
 */
export function useText() {
  const version = useSyncExternalStore(subscribe, () => revision);
  // a new `t` per language, so memoised texts follow it
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is what changes the texts
  return useMemo(() => ({ t: (key: string, options?: Options) => t(key, options), language: currentLanguage() }), [version]);
}

/** The SPA's current language, kept beside the session (not in `userData`, whose shape the spec fixes). */
const LANGUAGE_KEY = 'language';
/** Set while a language picked on the login screen waits to be saved on the user at sign-in. */
const PICKED_KEY = 'languagePicked';

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

/** Keeps `language` for the next visit (and, when `picked`, for the login call). */
export function rememberLanguage(language: Language, picked = false) {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
    if (picked) localStorage.setItem(PICKED_KEY, '1');
  } catch {
    // private mode: the choice lasts this visit
  }
}

/**
 * Switches the screens, the formats and `<html lang>` to `language`. English without the library
 * loaded needs nothing fetched; any other language (or a switch once the library is in) goes
 * through i18next, which fetches the language's catalogue first.
 */
export async function applyLanguage(language: Language, options: { picked?: boolean } = {}) {
  // kept at once: a reload or a link opened before the catalogue has loaded starts in it too
  rememberLanguage(language, options.picked);
  if (language === DEFAULT_LANGUAGE && !library) {
    document.documentElement.lang = language;
    changed();
    return;
  }
  await (await loadLibrary()).applyLanguage(language, options);
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
