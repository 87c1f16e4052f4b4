import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from 'zod';
import { inOrder } from '../lib/checks';

/** The filters area's messages (spec section 5 and the screens). Shared with the screens. */
export const FILTER_MESSAGES = {
  nameEmpty: 'Name is empty',
  typeEmpty: 'Select the type',
  mcEmpty: 'Select minimum 1 mc or All MC',
  searchMcEmpty: 'Choose minimum 1 MC',
  noMcs: 'Add your MC in Lines tab before creating filters',
  typeNameEmpty: 'Type name is empty',
  badColor: 'Choose a colour',
  agentsCannotRename: 'Agents cannot edit filter types',
  cannotEdit: 'You are not allowed to edit this filter',
  notFound: 'Filter not found',
  mcNotFound: 'MC not found',
  userNotFound: 'User not found',
  typeNotFound: 'Filter type not found',
  added: 'Filter added',
  addedUnverified: 'Filter added. It stays unverified until your manager verifies it',
  updated: 'Filter updated',
  verified: 'Filter verified and updated',
  deleted: 'Filter deleted',
  activated: 'Filter activated',
  disabled: 'Filter disabled',
  typesSaved: 'Filter types saved',
} as const;

/** '-1' is the spec's "no type". */
export const NO_TYPE = '-1';
/** The search form's "every type". */
export const ALL_TYPES = 'all';
export const MAX_CONTACTS = 50;
/** A search answers at most this many filters, the newest; the screen asks to narrow the search. */
export const SEARCH_LIMIT = 500;

const id = z.string().max(64);
const flag = z.boolean().optional().default(false);

/**
 * POST /api/broker/add and /api/broker/update/details, and the filter modal's form: the spec's
 * checks in order (name, type, at least one MC or All MC).
 */
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
    contacts: z.array(z.string().max(200)).max(MAX_CONTACTS, `At most ${MAX_CONTACTS} contacts`).optional().default([]),
    newUsers: flag,
    isVisible: z.boolean().optional().default(true),
  })
  .superRefine(
    inOrder([
      ['name', (v) => (v.name.trim() ? null : FILTER_MESSAGES.nameEmpty)],
      ['type', (v) => (v.type && v.type !== NO_TYPE ? null : FILTER_MESSAGES.typeEmpty)],
      ['mcList', (v) => (v.allMC || v.mcList.length ? null : FILTER_MESSAGES.mcEmpty)],
      ['contacts', (v) => badContactMessage(v.contacts)],
    ]),
  );
export type FilterSaveInput = z.output<typeof filterSaveSchema>;

export const filterIdSchema = z.object({ filterId: id.min(1, FILTER_MESSAGES.notFound) });

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
  .superRefine(inOrder([['mcList', (v) => (v.allMC || v.mcList.length ? null : FILTER_MESSAGES.searchMcEmpty)]]));
export type FilterSearchInput = z.output<typeof filterSearchSchema>;

/** PUT /api/user/update/filterOverride/. */
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

/** The Filter entity as the API answers it (spec section 3). */
export interface FilterDto {
  _id: string;
  name: string;
  type: string;
  comment: string;
  isVisible: boolean;
  isVerified: boolean;
  onlyCreator: boolean;
  allMC: boolean;
  mcList: string[];
  usersList: string[];
  onlyOnContacts: boolean;
  contacts: string[];
  newUsers: boolean;
  canEdit: boolean;
  creator: { _id: string; name: string };
  index: number;
}

export interface FilterTypeDto {
  _id: string;
  typeName: string;
  color: string;
  className: string;
  index: number;
}

/** GET /api/broker/minified: what a client needs to mark a broker on a load board. */
export interface MinifiedFilterDto {
  _id: string;
  name: string;
  type: string;
  typeName: string;
  color: string;
  /** The filter's comment: the extension's tooltip on a flagged row. */
  comment: string;
  onlyOnContacts: boolean;
  contacts: string[];
  allMC: boolean;
  mcList: string[];
}

export interface TeamUserDto {
  _id: string;
  name: string;
  userType: string;
}

/** Phones without a leading + are read as this country's (the product's brokers are in the US). */
export const CONTACT_COUNTRY = 'US';
const CONTACT_EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A filter contact in its one stored form (issue 16 item 6): an e-mail as typed (trimmed), a
 * phone in E.164 ("(555) 123-4567" and "555 1234567" are both "+15551234567"); null when it is
 * neither, like "hello". Used by the modal, the deep link and the API alike.
 */
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

/** Contacts as stored: each in its one form (contactForm), without empties and duplicates, in the order given. */
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

/** The Users column: 'Only Me', 'Team and Me' or 'Team without Me' (from the creator's side). */
export function usersLabel(f: Pick<FilterDto, 'onlyCreator' | 'usersList' | 'creator'>): string {
  if (f.onlyCreator) return 'Only Me';
  return f.usersList.includes(f.creator._id) ? 'Team and Me' : 'Team without Me';
}

/** The Status column: Unverified, Active or Disabled. */
export function statusLabel(f: Pick<FilterDto, 'isVerified' | 'isVisible'>): 'Unverified' | 'Active' | 'Disabled' {
  if (!f.isVerified) return 'Unverified';
  return f.isVisible ? 'Active' : 'Disabled';
}
