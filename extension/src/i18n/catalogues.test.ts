/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import en from './en.json';
import hy from './hy.json';
import ru from './ru.json';

/**
 * The extension's catalogues (docs/decisions/0025-extension-languages.md): every key of English in
 * Russian and Armenian with the plural forms each language needs, the same placeholders, no key
 * that no code uses, no key the code uses that English lacks, and the texts that sit inside a
 * board row short in every language (the row keeps its height).
 */
const catalogues = { en, ru, hy } as const;
type Lang = keyof typeof catalogues;
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const flat = Object.fromEntries(Object.entries(catalogues).map(([lang, tree]) => [lang, flatten(tree)])) as Record<Lang, Map<string, string>>;
const baseKeys = (m: Map<string, string>) => new Set([...m.keys()].map((k) => k.replace(PLURAL, '')));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

// the extension's source files and pages, as text (Vite's glob: the test needs no file system)
const sources = import.meta.glob(['../**/*.{ts,html}', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const code = Object.values(sources).join('\n');

describe("the extension's catalogues", () => {
  it('every language has every key of English, and no other', () => {
    const english = baseKeys(flat.en);
    for (const lang of ['ru', 'hy'] as const) {
      const other = baseKeys(flat[lang]);
      expect(
        [...english].filter((k) => !other.has(k)),
        `missing in ${lang}`,
      ).toEqual([]);
      expect(
        [...other].filter((k) => !english.has(k)),
        `only in ${lang}`,
      ).toEqual([]);
    }
  });

  it('a plural text has every form its language needs, and no texts are empty', () => {
    for (const lang of ['en', 'ru', 'hy'] as const) {
      const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      const plurals = new Set([...flat.en.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
      for (const base of plurals) for (const form of forms) expect(flat[lang].has(`${base}_${form}`), `${lang}: ${base}_${form}`).toBe(true);
      for (const [key, text] of flat[lang]) expect(text.trim(), `${lang}: ${key}`).not.toBe('');
    }
  });

  it('every translation has the same placeholders as English', () => {
    for (const lang of ['ru', 'hy'] as const) {
      for (const [key, text] of flat[lang]) {
        const english = flat.en.get(key) ?? flat.en.get(`${key.replace(PLURAL, '')}_other`);
        expect(placeholders(text), `${lang}: ${key}`).toEqual(placeholders(english ?? ''));
      }
    }
  });

  it('every key is used by the code, as a literal (t(…), a map of keys, or data-i18n in a page)', () => {
    const unused = [...baseKeys(flat.en)].filter((key) => !code.includes(`'${key}'`) && !code.includes(`"${key}"`));
    expect(unused).toEqual([]);
  });

  it('every key the code asks for is in English', () => {
    const english = baseKeys(flat.en);
    const asked = [...code.matchAll(/\bt\(\s*'([\w.]+)'/g), ...code.matchAll(/data-i18n="([\w.]+)"/g)].map((m) => m[1]!);
    expect(asked.length).toBeGreaterThan(50);
    expect(asked.filter((key) => !english.has(key))).toEqual([]);
  });

  it("the texts inside a board row stay short in every language (the row keeps DAT's height)", () => {
    const inRow = ['row.flagged', 'row.calledBy', 'row.calledByYou', 'row.emailedBy', 'row.emailedByYou', 'row.thisLoad'];
    for (const lang of ['en', 'ru', 'hy'] as const) {
      for (const key of inRow) {
        const text = flat[lang].get(key)!.replace(/\{\{\s*\w+\s*\}\}/g, '');
        expect(text.length, `${lang}: ${key} "${text}"`).toBeLessThanOrEqual(16);
      }
    }
  });
});
