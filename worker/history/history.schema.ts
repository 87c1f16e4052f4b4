import * as z from 'zod';
import { isEmail } from '../auth/auth.schema';
import { dateInput, parseDate } from '../lib/dates';
import { problem } from '../lib/messages';
import { normalizeBoardPhone } from '../lib/phone';
import { HISTORY_MESSAGES } from './history.messages';

export { HISTORY_MESSAGES };

import { LOAD_BOARDS, type LoadBoard } from './boards';

/** Spec section 9, rule 0135: both ends count (Oct 15 to Nov 23 is 40 days; from Oct 14, refused). */
export const MAX_HISTORY_DAYS = 40;
/** A load answers at most this many rows; more answers 413 (docs/decisions/0008-history.md). */
export const MAX_HISTORY_ROWS = 100_000;
export const DAY_MS = 86_400_000;
/** DST may make the picked local days one hour longer than 24 h each. */
const DST_SLACK_MS = 3_600_000;

export { LOAD_BOARDS, type LoadBoard };
/** The board of a logged contact or load: DAT when a client sends none (the extension before Truckstop). */
export const boardField = z
  .enum(LOAD_BOARDS, { error: problem(HISTORY_MESSAGES.board) })
  .optional()
  .default('dat');

export const CONTACT_KINDS = ['call', 'email'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

const id = z.string().max(64);
const historyQueryFields = {
  usersList: z.array(id).max(1000).nullable().optional().default([]),
  mcList: z.array(id).max(1000).nullable().optional().default([]),
  phoneLogs: z.boolean().optional().default(true),
  emailLogs: z.boolean().optional().default(true),
  managerId: id.nullable().optional(),
  /** One board's contacts only; all boards when null or left out. */
  board: z
    .enum(LOAD_BOARDS, { error: problem(HISTORY_MESSAGES.board) })
    .nullable()
    .optional()
    .default(null),
  dateFrom: dateInput(problem(HISTORY_MESSAGES.range)),
  dateTo: dateInput(problem(HISTORY_MESSAGES.range)),
};
/** The range rule: the dates come out parsed, or the call answers the spec's message. */
function withRange<T extends { dateFrom: string | number; dateTo: string | number }>(query: T, ctx: z.RefinementCtx) {
  const dateFrom = parseDate(query.dateFrom);
  const dateTo = parseDate(query.dateTo);
  const problem = serverRangeError(dateFrom, dateTo);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return { ...query, dateFrom: dateFrom!, dateTo: dateTo! };
}
/** POST /api/callHistory/getHistory. Empty `usersList` or `mcList` means all of them. */
export const historyQuerySchema = z.object(historyQueryFields).transform(withRange);
export type HistoryQuery = z.output<typeof historyQuerySchema>;

/** All in the team's covering index (worker/db/schema/history.ts): a team's search reads the index alone. */
export const HISTORY_SEARCH_COLUMNS = ['mcName', 'brokerName', 'address', 'origin', 'dest', 'loadDate', 'contact'] as const;

export const HISTORY_SORT_COLUMNS = ['agent', 'mcName', 'brokerName', 'address', 'origin', 'dest', 'loadDate', 'callDate'] as const;
export type HistorySortColumn = (typeof HISTORY_SORT_COLUMNS)[number];
export const HISTORY_PAGE_SIZES = { min: 10, max: 50 } as const;

const viewFields = {
  /** Case-insensitive words to find in Agent, MC, Company, Address, Origin, Destination, Load Date or Contact. */
  search: z.string().trim().max(200, problem(HISTORY_MESSAGES.search)).optional().default(''),
  /** One Company (broker name) from the answer's `companies`, matched exactly. */
  company: z.string().max(200).nullable().optional().default(null),
  /** Default: Contact Date, newest first. */
  sort: z
    .object({
      column: z.enum(HISTORY_SORT_COLUMNS, { error: problem(HISTORY_MESSAGES.sort) }),
      dir: z.enum(['asc', 'desc'], { error: problem(HISTORY_MESSAGES.sort) }),
    })
    .nullable()
    .optional()
    .transform((v) => v ?? { column: 'callDate' as const, dir: 'desc' as const }),
};

export const historyExportSchema = z.object({ ...historyQueryFields, ...viewFields }).transform(withRange);
export type HistoryExportQuery = z.output<typeof historyExportSchema>;

/** IANA zone names Intl knows ('Asia/Yerevan'); the chart's days are this zone's days. */
const timeZone = z
  .string()
  .max(64)
  .optional()
  .default('UTC')
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, problem(HISTORY_MESSAGES.timeZone));

export const historyPageSchema = z
  .object({
    ...historyQueryFields,
    ...viewFields,
    page: z
      .number({ error: problem(HISTORY_MESSAGES.page) })
      .int(problem(HISTORY_MESSAGES.page))
      .min(1, problem(HISTORY_MESSAGES.page))
      .max(100_000, problem(HISTORY_MESSAGES.page))
      .optional()
      .default(1),
    pageSize: z
      .number({ error: problem(HISTORY_MESSAGES.pageSize) })
      .int(problem(HISTORY_MESSAGES.pageSize))
      .min(HISTORY_PAGE_SIZES.min, problem(HISTORY_MESSAGES.pageSize))
      .max(HISTORY_PAGE_SIZES.max, problem(HISTORY_MESSAGES.pageSize))
      .optional()
      .default(HISTORY_PAGE_SIZES.min),
    timeZone,
    /** false: the page alone (the client has the load's totals already); the totals answer null. */
    summary: z
      .boolean({ error: problem(HISTORY_MESSAGES.summaryFlag) })
      .optional()
      .default(true),
  })
  .transform(withRange);
export type HistoryPageQuery = z.output<typeof historyPageSchema>;

export const historyDaySchema = z.strictObject({
  date: z.string(),
  calls: z.number(),
  emails: z.number(),
});
export type HistoryDayDto = z.infer<typeof historyDaySchema>;

/** To is the end date plus one day, so From..end inclusive. Answers the message, or null. */
export function serverRangeError(from: Date | null, to: Date | null): string | null {
  if (!from || !to) return problem(HISTORY_MESSAGES.range);
  const span = to.getTime() - from.getTime();
  if (span <= 0 || span > MAX_HISTORY_DAYS * DAY_MS + DST_SLACK_MS) return problem(HISTORY_MESSAGES.range);
  return null;
}

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

/** Whole calendar days from `from` to `to` in the browser's time zone. */
export const calendarDays = (from: Date, to: Date) => Math.round((startOfDay(to).getTime() - startOfDay(from).getTime()) / DAY_MS);

/** How many calendar days the range covers, both ends included (Nov 23 to Nov 23 is 1). */
export const daysInRange = (from: Date, to: Date) => calendarDays(from, to) + 1;

/** The first day of the last `days` days up to `today` inclusive: "Last 40 days" starts 39 days back. */
export function firstOfLastDays(days: number, today: Date): Date {
  const from = startOfDay(today);
  from.setDate(from.getDate() - (days - 1));
  return from;
}

export function pickedRangeError(from: Date | undefined, to: Date | undefined): string | null {
  if (!from || !to) return problem(HISTORY_MESSAGES.range);
  const days = daysInRange(from, to);
  return days < 1 || days > MAX_HISTORY_DAYS ? problem(HISTORY_MESSAGES.range) : null;
}

/** The picked days as the call's dateFrom and dateTo (the end date plus one day, spec section 7). */
export function rangeToQuery(from: Date, to: Date): { dateFrom: string; dateTo: string } {
  const end = startOfDay(to);
  end.setDate(end.getDate() + 1);
  return { dateFrom: startOfDay(from).toISOString(), dateTo: end.toISOString() };
}

/** The one place the board's contact shape is written: the history row, the database row and the extension's row action are made of it. */
export const contactFieldsSchema = z.strictObject({
  brokerName: z.string(),
  address: z.string(),
  origin: z.string(),
  dest: z.string(),
  loadDate: z.string(),
  kind: z.enum(CONTACT_KINDS),
  /** A call's number (E.164) or an e-mail's address. */
  contact: z.string(),
  /** The line the contact was made on (1 to 6), null when unknown. */
  line: z.number().nullable(),
  board: z.enum(LOAD_BOARDS),
});
export type ContactFields = z.infer<typeof contactFieldsSchema>;

export const historyRowSchema = contactFieldsSchema.extend({
  _id: z.string(),
  parent: z.strictObject({ name: z.string() }),
  mcName: z.string(),
  callDate: z.string(),
  /** A call's caller number (E.164): the team's number for that line when it was logged, '' when none. */
  fromNumber: z.string(),
});
export type HistoryRowDto = z.infer<typeof historyRowSchema>;

/** docs/decisions/0171-history-retention-r2.md: `restored` months are back in D1 until `restoredUntil`. */
export const archivedMonthSchema = z.strictObject({
  month: z.string(),
  contacts: z.number(),
  state: z.enum(['archived', 'restored']),
  restoredUntil: z.string().nullable(),
});
export type ArchivedMonthDto = z.infer<typeof archivedMonthSchema>;

const archiveMonthField = z.string({ error: problem(HISTORY_MESSAGES.archiveMonth) }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, problem(HISTORY_MESSAGES.archiveMonth));

export const archiveListQuerySchema = z.object({ managerId: id.optional() });
export const archiveMonthSchema = z.object({ managerId: id.nullable().optional(), month: archiveMonthField });
export type ArchiveMonthInput = z.output<typeof archiveMonthSchema>;

export const archiveListSchema = z.strictObject({ months: z.array(archivedMonthSchema) });
export const archiveRestoreResultSchema = z.strictObject({ message: z.string(), code: z.string().optional(), month: archivedMonthSchema });

export const historyPageResultSchema = z.strictObject({
  rows: z.array(historyRowSchema),
  /** Contacts in the load (range, users, MCs, kinds); null with `summary: false`. */
  total: z.number().nullable(),
  /** Of them, those the search and the Company leave; null with `summary: false` when nothing narrows the load. */
  filteredTotal: z.number().nullable(),
  page: z.number(),
  pageSize: z.number(),
  /** The Companies of the load, A to Z: the Company filter's choices; null with `summary: false`. */
  companies: z.array(z.string()).nullable(),
  /** Each day of the range in `timeZone`, days without contacts included; null with `summary: false`. */
  perDay: z.array(historyDaySchema).nullable(),
  /** The UTC months of the range moved to the archive (their contacts are not in `rows` and the counts), or restored from it; null with `summary: false`. */
  archived: z.array(archivedMonthSchema).nullable(),
});
export type HistoryPage = z.infer<typeof historyPageResultSchema>;

const CLIENT_ID_RE = /^[A-Za-z0-9._:-]{1,100}$/;
export const clientIdField = z
  .string({ error: problem(HISTORY_MESSAGES.clientId) })
  .trim()
  .regex(CLIENT_ID_RE, problem(HISTORY_MESSAGES.clientId));
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => v ?? '');

/** A call's number as the board shows it, normalised (lib/phone.ts); null when it is not one. */
const boardPhone = (contact: string) => (contact.length <= 40 ? normalizeBoardPhone(contact) : null);

export const logContactSchema = z
  .object({
    clientId: clientIdField,
    mcSettingId: z
      .string({ error: problem(HISTORY_MESSAGES.selectMc) })
      .trim()
      .min(1, problem(HISTORY_MESSAGES.selectMc))
      .max(64, problem(HISTORY_MESSAGES.mcNotFound)),
    kind: z.enum(CONTACT_KINDS, { error: problem(HISTORY_MESSAGES.kind) }),
    contact: z.string().trim().max(320).optional().default(''),
    brokerName: z
      .string({ error: problem(HISTORY_MESSAGES.brokerEmpty) })
      .trim()
      .min(1, problem(HISTORY_MESSAGES.brokerEmpty))
      .max(200),
    address: text(300),
    origin: text(200),
    dest: text(200),
    loadDate: text(40),
    callDate: dateInput(problem(HISTORY_MESSAGES.contactDate)).nullable().optional(),
    /** The line the board offered the contact on ("Call on line 2"); the MC's line now when left out. */
    line: z
      .number({ error: problem(HISTORY_MESSAGES.line) })
      .int(problem(HISTORY_MESSAGES.line))
      .min(1, problem(HISTORY_MESSAGES.line))
      .max(6, problem(HISTORY_MESSAGES.line))
      .nullable()
      .optional(),
    board: boardField,
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'call' && !boardPhone(v.contact)) ctx.addIssue({ code: 'custom', message: problem(HISTORY_MESSAGES.phone), path: ['contact'] });
    if (v.kind === 'email' && !isEmail(v.contact)) ctx.addIssue({ code: 'custom', message: problem(HISTORY_MESSAGES.email), path: ['contact'] });
  })
  // last: the contact's date, within the window (now when the client sent none), and a call's
  // number stored normalised, so the same number written as DAT shows it and as E.164 is one contact
  .transform((v, ctx) => {
    const callDate = contactDateOf(v.callDate);
    if (!callDate) {
      ctx.addIssue({ code: 'custom', message: problem(HISTORY_MESSAGES.contactDate), path: ['callDate'] });
      return z.NEVER;
    }
    return { ...v, callDate, contact: v.kind === 'call' ? boardPhone(v.contact)! : v.contact };
  });
export type LogContactInput = z.output<typeof logContactSchema>;

/** How far a client's clock may run ahead, and how old a logged contact may be. */
export const CONTACT_DATE_WINDOW = { aheadMs: 10 * 60_000, backMs: 365 * DAY_MS } as const;

/** The contact date of a logged entry: now when the client sent none; null when out of the window. */
export function contactDateOf(value: string | number | null | undefined, now = Date.now()): Date | null {
  if (value === null || value === undefined) return new Date(now);
  const date = parseDate(value);
  if (!date) return null;
  const t = date.getTime();
  return t > now + CONTACT_DATE_WINDOW.aheadMs || t < now - CONTACT_DATE_WINDOW.backMs ? null : date;
}
