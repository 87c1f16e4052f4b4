/**
 * The API's messages, keyed by code (docs/decisions/0023-languages.md, "Error codes"). Each area
 * defines one table with `defineMessages`: an entry's code (`lines.lineTaken`), the status a
 * refusal answers, and its English text, whose `{{placeholders}}` are the catalogues' own. The
 * screens' catalogues, the OpenAPI error lists and the answers' `message` all start from the code.
 * No imports: the shared schemas, the web app and the extension use it.
 */

export type Status = 200 | 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503;
export type MessageParams = Record<string, string | number>;

/** The placeholders of an English text: `Line {{line}} is used by {{name}}` → 'line' | 'name'. */
type Placeholders<T extends string> = T extends `${string}{{${infer K}}}${infer Rest}` ? K | Placeholders<Rest> : never;

export interface Message<P extends string = string> {
  /** `<area>.<key>`; the login page's messages have the bare key (its catalogue's `messages.<key>`). */
  readonly code: string;
  readonly status: Status;
  /** English, with `{{placeholders}}` for the values. */
  readonly text: string;
  /** When a call answers it, for the API reference. */
  readonly when?: string;
  /** Type only: the names of the values the text takes. */
  readonly __params?: P;
}

/** A refusal `[status, text, when?]`; a bare text is a success (200); an entry of another table is shared, code and all. */
type Definition = string | readonly [Status, string] | readonly [Status, string, string] | Message<string>;
type Defined<D> =
  D extends Message<infer P>
    ? Message<P>
    : D extends readonly [Status, infer T extends string, ...unknown[]]
      ? Message<Placeholders<T>>
      : D extends string
        ? Message<Placeholders<D>>
        : never;

/** The values an entry's text names, as arguments: none, or one object with each placeholder (optional for an entry not known at compile time). */
export type ParamsArgs<M> =
  M extends Message<infer P> ? ([P] extends [never] ? [] : string extends P ? [params?: MessageParams] : [params: Record<P, string | number>]) : never;

const byCode = new Map<string, Message>();

/**
 * An area's table: `defineMessages('lines', { lineTaken: [409, 'Line {{line}} is already used by {{name}}'] })`
 * gives `lines.lineTaken`. Each entry is also registered by its code, so a schema's check (whose
 * zod issue carries only a string) answers with the entry it names.
 */
export function defineMessages<const T extends Record<string, Definition>>(area: string, definitions: T): { readonly [K in keyof T]: Defined<T[K]> } {
  const table: Record<string, Message> = {};
  for (const [key, d] of Object.entries(definitions)) {
    if (typeof d === 'object' && 'code' in d) {
      table[key] = d;
      continue;
    }
    const [status, text, when] = typeof d === 'string' ? ([200, d] as const) : d;
    const entry: Message = { code: area ? `${area}.${key}` : key, status, text, ...(when ? { when } : {}) };
    byCode.set(entry.code, entry);
    table[key] = entry;
  }
  return table as never;
}

/** The entry of a code, when its area's table is loaded. */
export const messageByCode = (code: string): Message | undefined => byCode.get(code);

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** A text with its values: numbers in English digits with commas. */
export const fillText = (text: string, values: MessageParams = {}) =>
  text.replace(PLACEHOLDER, (_, key: string) => {
    const value = values[key];
    return typeof value === 'number' ? value.toLocaleString('en-US') : (value ?? '');
  });

/** An entry's English with its values. */
export function textOf<M extends Message>(entry: M, ...[params]: ParamsArgs<M>): string {
  return fillText(entry.text, params as MessageParams | undefined);
}

/** A success answer that says which of several it is: `{message, code}` (the screens translate by the code). */
export const messageOf = (entry: Message<never>) => ({ message: entry.text, code: entry.code });

/**
 * An entry and its values as one string, for a zod issue (whose only text is its `message`):
 * the code, then the values as JSON. `validate()` answers it as the entry; the screens translate it.
 */
export function problem<M extends Message>(entry: M, ...[params]: ParamsArgs<M>): string {
  return params ? `${entry.code} ${JSON.stringify(params)}` : entry.code;
}

/** A coded problem read back: its entry and values; null for any other text (zod's own "Invalid input"). */
export function readProblem(text: string): { entry: Message; params?: MessageParams } | null {
  const space = text.indexOf(' ');
  const entry = byCode.get(space < 0 ? text : text.slice(0, space));
  if (!entry) return null;
  if (space < 0) return { entry };
  try {
    return { entry, params: JSON.parse(text.slice(space + 1)) as MessageParams };
  } catch {
    return null;
  }
}

/** A problem's English: its entry's text with its values; any other text as it is. */
export function problemText(text: string): string {
  const known = readProblem(text);
  return known ? fillText(known.entry.text, known.params) : text;
}

/**
 * The catalogue key of a code: an area's (`lines.lineTaken`) is `<area>Messages.<key>` in that
 * area's part; the login page's (`wrongCredentials`) are `messages.<code>`.
 */
export const keyOfCode = (code: string) => (code.includes('.') ? code.replace('.', 'Messages.') : `messages.${code}`);
