import useSWR from 'swr';
import type { HistoryRowDto } from '../../../worker/history/history.schema';
import type { McSettingDto } from '../../../worker/mc-settings/mc-settings.schema';
import type { UserDto } from '../../../worker/users/users.schema';
import { fetcher, post } from '../../lib/api-client';
import type { Role } from '../../../worker/lib/permissions';

export type { HistoryRowDto };

export interface HistoryQueryBody {
  usersList: string[];
  mcList: string[];
  phoneLogs: boolean;
  emailLogs: boolean;
  managerId: string | null;
  dateFrom: string;
  dateTo: string;
}

/** Who picks a manager first: a director its managers; the admin any manager. */
export const picksManager = (role: Role | undefined) => role === 'director' || role === 'admin';

const quiet = { onError: () => undefined, revalidateOnFocus: false };

/** The director's managers (the admin: every manager). */
export const useManagers = (enabled: boolean) => useSWR<UserDto[]>(enabled ? '/api/user/directorChildManagers' : null, fetcher, quiet);

/** The user checklist: a manager's own team; a director's (or the admin's) picked manager's team. */
export function useTeamUsers(role: Role | undefined, managerId: string | null) {
  const key = role === 'manager' ? '/api/user/allTeam' : picksManager(role) && managerId ? ['managerChildUsers', managerId] : null;
  return useSWR<UserDto[]>(
    key,
    (k: string | string[]) =>
      typeof k === 'string' ? fetcher<UserDto[]>(k) : post<UserDto[]>('/api/user/managerChildUsers', { parentId: k[1], includeParent: true }),
    quiet,
  );
}

/**
 * The MC checklist: an agent's own settings; a manager's own MCs (the team's; the agents'
 * settings point at them); a director's picked manager's MCs.
 */
export function useHistoryMcs(role: Role | undefined, userId: string | undefined, managerId: string | null) {
  const key =
    role === 'agent'
      ? '/api/mcSettings'
      : role === 'manager'
        ? '/api/mcSettings/allMcSettings'
        : picksManager(role) && managerId
          ? ['byParentId', managerId]
          : null;
  return useSWR<McSettingDto[]>(
    key,
    async (k: string | string[]) => {
      if (typeof k !== 'string') return post<McSettingDto[]>('/api/mcSettings/byParentId/', { parentId: k[1] });
      const list = await fetcher<McSettingDto[]>(k);
      return role === 'manager' ? list.filter((mc) => mc.parentMc === null && mc.userId === userId) : list;
    },
    quiet,
  );
}

export const loadHistory = (body: HistoryQueryBody) => post<HistoryRowDto[]>('/api/callHistory/getHistory', body);

/** A contact's local date and time, for the two lines of its table cell. */
export const dayText = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
export const timeText = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
export const shortDay = (d: Date) => d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** A 'YYYY-MM-DD' load date as a short local date; any other text as it came. */
export function loadDateText(value: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
}

// ---------- CSV export ----------
const CSV_COLUMNS: [string, (r: HistoryRowDto) => string][] = [
  ['Agent', (r) => r.parent.name],
  ['MC', (r) => r.mcName],
  ['Company', (r) => r.brokerName],
  ['Address', (r) => r.address],
  ['Origin', (r) => r.origin],
  ['Destination', (r) => r.dest],
  ['Load Date', (r) => r.loadDate],
  ['Contact Date', (r) => r.callDate],
  ['Type', (r) => (r.kind === 'call' ? 'Phone call' : 'Email')],
  ['Contact', (r) => r.contact],
];

/**
 * One CSV cell: quoted when needed; a cell a spreadsheet would run as a formula gets a leading
 * apostrophe (a phone number such as +1 (312) 555-0142 is left alone).
 */
export function csvCell(value: string): string {
  let v = value;
  if (/^[=@\t\r]/.test(v) || (/^[+-]/.test(v) && !/^[+-][\d\s().-]*$/.test(v))) v = `'${v}`;
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function historyCsv(rows: HistoryRowDto[]): string {
  const lines = [CSV_COLUMNS.map(([h]) => h).join(',')];
  for (const r of rows) lines.push(CSV_COLUMNS.map(([, get]) => csvCell(get(r))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Saves text as a file through a temporary link (no server round trip). */
export function download(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
