/** Which of the team's filters flag a board row (docs/decisions/0124-row-matching.md). */
import { normalizeBrokerName } from '../../../worker/filters/broker-name';
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import type { McChoice } from './protocol';

/**
 * The server's normal form of broker names (docs/api/filters.md "Broker names"), so the board
 * matches exactly what the team's duplicate rule treats as one broker.
 */
export const companyKey = normalizeBrokerName;

/** Drops the extension and a North American leading 1: "+1 (312) 555-0142" is "312.555.0142 x 7". */
export function phoneKey(phone: string): string {
  const withoutExt = phone.split(/\s*(?:;ext=|ext\.?|extension|x|#)\s*\d+\s*$/i)[0] ?? '';
  const digits = withoutExt.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

export const emailKey = (email: string) => email.trim().toLowerCase();

const looksLikeEmail = (contact: string) => contact.includes('@');

export interface RowContacts {
  company: string;
  phone: string;
  email: string;
  /** The broker's MC number, digits only, once the load's details show it ('' before). */
  mcNumber?: string;
}

export function contactMatches(filter: Pick<MinifiedFilterDto, 'contacts'>, row: Pick<RowContacts, 'phone' | 'email'>): boolean {
  const phone = phoneKey(row.phone);
  const email = emailKey(row.email);
  return filter.contacts.some((contact) =>
    looksLikeEmail(contact) ? !!email && emailKey(contact) === email : !!phone && phoneKey(contact) === phone && phone.length >= 7,
  );
}

export const appliesToMc = (filter: Pick<MinifiedFilterDto, 'allMC' | 'mcList'>, mc: Pick<McChoice, 'teamMcId'>) =>
  filter.allMC || filter.mcList.includes(mc.teamMcId);

/** The filters in force on any of the MCs the user may work for (the count the popup and the bar show). */
export const filtersInForce = (filters: readonly MinifiedFilterDto[], mcs: readonly Pick<McChoice, 'teamMcId'>[]) =>
  filters.filter((f) => mcs.some((mc) => appliesToMc(f, mc)));

/** By name or alias in normal form, or by the MC number the details show; a contacts-only filter also needs the row's phone or e-mail. */
export function filtersForRow(filters: readonly MinifiedFilterDto[], mc: Pick<McChoice, 'teamMcId'> | null, row: RowContacts): MinifiedFilterDto[] {
  if (!mc) return [];
  const key = companyKey(row.company);
  const mcNumber = (row.mcNumber ?? '').replace(/\D/g, '').replace(/^0+/, '');
  if (!key && !mcNumber) return [];
  const named = (f: MinifiedFilterDto) => !!key && (companyKey(f.name) === key || (f.aliases ?? []).some((alias) => companyKey(alias) === key));
  const sameMc = (f: MinifiedFilterDto) => !!mcNumber && !!f.mcNumber && f.mcNumber.replace(/^0+/, '') === mcNumber;
  return filters.filter((f) => appliesToMc(f, mc) && (named(f) || sameMc(f)) && (!f.onlyOnContacts || contactMatches(f, row)));
}

/** Types whose rows are tinted: the default "Blocked" and what teams call the same thing. */
const BLOCKED_LIKE = /\b(block(ed)?|black\s*list(ed)?|banned|do\s*not\s*(use|work|book|call)|dnu|avoid)\b/i;

export const isBlockedLike = (typeName: string) => BLOCKED_LIKE.test(typeName);
