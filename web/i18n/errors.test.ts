import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../../worker/auth/auth.messages';
import { LINES_MESSAGES } from '../../worker/mc-settings/mc-settings.messages';
import { errorText, messageText } from './errors';
import { applyLanguage } from './startup';

const stored = new Map<string, string>();

/** The screens translate an API answer by its code (docs/decisions/0182-messages-keyed-by-code.md), never by its English. */
describe("the API's messages on the screens", () => {
  beforeAll(async () => {
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    });
    vi.stubGlobal('document', { documentElement: { lang: 'en' } });
    vi.stubGlobal('window', { location: { origin: 'http://localhost' } });
    await applyLanguage('ru');
  });
  afterAll(async () => {
    await applyLanguage('en');
    vi.unstubAllGlobals();
  });

  it('say a coded answer in the language with its values, and an answer without a code as it came', () => {
    const wrong = AUTH_MESSAGES.wrongCredentials;
    expect(messageText(wrong.text, wrong.code)).toBe('Неверный e-mail или пароль');
    // the same English without its code: shown as sent, not guessed from the words
    expect(messageText(wrong.text)).toBe(wrong.text);
    const taken = { message: 'Line 3 is already used by Acme Trucking', code: LINES_MESSAGES.lineTaken.code, params: { line: 3, name: 'Acme Trucking' } };
    expect(errorText(Object.assign(new Error(taken.message), { data: taken }))).toBe('Линия 3 уже занята: Acme Trucking');
    expect(errorText(Object.assign(new Error(taken.message), { data: { message: taken.message } }))).toBe(taken.message);
  });

  it("say an answer that is not the API's error (a proxy's page) as the API's own generic refusal", async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    const { apiFetch } = await import('../lib/api-client');
    const failed = await apiFetch('/api/user').catch((err: unknown) => err);
    expect(errorText(failed)).toBe('Что-то пошло не так');
    expect(errorText('not an error')).toBe('Что-то пошло не так');
  });
});
