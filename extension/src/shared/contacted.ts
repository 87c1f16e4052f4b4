/**
 * "Called by Anna · 14:02 · L2": which of the team's recent contacts (GET /api/team/contacts) are
 * about a board row's broker — by the normal name, a filter's alias of it, the row's phone or its
 * e-mail — and which of them were about this very load (broker, origin, destination, pick-up).
 * Pure functions, shared by the board and the tests.
 */
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import { BOARD_NAMES, type LoadBoard } from '../../../worker/history/boards';
import type { TeamContactDto, TeamContactsDto } from '../../../worker/team/team.schema';
import { formatLocale, t } from '../i18n';
import { fullDate } from './load';
import { companyKey, emailKey, phoneKey } from './match';

export interface RowForContacts {
  company: string;
  phone: string;
  email: string;
  origin: string;
  dest: string;
  pickup: string;
}

export interface Contacted extends TeamContactDto {
  thisLoad: boolean;
  mine: boolean;
}

/** Every name and alias of the team's filters to one key per broker: the filter's own name. */
export function brokerKeys(filters: readonly Pick<MinifiedFilterDto, 'name' | 'aliases'>[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const f of filters) {
    const own = companyKey(f.name);
    if (!own) continue;
    for (const name of [f.name, ...(f.aliases ?? [])]) {
      const key = companyKey(name);
      if (key && !keys.has(key)) keys.set(key, own);
    }
  }
  return keys;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The contacts of the window about the row's broker, this load's first, then newest first; one
 * per person and channel (the newest, or this load's).
 */
export function contactsForRow(
  answer: TeamContactsDto | null,
  keys: Map<string, string>,
  row: RowForContacts,
  me: string | null,
  now = Date.now(),
): Contacted[] {
  if (!answer?.contactMarkers || !answer.contacts.length) return [];
  const canon = (name: string) => {
    const key = companyKey(name);
    return keys.get(key) ?? key;
  };
  const company = canon(row.company);
  const phone = phoneKey(row.phone);
  const email = emailKey(row.email);
  const pickup = fullDate(row.pickup) ?? row.pickup;
  const since = now - answer.contactWindowHours * 3_600_000;
  const found: Contacted[] = [];
  for (const c of answer.contacts) {
    if (c.at < since) continue;
    const byName = !!company && canon(c.brokerName) === company;
    const byPhone = c.kind === 'call' && phone.length >= 7 && phoneKey(c.contact) === phone;
    const byEmail = c.kind === 'email' && !!email && emailKey(c.contact) === email;
    if (!byName && !byPhone && !byEmail) continue;
    const thisLoad = !!row.origin && same(c.origin, row.origin) && same(c.dest, row.dest) && !!pickup && c.loadDate === pickup;
    found.push({ ...c, thisLoad, mine: c.userId === me });
  }
  found.sort((a, b) => Number(b.thisLoad) - Number(a.thisLoad) || b.at - a.at);
  const seen = new Set<string>();
  return found.filter((c) => {
    const key = `${c.userId}|${c.kind}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const hhmm = (ms: number) => new Date(ms).toLocaleTimeString(formatLocale() ?? [], { hour: '2-digit', minute: '2-digit', hour12: false });

/**
 * "Called by Anna · 14:02 · L2 · this load" (the first name; "you" for the user's own); the full
 * text (the hover) names the board when the contact was made on another board than `here`.
 */
export function contactedText(c: Contacted, full = false, here?: LoadBoard): string {
  const who = full ? c.by : (c.by.split(/\s+/)[0] ?? c.by);
  const by = c.kind === 'call' ? (c.mine ? t('row.calledByYou') : t('row.calledBy', { who })) : c.mine ? t('row.emailedByYou') : t('row.emailedBy', { who });
  const parts = [by, hhmm(c.at)];
  if (c.line) parts.push(`L${c.line}`);
  if (full && c.mcName) parts.push(c.mcName);
  if (c.thisLoad) parts.push(t('row.thisLoad'));
  if (full && here && c.board && c.board !== here) parts.push(t('row.onBoard', { board: BOARD_NAMES[c.board] }));
  return parts.join(' · ');
}
