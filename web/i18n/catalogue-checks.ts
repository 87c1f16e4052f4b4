/**
 * What the web app's and the extension's catalogue tests both check (docs/decisions/0023-languages.md,
 * 0025-extension-languages.md): the same keys in every language with the plural forms each
 * language needs, and a translation with the same placeholders as its English.
 */
type Tree = { [key: string]: string | Tree };

/** i18next's plural suffixes. */
export const PLURAL = /_(zero|one|two|few|many|other)$/;

/** A catalogue as `a.b.c` → text. */
export function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree as Tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** The keys with their plural forms folded into one. */
export const baseKeys = (texts: Map<string, string>) => new Set([...texts.keys()].map((k) => k.replace(PLURAL, '')));

/** `{{name}}` placeholders and `<tag>` elements of a text, sorted. */
export const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*(?:,[^}]*)?\}\}|<(\w+)>/g)].map((m) => m[1] ?? `<${m[2]}>`).sort();

/** The keys of English a language lacks, and the keys only it has. */
export function keyDifferences(english: Map<string, string>, other: Map<string, string>) {
  const ours = baseKeys(english);
  const theirs = baseKeys(other);
  return { missing: [...ours].filter((k) => !theirs.has(k)), extra: [...theirs].filter((k) => !ours.has(k)) };
}

/** The plural forms a language needs (Intl.PluralRules for `locale`) that its texts lack. */
export function missingPluralForms(texts: Map<string, string>, locale: string): string[] {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const plurals = new Set([...texts.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
  return [...plurals].flatMap((base) => categories.filter((c) => !texts.has(`${base}_${c}`)).map((c) => `${base}_${c}`));
}

/** The texts whose placeholders differ from their English (a plural form against English's `_other`). */
export function placeholderMismatches(texts: Map<string, string>, english: Map<string, string>): string[] {
  return [...texts].flatMap(([key, text]) => {
    const source = english.get(key) ?? english.get(`${key.replace(PLURAL, '')}_other`);
    if (source === undefined) return [];
    return JSON.stringify(placeholders(text)) === JSON.stringify(placeholders(source)) ? [] : [key];
  });
}
