import { getCountries } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import hy from '../i18n/countries/countries-hy.json';
import ru from '../i18n/countries/countries-ru.json';
import { loadRegionNames } from './region-names';

/**
 * Country names in the user's language (docs/decisions/0178-no-english-left.md). These tests run
 * in workerd, which, like Chromium's own builds, has Russian but no Armenian data: Armenian comes
 * from the carried table, never in English.
 */
describe('country names', () => {
  it('the runtime here has Russian names and none in Armenian, as Chromium', () => {
    expect(Intl.DisplayNames.supportedLocalesOf('ru')).toEqual(['ru']);
    expect(Intl.DisplayNames.supportedLocalesOf('hy')).toEqual([]);
  });

  it('names every country of the forms in Armenian and in Russian, none in English or as its code', async () => {
    const names = { hy: await loadRegionNames('hy'), ru: await loadRegionNames('ru') };
    const script = { hy: /\p{Script=Armenian}/u, ru: /\p{Script=Cyrillic}/u };
    expect(getCountries().length).toBeGreaterThan(240);
    for (const code of getCountries())
      for (const language of ['hy', 'ru'] as const) {
        const name = names[language](code);
        expect(name, `${language} ${code}`).not.toBe(code);
        expect(name, `${language} ${code}`).toMatch(script[language]);
        expect(name, `${language} ${code}`).not.toMatch(/\p{Script=Latin}/u);
      }
    expect(names.hy('AM')).toBe('Հայաստան');
    expect(names.hy('US')).toBe('Միացյալ Նահանգներ');
    expect(names.ru('AM')).toBe('Армения');
    expect(names.ru('FR')).toBe('Франция');
  });

  it('the carried tables name exactly the countries libphonenumber-js knows (scripts/region-names.mjs after an upgrade)', () => {
    for (const table of [hy, ru]) expect(Object.keys(table.names).sort()).toEqual(getCountries().sort());
  });
});
