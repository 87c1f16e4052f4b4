// Shared with the web app and the extension: no server imports here.
/**
 * - `tel`: RFC 3966; softphones register for it, but it carries the number only, so the agent picks the line.
 * - `dialpad`: `dialpad://<number>?fromNumber=<number>` (https://developers.dialpad.com/docs/app-launch-urls).
 * - `template`: `{to}`, `{from}` and `{line}`, each filled URL-encoded.
 */
import { problem } from '../lib/messages';
import { LINES_MESSAGES as LINES } from '../mc-settings/mc-settings.messages';

export const DIALERS = ['tel', 'dialpad', 'template'] as const;
export type Dialer = (typeof DIALERS)[number];

export const TEMPLATE_PLACEHOLDERS = ['to', 'from', 'line'] as const;
export const MAX_DIALER_TEMPLATE = 500;

/** Schemes a template may not use: they run code or read files instead of opening a phone app. */
const REFUSED_SCHEMES = new Set(['http', 'javascript', 'data', 'vbscript', 'file', 'blob', 'about', 'chrome', 'chrome-extension', 'filesystem', 'view-source']);

export function dialerTemplateError(template: string): string | null {
  const value = template.trim();
  if (!value) return problem(LINES.templateEmpty);
  if (value.length > MAX_DIALER_TEMPLATE) return problem(LINES.templateLong, { max: MAX_DIALER_TEMPLATE });
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (!scheme || REFUSED_SCHEMES.has(scheme) || (scheme === 'https' && !/^https:\/\/[^/\s{}]+/i.test(value))) return problem(LINES.templateScheme);
  if (/\s/.test(value)) return problem(LINES.templateScheme);
  for (const match of value.matchAll(/\{([^{}]*)\}/g)) {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(match[1]!)) return problem(LINES.templateUnknown, { name: `{${match[1]}}` });
  }
  if (!value.includes('{to}')) return problem(LINES.templateTo);
  return null;
}

export interface DialTarget {
  /** The broker's number, E.164 with an optional `;ext=N` (lib/phone.ts normalizeBoardPhone). */
  to: string;
  /** The line's caller number, E.164, or '' when the team set none for the line. */
  from: string;
  /** The line, 1 to 6, or null when the MC has none. */
  line: number | null;
}

export function dialUrl(dialer: Dialer, template: string, target: DialTarget): string {
  const [number = '', ext] = target.to.split(';ext=');
  if (dialer === 'dialpad') {
    // Dialpad's launch URL takes the number to call in the path and the line's number as fromNumber
    const query = target.from ? `?fromNumber=${encodeURIComponent(target.from)}` : '';
    return `dialpad://${encodeURIComponent(number)}${query}`;
  }
  if (dialer === 'template' && template.trim()) {
    const values: Record<string, string> = { to: number, from: target.from, line: target.line ? String(target.line) : '' };
    return template.trim().replace(/\{(to|from|line)\}/g, (_, key: string) => encodeURIComponent(values[key] ?? ''));
  }
  // RFC 3966: tel:+13125550142;ext=12
  return `tel:${number}${ext ? `;ext=${ext}` : ''}`;
}
