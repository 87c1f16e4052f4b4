/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { baseKeys, flatten, keyDifferences, missingPluralForms, placeholderMismatches } from '../../../web/i18n/catalogue-checks';
import en from './en.json';
import hy from './hy.json';
import { followLanguage, messageText } from './index';
import ru from './ru.json';

// docs/decisions/0025-extension-languages.md; texts inside a board row stay short, as the row keeps its height
const catalogues = { en, ru, hy } as const;
type Lang = keyof typeof catalogues;
const flat = Object.fromEntries(Object.entries(catalogues).map(([lang, tree]) => [lang, flatten(tree)])) as Record<Lang, Map<string, string>>;

// the extension's source files and pages, as text (Vite's glob: the test needs no file system)
const sources = import.meta.glob(['../**/*.{ts,html}', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const code = Object.values(sources).join('\n');

describe("the extension's catalogues", () => {
  it('every language has every key of English, and no other', () => {
    for (const lang of ['ru', 'hy'] as const) expect(keyDifferences(flat.en, flat[lang]), lang).toEqual({ missing: [], extra: [] });
  });

  it('a plural text has every form its language needs, no text is empty, and a translation has the placeholders of its English', () => {
    for (const lang of ['en', 'ru', 'hy'] as const) {
      expect(missingPluralForms(flat[lang], lang), lang).toEqual([]);
      expect(placeholderMismatches(flat[lang], flat.en), lang).toEqual([]);
      expect(
        [...flat[lang]].filter(([, text]) => !text.trim()).map(([key]) => key),
        lang,
      ).toEqual([]);
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

describe("the API's refusals on the extension's screens", () => {
  const taken = { message: 'Line 3 is already used by Acme Trucking', code: 'lines.lineTaken', params: { line: 3, name: 'Acme Trucking' } };

  it("say the code's text with its values in the user's language, and the API's own words in English", () => {
    followLanguage('hy');
    expect(messageText(taken)).toBe('Գիծ 3-ն արդեն զբաղեցնում է Acme Trucking-ը');
    followLanguage('ru');
    expect(messageText(taken)).toBe('Линия 3 уже занята: Acme Trucking');
    // translated by the code only: the same English without its code (a refusal stored before codes) is shown as sent
    expect(messageText({ message: 'Wrong email or password', code: 'wrongCredentials' })).toBe('Неверный e-mail или пароль');
    expect(messageText('Wrong email or password')).toBe('Wrong email or password');
    expect(messageText('Something nobody coded')).toBe('Something nobody coded');
    followLanguage('en');
    expect(messageText(taken)).toBe(taken.message);
  });
});
