import { describe, expect, it } from 'vitest';
import { ERROR_CODES, MESSAGE_CODES } from '../../worker/error-codes';
import { keyOfCode } from '../../worker/lib/messages';
import { API_ERROR_TEXTS } from './api-error-texts';
import { baseKeys, flatten, keyDifferences, missingPluralForms, placeholderMismatches, placeholders } from './catalogue-checks';

type Catalogue = Record<string, unknown>;
/** Each language's parts: the shell's (`en.json`), the login page's (`en-login.json`), then each screen's (`en-<feature>.json`). */
const files = {
  en: import.meta.glob<Catalogue>(['./en.json', './en-*.json'], { import: 'default', eager: true }),
  ru: import.meta.glob<Catalogue>(['./ru.json', './ru-*.json'], { import: 'default', eager: true }),
  hy: import.meta.glob<Catalogue>(['./hy.json', './hy-*.json'], { import: 'default', eager: true }),
};
/** A part's name without its language: `./ru-filters.json` → `filters`, `./ru.json` → `` (the shell's). */
const partNames = (lang: keyof typeof files) =>
  Object.keys(files[lang])
    .map((f) => f.replace(`./${lang}`, '').replace(/^-/, '').replace('.json', ''))
    .sort();
const englishParts = Object.values(files.en);
const russianParts = Object.values(files.ru);
const armenianParts = Object.values(files.hy);
const merged = (parts: Catalogue[]) => Object.assign({}, ...parts) as Catalogue;

/**
 * The catalogues (docs/decisions/0023-languages.md): the same keys in every language with the
 * plural forms each language needs, the same placeholders, no key that no code uses, no key used
 * that English lacks, and the API's coded messages in English exactly as the API answers them.
 */
// English: the login page's bundle plus the screens' own parts (each lazy screen adds its part)
const catalogues = { en: merged(englishParts), ru: merged(russianParts), hy: merged(armenianParts) } as const;
const LOCALES = { en: 'en', ru: 'ru', hy: 'hy' } as const;
const flat = Object.fromEntries(Object.entries(catalogues).map(([lang, tree]) => [lang, flatten(tree)])) as Record<
  keyof typeof catalogues,
  Map<string, string>
>;

// every source file of the web app, as text (Vite's glob, so the test needs no file system)
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.ts', '!../dist/**'], { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;
const code = Object.values(sources).join('\n');

// the API's error codes (worker/error-codes.ts) by their catalogue key: `<area>Messages.<key>`
const codeKeys = new Set([...ERROR_CODES.keys()].map(keyOfCode));

describe('the catalogues', () => {
  it("every language has the same parts, so a screen's texts sit side by side in each", () => {
    expect(partNames('en').length).toBeGreaterThan(2);
    expect(partNames('ru')).toEqual(partNames('en'));
    expect(partNames('hy')).toEqual(partNames('en'));
  });

  it("a language's parts do not overlap", () => {
    for (const parts of [englishParts, russianParts, armenianParts]) {
      const keys = parts.map((part) => Object.keys(part));
      expect(keys.flat().length).toBe(new Set(keys.flat()).size);
    }
  });

  it('every language has every key of English, and no other', () => {
    for (const lang of ['ru', 'hy'] as const) expect(keyDifferences(flat.en, flat[lang]), lang).toEqual({ missing: [], extra: [] });
  });

  it('a plural has every form its language needs (Intl.PluralRules), and a placeholder-for-placeholder translation', () => {
    for (const [lang, texts] of Object.entries(flat) as [keyof typeof flat, Map<string, string>][]) {
      expect(missingPluralForms(texts, LOCALES[lang]), lang).toEqual([]);
      expect(placeholderMismatches(texts, flat.en), lang).toEqual([]);
    }
  });

  it('no key is unused: each appears in the code as a literal (messages.* are the codes the API answers)', () => {
    const unused = [...baseKeys(flat.en)].filter((key) => {
      if (key.startsWith('messages.')) return !(key.slice('messages.'.length) in MESSAGE_CODES);
      if (codeKeys.has(key)) return false;
      return !new RegExp(`['"\`]${key.replace(/\./g, '\\.')}['"\`]`).test(code);
    });
    expect(unused).toEqual([]);
  });

  it('every key the code asks t() for exists in English', () => {
    const english = baseKeys(flat.en);
    const asked = new Set([...code.matchAll(/\bt\(\s*'([\w.]+)'/g)].map((m) => m[1]!));
    expect(asked.size).toBeGreaterThan(50);
    expect([...asked].filter((k) => !english.has(k))).toEqual([]);
  });

  it("the coded messages are, in English, exactly the API's words, and each code has a text in every language", () => {
    for (const [code, message] of Object.entries(MESSAGE_CODES)) {
      expect(flat.en.get(`messages.${code}`), code).toBe(message);
      expect(flat.ru.get(`messages.${code}`), code).toBeTruthy();
      expect(flat.hy.get(`messages.${code}`), code).toBeTruthy();
    }
  });

  it("every API error code has a text in every language: English exactly the API's, the others with the same placeholders", () => {
    expect(ERROR_CODES.size).toBeGreaterThan(150);
    for (const [code, english] of ERROR_CODES) {
      const key = keyOfCode(code);
      expect(flat.en.get(key), code).toBe(english);
      for (const lang of ['ru', 'hy'] as const) {
        const text = flat[lang].get(key);
        expect(text, `${lang}: ${code}`).toBeTruthy();
        expect(text, `${lang}: ${code} is not translated`).not.toBe(english);
        expect(placeholders(text!), `${lang}: ${code}`).toEqual(placeholders(english));
      }
    }
  });

  it("the extension has every part's API error texts, in every language", () => {
    for (const [lang, parts] of Object.entries(files) as [keyof typeof files, Record<string, Catalogue>][]) {
      const groups = Object.values(parts).flatMap((part) => Object.keys(part).filter((key) => key.endsWith('Messages')));
      expect(Object.keys(API_ERROR_TEXTS[lang]).sort(), lang).toEqual(groups.sort());
    }
  });
});
