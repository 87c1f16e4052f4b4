import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from 'zod';
import { inOrder } from '../lib/checks';
import { problem } from '../lib/messages';
import { VETTING_STATES } from '../vetting/vetting.states';
import { normalizeBrokerName, normalizeCarrierNumber } from './broker-name';
import { FILTER_MESSAGES } from './filters.messages';

export { FILTER_MESSAGES };

/** '-1' is the spec's "no type". */
export const NO_TYPE = '-1';
/** The search form's "every type". */
export const ALL_TYPES = 'all';
export const MAX_CONTACTS = 50;
/** A search answers at most this many filters, the newest; the screen asks to narrow the search. */
export const SEARCH_LIMIT = 500;

const id = z.string().max(64);
const flag = z.boolean().optional().default(false);
export const MAX_ALIASES = 20;

/** An optional MC or USDOT number: "MC 012345" is stored as "12345"; empty is none. Anything else, however long, gets the field's message. */
const carrierNumber = (message: string) =>
  z
    .union([z.string({ error: message }).max(20, message), z.number({ error: message }).transform(String)], { error: message })
    .nullable()
    .optional()
    .transform((v) => (v == null ? null : normalizeCarrierNumber(v) || null))
    .refine((v) => v === null || /^\d{1,8}$/.test(v), message);

export const identityFields = {
  mcNumber: carrierNumber(problem(FILTER_MESSAGES.badMcNumber)),
  dotNumber: carrierNumber(problem(FILTER_MESSAGES.badDotNumber)),
};

/** The spec's checks in order (name, type, at least one MC or All MC); the modal uses it too. */
export const filterSaveSchema = z
  .object({
    updateFilterId: id.nullable().optional(),
    name: z.string().max(200).optional().default(''),
    type: z
      .union([z.string().max(64), z.number().transform(String)])
      .nullable()
      .optional()
      .default(NO_TYPE),
    comment: z.string().max(2000).nullable().optional().default(''),
    onlyCreator: flag,
    allMC: flag,
    mcList: z.array(id).max(200).optional().default([]),
    usersList: z.array(id).max(1000).optional().default([]),
    onlyOnContacts: flag,
    contacts: z
      .array(z.string().max(200))
      .max(MAX_CONTACTS, problem(FILTER_MESSAGES.tooManyContacts, { max: MAX_CONTACTS }))
      .optional()
      .default([]),
    newUsers: flag,
    isVisible: z.boolean().optional().default(true),
    ...identityFields,
    aliases: z
      .array(z.string().max(200))
      .max(MAX_ALIASES, problem(FILTER_MESSAGES.tooManyAliases, { max: MAX_ALIASES }))
      .optional()
      .default([]),
  })
  .superRefine(
    inOrder([
      ['name', (v) => (normalizeBrokerName(v.name) ? null : problem(FILTER_MESSAGES.nameEmpty))],
      ['type', (v) => (v.type && v.type !== NO_TYPE ? null : problem(FILTER_MESSAGES.typeEmpty))],
      ['mcList', (v) => (v.allMC || v.mcList.length ? null : problem(FILTER_MESSAGES.mcEmpty))],
      ['contacts', (v) => badContactMessage(v.contacts)],
    ]),
  );
export type FilterSaveInput = z.output<typeof filterSaveSchema>;

export const filterIdSchema = z.object({ filterId: id.min(1, problem(FILTER_MESSAGES.notFound)) });
export const filterIdParamSchema = filterIdSchema;

export const noteSchema = z.object({
  text: z
    .string()
    .max(4000)
    .transform((t) => t.trim())
    .pipe(z.string().min(1, problem(FILTER_MESSAGES.noteEmpty))),
});

const filterIds = z.array(id.min(1)).min(1, problem(FILTER_MESSAGES.noneSelected)).max(500);

export const verifyManySchema = z.object({ filterIds });

/** POST /api/broker/queue/reject: the agent sees "Rejected: <reason>". */
export const rejectSchema = z.object({
  filterId: id.min(1, problem(FILTER_MESSAGES.notFound)),
  reason: z
    .string()
    .max(500)
    .transform((t) => t.trim())
    .pipe(z.string().min(1, problem(FILTER_MESSAGES.reasonEmpty))),
});

export const BULK_ACTIONS = ['disable', 'enable', 'delete', 'setType'] as const;
export const bulkSchema = z
  .object({ action: z.enum(BULK_ACTIONS), filterIds, type: z.string().max(64).optional() })
  .superRefine(inOrder([['type', (v) => (v.action !== 'setType' || (v.type && v.type !== NO_TYPE) ? null : problem(FILTER_MESSAGES.typeEmpty))]]));
export type BulkInput = z.output<typeof bulkSchema>;

/** POST /api/broker: the Filter search form ('Choose minimum 1 MC' unless All MCs). */
export const filterSearchSchema = z
  .object({
    name: z.string().max(200).optional().default(''),
    onlyCreator: flag,
    teamWithMe: flag,
    teamWithoutMe: flag,
    type: z
      .union([z.string().max(64), z.number().transform(String)])
      .nullable()
      .optional()
      .default(ALL_TYPES),
    onlyContacts: flag,
    creator: id.nullable().optional().default(''),
    allMC: flag,
    mcList: z.array(id).max(200).optional().default([]),
  })
  .superRefine(inOrder([['mcList', (v) => (v.allMC || v.mcList.length ? null : problem(FILTER_MESSAGES.searchMcEmpty))]]));
export type FilterSearchInput = z.output<typeof filterSearchSchema>;

export const filterOverrideSchema = z.object({
  newFilters: z
    .array(
      z.object({
        _id: id.min(1),
        typeName: z.string().max(60).optional().default(''),
        color: z.string().max(20).optional().default(''),
      }),
    )
    .min(1)
    .max(50),
});

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

const person = z.strictObject({ _id: z.string(), name: z.string() });
export const filterSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  comment: z.string(),
  isVisible: z.boolean(),
  isVerified: z.boolean(),
  onlyCreator: z.boolean(),
  allMC: z.boolean(),
  mcList: z.array(z.string()),
  usersList: z.array(z.string()),
  onlyOnContacts: z.boolean(),
  contacts: z.array(z.string()),
  newUsers: z.boolean(),
  canEdit: z.boolean(),
  /** The caller created this rejected filter: it may save the details again (back to the queue), nothing more. */
  canCorrect: z.boolean(),
  creator: person,
  index: z.number(),
  mcNumber: z.string().nullable(),
  dotNumber: z.string().nullable(),
  aliases: z.array(z.string()),
  /** Set when the manager rejected the submission. */
  rejectedReason: z.string().nullable(),
});
export type FilterDto = z.infer<typeof filterSchema>;

export const filterEventSchema = z.strictObject({
  _id: z.string(),
  kind: z.string(),
  actor: person,
  changes: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type FilterEventDto = z.infer<typeof filterEventSchema>;

export const filterNoteSchema = z.strictObject({
  _id: z.string(),
  author: person,
  text: z.string(),
  at: z.string(),
});
export type FilterNoteDto = z.infer<typeof filterNoteSchema>;

export const filterTypeSchema = z.strictObject({
  _id: z.string(),
  typeName: z.string(),
  color: z.string(),
  className: z.string(),
  index: z.number(),
});
export type FilterTypeDto = z.infer<typeof filterTypeSchema>;

/** GET /api/broker/minified: what a client needs to mark a broker on a load board. */
export const minifiedFilterSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  typeName: z.string(),
  color: z.string(),
  /** The filter's comment: the extension's tooltip on a flagged row. */
  comment: z.string(),
  onlyOnContacts: z.boolean(),
  contacts: z.array(z.string()),
  allMC: z.boolean(),
  mcList: z.array(z.string()),
  mcNumber: z.string().nullable(),
  /** Other trading names; the extension matches them like the name (compare with normalizeBrokerName). */
  aliases: z.array(z.string()),
  /** When made (docs/decisions/0021-broker-vetting.md): state null until checked. */
  vetting: z
    .strictObject({ state: z.enum(VETTING_STATES).nullable(), checkedAt: z.number().nullable() })
    .nullable()
    .optional(),
});
export type MinifiedFilterDto = z.infer<typeof minifiedFilterSchema>;

export const teamUserSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  userType: z.string(),
});
export type TeamUserDto = z.infer<typeof teamUserSchema>;

/** Phones without a leading + are read as this country's (the product's brokers are in the US). */
export const CONTACT_COUNTRY = 'US';
const CONTACT_EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Rule 0138: an e-mail as typed (trimmed), a phone in E.164; null when neither. */
export function contactForm(raw: string): string | null {
  const c = raw.trim();
  if (!c) return null;
  if (c.includes('@')) return CONTACT_EMAIL_RE.test(c) ? c : null;
  if (!/^[+\d\s().\-/]+$/.test(c)) return null;
  const phone = parsePhoneNumberFromString(c, CONTACT_COUNTRY);
  return phone?.isPossible() ? phone.number : null;
}

/** The first contact that is neither a phone nor an e-mail, as a message; null when all are fine. */
export function badContactMessage(contacts: readonly string[]): string | null {
  const bad = contacts.find((c) => c.trim() && contactForm(c) === null);
  return bad === undefined ? null : `"${bad.trim()}" is not a phone number or an e-mail`;
}

export function cleanContacts(contacts: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of contacts) {
    const c = contactForm(raw) ?? raw.trim();
    const key = c.toLowerCase();
    if (c && !seen.has(key)) {
      seen.add(key);
      out.push(c);
    }
  }
  return out;
}

/** The URL action's contact in its stored form; anything else as it came, for the modal to refuse with its message. */
export function normalizeContact(contact: string): string {
  return contactForm(contact) ?? contact.trim();
}

export function usersLabel(f: Pick<FilterDto, 'onlyCreator' | 'usersList' | 'creator'>): string {
  if (f.onlyCreator) return 'Only Me';
  return f.usersList.includes(f.creator._id) ? 'Team and Me' : 'Team without Me';
}

export function statusLabel(
  f: Pick<FilterDto, 'isVerified' | 'isVisible'> & { rejectedReason?: string | null },
): 'Rejected' | 'Unverified' | 'Active' | 'Disabled' {
  if (f.rejectedReason) return 'Rejected';
  if (!f.isVerified) return 'Unverified';
  return f.isVisible ? 'Active' : 'Disabled';
}

/** An import holds at most this many rows (the benchmark's size: bench/filters-import.mjs). */
export const MAX_IMPORT_ROWS = 5000;

/** One CSV row as the import screen sends it (the CSV's columns by header, all text). */
const cell = (max: number) => z.string().max(max).optional().default('');
export const importRowSchema = z.object({
  name: cell(300),
  type: cell(100),
  comment: cell(2000),
  /** Phones or e-mails separated by ";" or "," (the export's form). */
  contacts: cell(4000),
  // a bad number refuses its row (with the field's message), not the file; past 200 characters the file
  mcNumber: z.string().max(200, problem(FILTER_MESSAGES.badMcNumber)).optional().default(''),
  dotNumber: z.string().max(200, problem(FILTER_MESSAGES.badDotNumber)).optional().default(''),
});
export type ImportRow = z.output<typeof importRowSchema>;

export const importSchema = z.object({
  rows: z
    .array(importRowSchema)
    .min(1, problem(FILTER_MESSAGES.importEmpty))
    .max(MAX_IMPORT_ROWS, problem(FILTER_MESSAGES.importTooMany, { max: String(MAX_IMPORT_ROWS) })),
});

export type ImportOutcome = ImportPreviewRow['outcome'];
/** One row of the import preview: what the import would do with it, and why. */
export const importPreviewRowSchema = z.strictObject({
  row: z.number(),
  name: z.string(),
  outcome: z.enum(['create', 'match', 'refuse']),
  /** For `match`: the existing filter's name; for `refuse`: the reason. */
  detail: z.string(),
  /** A reason's code, when it is one of the area's messages (the screen translates it). */
  code: z.string().optional(),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;
const importCounts = { create: z.number(), match: z.number(), refuse: z.number() };
export const importPreviewSchema = z.strictObject({ rows: z.array(importPreviewRowSchema), ...importCounts });
export const importResultSchema = z.strictObject({ message: z.string(), ...importCounts });
