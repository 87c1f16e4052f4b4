import { BOARD_NAMES } from './boards';
import type { HistoryRowDto } from './history.schema';

/** Contact History's CSV columns: the table's, and the contact's type and number or address. */
export const HISTORY_CSV_COLUMNS: [string, (r: HistoryRowDto) => string][] = [
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
  ['Board', (r) => BOARD_NAMES[r.board] ?? r.board],
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
