import * as z from 'zod';

/** The link shortener's messages; shared with the screens. */
export const LINK_MESSAGES = {
  empty: 'Enter a link',
  scheme: 'Enter a link starting with http:// or https://',
  invalid: 'This is not a valid link',
  tooLong: 'This link is too long (2048 characters at most)',
  credentials: 'Links with a user name or password are not allowed',
  ownShortLink: 'Links to our own short links are not allowed',
  alias: 'An alias is 3 to 32 letters, digits, - or _',
  aliasTaken: 'This alias is already taken',
} as const;

export const MAX_LINK_LENGTH = 2048;
export const ALIAS_RE = /^[A-Za-z0-9_-]{3,32}$/;

export const generateSchema = z.object({
  // generous bounds here; checkTarget gives the exact reasons
  from: z
    .string()
    .max(MAX_LINK_LENGTH * 2, LINK_MESSAGES.tooLong)
    .optional()
    .default(''),
  alias: z.string().max(64, LINK_MESSAGES.alias).optional(),
});
export const linkIdParam = z.object({ id: z.string().min(1).max(64) });
/** A short code: our random codes and aliases; anything else is an unknown code (404 page). */
export const CODE_RE = /^[A-Za-z0-9_-]{1,32}$/;
export const codeParam = z.object({ code: z.string().regex(CODE_RE) });
export const disableSchema = z.object({ isDisabled: z.boolean({ message: 'isDisabled must be true or false' }) });

/**
 * Answers why `raw` may not be shortened, or null with the normalised URL. `ownHosts` are the
 * product's own hosts: a link to our own /s/ path would loop or hide another short link.
 */
export function checkTarget(raw: string, ownHosts: string[]): { error: string } | { url: string } {
  const text = raw.trim();
  if (!text) return { error: LINK_MESSAGES.empty };
  if (text.length > MAX_LINK_LENGTH) return { error: LINK_MESSAGES.tooLong };
  if (!/^https?:\/\//i.test(text)) return { error: LINK_MESSAGES.scheme };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: LINK_MESSAGES.invalid };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: LINK_MESSAGES.scheme };
  if (url.username || url.password) return { error: LINK_MESSAGES.credentials };
  if (!url.hostname || /[\s<>"]/.test(text)) return { error: LINK_MESSAGES.invalid };
  if (ownHosts.includes(url.host.toLowerCase()) && url.pathname.startsWith('/s/')) return { error: LINK_MESSAGES.ownShortLink };
  return { url: url.toString() };
}

export interface LinkDto {
  _id: string;
  from: string;
  to: string;
  clicks: number;
  date: string;
  code: string;
  isDisabled: boolean;
  /** Only in the admin's list of every user's links. */
  owner?: { _id: string; name: string; email: string };
}

export interface LinkStats {
  daily: { day: string; people: number; bots: number }[];
  referrers: { value: string; count: number }[];
  countries: { value: string; count: number }[];
  devices: { value: string; count: number }[];
  bots: number;
}
