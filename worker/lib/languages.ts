/** docs/decisions/0023-languages.md. No server imports: the web app and the login page use the same list. */
export const LANGUAGES = ['en', 'ru', 'hy'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** `navigator.languages`, or an Accept-Language header's tags by q-value; null when none is ours. */
export function languageFromTags(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

export function languageFromHeader(header: string | null | undefined): Language | null {
  if (!header) return null;
  const tags = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag!.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.tag);
  return languageFromTags(tags);
}

/** Idram's EDP_LANGUAGE for a language: EN, RU or AM (Armenian). */
export const idramLanguage = (language: Language | null | undefined) => (({ en: 'EN', ru: 'RU', hy: 'AM' }) as const)[language ?? DEFAULT_LANGUAGE];

/** The Intl locale a language formats dates, numbers and money in (English: the browser's English, else en-US). */
export const LOCALES: Record<Language, string> = { en: 'en-US', ru: 'ru-RU', hy: 'hy-AM' };
