import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../worker/auth/auth.messages';
import loginEnglish from './en-login.json';
import { messageText } from './errors';
import { currentLanguage, loadLibrary, t } from './startup';

function flatten(tree: object, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value] as [string, string]] : flatten(value, `${prefix}${key}.`),
  );
}
const keys = flatten(loginEnglish);

// the files that speak before i18next loads: they take `t` from ./startup
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.ts', '!../dist/**'], { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;
const early = Object.entries(sources).filter(([, code]) => /from '(\.\/|(\.\.\/)+i18n\/)startup'/.test(code));

/**
 * The login page's English without i18next (docs/decisions/0024-login-bundle.md): what it shows
 * must be what i18next shows once loaded, so an English visitor sees the same screen either way.
 */
describe("the login page's texts before i18next", () => {
  it('are plain texts: no placeholders, plural forms or nesting, which only i18next resolves', () => {
    expect(keys.length).toBeGreaterThan(20);
    for (const [key, text] of keys) {
      expect(text, key).not.toMatch(/\{\{|\$t\(/);
      expect(key).not.toMatch(/_(zero|one|two|few|many|other)$/);
    }
  });

  it('every text those screens ask for is in en-login.json, or comes with its English as defaultValue', () => {
    expect(early.map(([file]) => file).length).toBeGreaterThan(4);
    const known = new Set(keys.map(([key]) => key));
    for (const [file, code] of early) {
      for (const m of code.matchAll(/\bt\(\s*'([\w.]+)'(\s*,\s*\{\s*defaultValue)?/g)) {
        expect(known.has(m[1]!) || m[2] !== undefined, `${file}: ${m[1]}`).toBe(true);
      }
    }
  });

  it("say exactly what i18next says in English, and so do the API's coded messages", async () => {
    expect(currentLanguage()).toBe('en');
    const before = keys.map(([key]) => t(key));
    const fallback = t('common.offline', { defaultValue: 'Offline.' });
    const message = messageText(AUTH_MESSAGES.wrongCredentials.text, AUTH_MESSAGES.wrongCredentials.code);
    const uncoded = messageText('Some text the API has no code for');

    const { default: i18next } = await loadLibrary().then(() => import('./index'));
    // from now on the texts are i18next's
    expect(keys.map(([key]) => i18next.t(key))).toEqual(before);
    expect(keys.map(([key]) => t(key))).toEqual(before);
    expect(i18next.t('common.offline', { defaultValue: 'Offline.' })).toBe(fallback);
    expect(messageText(AUTH_MESSAGES.wrongCredentials.text, AUTH_MESSAGES.wrongCredentials.code)).toBe(message);
    expect(message).toBe('Wrong email or password');
    expect(messageText('Some text the API has no code for')).toBe(uncoded);
    expect(t('shell.waiting', { count: 2 })).toBe('2 waiting');
  });
});
