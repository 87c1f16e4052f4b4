import { useEffect, useState } from 'react';
import { type Language, LOCALES } from '../../worker/lib/languages';

/** A country's name from its ISO code ("FR" → "Франция"); the code itself when none is known. */
export type RegionNames = (code: string) => string;

/**
 * Names CLDR gives where the runtime has none (scripts/region-names.mjs): Chromium's own builds
 * have no Armenian, and Intl.DisplayNames then answers in English or with the bare code. Fetched
 * only by such a browser, so neither the login page nor any other browser carries them.
 */
const CARRIED: Partial<Record<Language, () => Promise<Partial<Record<string, string>>>>> = {
  ru: () => import('../i18n/countries/countries-ru.json').then((m) => m.default.names),
  hy: () => import('../i18n/countries/countries-hy.json').then((m) => m.default.names),
};

/** Whether this runtime names regions in `locale` itself. */
const hasOwnNames = (locale: string) => typeof Intl.DisplayNames === 'function' && Intl.DisplayNames.supportedLocalesOf(locale).length > 0;

const fromIntl = (locale: string): RegionNames => {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return (code) => names.of(code) ?? code;
};

const loaded = new Map<Language, RegionNames>();

/** Countries' names in `language` (docs/decisions/0178-no-english-left.md): the runtime's own, else the carried ones. */
export async function loadRegionNames(language: Language): Promise<RegionNames> {
  const known = loaded.get(language);
  if (known) return known;
  const locale = language === 'en' ? 'en' : LOCALES[language];
  const carried = CARRIED[language];
  let names: RegionNames;
  if (hasOwnNames(locale) || !carried) names = fromIntl(locale);
  else {
    const table = await carried();
    names = (code) => table[code] ?? code;
  }
  loaded.set(language, names);
  return names;
}

/** `loadRegionNames` for a screen: null until the names are there (at once, unless they are fetched). */
export function useRegionNames(language: Language): RegionNames | null {
  const [state, setState] = useState(() => ({ language, names: loaded.get(language) ?? null }));
  useEffect(() => {
    let live = true;
    loadRegionNames(language).then(
      (names) => live && setState({ language, names }),
      (error: unknown) => {
        // a failed fetch (offline): the runtime's names, rather than no countries at all
        console.warn('country names could not be loaded', error);
        if (live) setState({ language, names: fromIntl(LOCALES[language]) });
      },
    );
    return () => {
      live = false;
    };
  }, [language]);
  return state.language === language ? state.names : (loaded.get(language) ?? null);
}
