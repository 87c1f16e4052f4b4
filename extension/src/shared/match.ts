/**
 * Which of the team's filters flag a load-board row (docs/decisions/0124-row-matching.md).
 * Pure functions, shared by the board and the tests.
 */
import { normalizeBrokerName } from '../../../worker/filters/broker-name';
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import type { McChoice } from './protocol';

/**
 * A company name reduced to what identifies it: the server's one normal form of broker names
 * (`normalizeBrokerName`, docs/api/filters.md "Broker names"), so the board matches exactly the
 * names the team's duplicate rule treats as one broker. "Total Quality Logistics, LLC" and
 * "TOTAL QUALITY LOGISTICS" are the same; "C.H. Robinson" and "CH Robinson" too. Answers '' for an
 * empty name.
 */
export const companyKey = normalizeBrokerName;

/**
 * A phone number's digits for comparing: the extension ("ext 12", "x12", "#12") is dropped, and a
 * North American number's leading 1 too, so "+1 (312) 555-0142", "312.555.0142" and
 * "(312) 555-0142 x 7" are the same number. Answers '' when there is no number.
 */
export function phoneKey(phone: string): string {
  const withoutExt = phone.split(/\s*(?:;ext=|ext\.?|extension|x|#)\s*\d+\s*$/i)[0] ?? '';
  const digits = withoutExt.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

export const emailKey = (email: string) => email.trim().toLowerCase();

const looksLikeEmail = (contact: string) => contact.includes('@');

/** What the board shows of a row that matching needs. */
export interface RowContacts {
  company: string;
  phone: string;
  email: string;
  /** The broker's MC number, digits only, once the load's details show it ('' before). */
  mcNumber?: string;
}

/** Whether a contacts-only filter's contacts hold the row's phone (digits only) or e-mail. */
export function contactMatches(filter: Pick<MinifiedFilterDto, 'contacts'>, row: Pick<RowContacts, 'phone' | 'email'>): boolean {
  const phone = phoneKey(row.phone);
  const email = emailKey(row.email);
  return filter.contacts.some((contact) =>
    looksLikeEmail(contact) ? !!email && emailKey(contact) === email : !!phone && phoneKey(contact) === phone && phone.length >= 7,
  );
}

/** Whether the filter is in force for the MC the user works for: all MCs, or this MC's team MC among its list. */
export const appliesToMc = (filter: Pick<MinifiedFilterDto, 'allMC' | 'mcList'>, mc: Pick<McChoice, 'teamMcId'>) =>
  filter.allMC || filter.mcList.includes(mc.teamMcId);

/** The filters in force on any of the MCs the user may work for (the count the popup and the bar show). */
export const filtersInForce = (filters: readonly MinifiedFilterDto[], mcs: readonly Pick<McChoice, 'teamMcId'>[]) =>
  filters.filter((f) => mcs.some((mc) => appliesToMc(f, mc)));

/**
 * The filters that flag a row for the picked MC: the company name matches the filter's name or one
 * of its other names (aliases) in the normal form (`companyKey`), or the broker's MC number (shown
 * in the load's details) is the filter's, exactly; a contacts-only filter also needs the row's
 * phone or e-mail among its contacts. In the filters' order (their index).
 */
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

/** Whether a filter type's name says "do not work with this broker". */
export const isBlockedLike = (typeName: string) => BLOCKED_LIKE.test(typeName);
