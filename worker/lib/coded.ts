/** One English text with `{{name}}` placeholders, the catalogues' own form. No imports: the shared schemas use it. */
export type MessageParams = Record<string, string | number>;

export interface Template<K extends string = string> {
  (params: Record<K, string | number>): string;
  /** The English text with its placeholders, e.g. `Line {{line}} is listed twice`. */
  readonly text: string;
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** A message with values: `template<'line'>('Line {{line}} is listed twice')({ line: 3 })`. */
export function template<K extends string>(text: string): Template<K> {
  const fill = (params: Record<K, string | number>) =>
    text.replace(PLACEHOLDER, (_, key: string) => {
      const value = params[key as K];
      return typeof value === 'number' ? value.toLocaleString('en-US') : value;
    });
  return Object.assign(fill, { text });
}

export const isTemplate = (value: unknown): value is Template => typeof value === 'function' && typeof (value as Template).text === 'string';

export const placeholdersOf = (text: string) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A schema's check answers only its text, so the values are read back out; null when not this template's. */
export function matchTemplate(text: string, message: string): MessageParams | null {
  const names = placeholdersOf(text);
  const pattern = new RegExp(
    `^${text
      .split(/\{\{\w+\}\}/)
      .map(escapeRegExp)
      .join('([\\s\\S]+?)')}$`,
  );
  const found = pattern.exec(message);
  if (!found) return null;
  return Object.fromEntries(
    names.map((name, i) => {
      const value = found[i + 1]!;
      return [name, /^(\d{1,15}|\d{1,3}(,\d{3}){1,4})$/.test(value) ? Number(value.replaceAll(',', '')) : value];
    }),
  );
}
