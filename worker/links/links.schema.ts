import * as z from 'zod';
import { type Message, problem } from '../lib/messages';
import { pageQueryShape, pageShape } from '../lib/paging.schema';
import { LINK_MESSAGES } from './links.messages';

export { LINK_MESSAGES };

export const MAX_CLICK_LIMIT = 1_000_000_000;
/** An ISO date-time; null removes the expiry. */
const expiresAtField = z.iso
  .datetime({ offset: true, message: problem(LINK_MESSAGES.expiresAt) })
  .nullable()
  .optional();
const maxClicksField = z
  .number({ message: problem(LINK_MESSAGES.maxClicks) })
  .int(problem(LINK_MESSAGES.maxClicks))
  .min(1, problem(LINK_MESSAGES.maxClicks))
  .max(MAX_CLICK_LIMIT, problem(LINK_MESSAGES.maxClicks))
  .nullable()
  .optional();

export const MAX_LINK_LENGTH = 2048;
export const ALIAS_RE = /^[A-Za-z0-9_-]{3,32}$/;

export const generateSchema = z.object({
  // generous bounds here; checkTarget gives the exact reasons
  from: z
    .string()
    .max(MAX_LINK_LENGTH * 2, problem(LINK_MESSAGES.tooLong))
    .optional()
    .default(''),
  alias: z.string().max(64, problem(LINK_MESSAGES.alias)).optional(),
  expiresAt: expiresAtField,
  maxClicks: maxClicksField,
});
export const linkIdParam = z.object({ id: z.string().min(1).max(64) });
/** A short code: our random codes and aliases; anything else is an unknown code (404 page). */
export const CODE_RE = /^[A-Za-z0-9_-]{1,32}$/;
export const codeParam = z.object({ code: z.string().regex(CODE_RE) });
export const editSchema = z.object({
  isDisabled: z.boolean({ message: problem(LINK_MESSAGES.isDisabled) }).optional(),
  from: z
    .string()
    .max(MAX_LINK_LENGTH * 2, problem(LINK_MESSAGES.tooLong))
    .optional(),
  alias: z.string().max(64, problem(LINK_MESSAGES.alias)).optional(),
  expiresAt: expiresAtField,
  maxClicks: maxClicksField,
});
export type LinkEdit = z.infer<typeof editSchema>;

export const keyCreateSchema = z.object({
  name: z
    .string({ message: problem(LINK_MESSAGES.keyName) })
    .trim()
    .min(1, problem(LINK_MESSAGES.keyName))
    .max(60, problem(LINK_MESSAGES.keyName)),
  expiresAt: z.iso
    .datetime({ offset: true, message: problem(LINK_MESSAGES.keyExpiresAt) })
    .nullable()
    .optional(),
});
export const keyIdParam = z.object({ id: z.string().min(1).max(64) });

export const apiKeySchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyDto = z.infer<typeof apiKeySchema>;
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });

/** `loopback`: every loopback spelling counts as ours (development, or the product served from one). */
export interface OwnHosts {
  names: ReadonlySet<string>;
  loopback: boolean;
}

/** As the WHATWG URL parser leaves it, without the trailing dots of a fully qualified name. */
export const canonicalHostname = (hostname: string) => hostname.toLowerCase().replace(/\.+$/, '');

export function hostnameOf(urlOrHost: string): string {
  const text = urlOrHost.trim();
  if (!text) return '';
  try {
    return canonicalHostname(new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`).hostname);
  } catch {
    return '';
  }
}

const isLoopbackIpv4 = (first: number) => first === 127 || first === 0;

/**
 * Loopback and "this host" names: localhost and *.localhost (RFC 6761), 127.0.0.0/8, 0.0.0.0/8,
 * [::1], [::], and IPv4-mapped or -compatible IPv6 forms of those ([::ffff:7f00:1]).
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = canonicalHostname(hostname);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v4 = /^(\d{1,3})\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.exec(h);
  if (v4) return isLoopbackIpv4(Number(v4[1]));
  if (h === '[::1]' || h === '[::]') return true;
  // the parser writes an embedded IPv4 as two hex groups: [::ffff:7f00:1], [::7f00:1]
  const mapped = /^\[::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(h);
  return mapped ? isLoopbackIpv4(Number.parseInt(mapped[1]!, 16) >> 8) : false;
}

export function isOwnHost(hostname: string, own: OwnHosts): boolean {
  const h = canonicalHostname(hostname);
  return own.names.has(h) || (own.loopback && isLoopbackHost(h));
}

/**
 * Any page of our own hosts is refused whatever its path (`/%73/X`, `//s/X` reach the redirect again:
 * a loop that counts a click per hop). Hosts are compared after the URL parser's normalisation.
 */
export function checkTarget(raw: string, own: OwnHosts): { error: Message<never> } | { url: string } {
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
  if (isOwnHost(url.hostname, own)) return { error: LINK_MESSAGES.ownSite };
  return { url: url.toString() };
}

export const linkSchema = z.strictObject({
  _id: z.string(),
  from: z.string(),
  to: z.string(),
  clicks: z.number(),
  date: z.string(),
  code: z.string(),
  isDisabled: z.boolean(),
  expiresAt: z.string().nullable(),
  maxClicks: z.number().nullable(),
  /** What the code answers now: active (302), disabled or expired (410). */
  status: z.enum(['active', 'disabled', 'expired']),
  /** Only in the admin's list of every user's links. */
  owner: z.strictObject({ _id: z.string(), name: z.string(), email: z.string() }).optional(),
});
export type LinkDto = z.infer<typeof linkSchema>;

/** GET /api/link/page: the links list a page at a time; `all=1` is the admin's every user's links, as GET /api/link. */
export const linkPageQuerySchema = z.object({
  ...pageQueryShape,
  all: z.enum(['0', '1']).optional(),
  /** Creation date (the list's numbering), the target, or the short link's code; then the id. */
  sort: z.enum(['date', 'from', 'code']).optional().default('date'),
  dir: z.enum(['asc', 'desc']).optional().default('asc'),
});
export type LinkPageQuery = z.output<typeof linkPageQuerySchema>;
export const linksPageSchema = z.strictObject(pageShape(linkSchema));
export type LinksPage = z.infer<typeof linksPageSchema>;

const countsSchema = z.array(z.strictObject({ value: z.string(), count: z.number() }));
export const linkStatsSchema = z.strictObject({
  /** `visitors`: unique people that day (a salted daily hash of IP and user agent). */
  daily: z.array(z.strictObject({ day: z.string(), people: z.number(), bots: z.number(), visitors: z.number() })),
  referrers: countsSchema,
  countries: countsSchema,
  devices: countsSchema,
  browsers: countsSchema,
  oses: countsSchema,
  bots: z.number(),
});
export type LinkStats = z.infer<typeof linkStatsSchema>;
export const linkWithStatsSchema = linkSchema.extend({ stats: linkStatsSchema });
