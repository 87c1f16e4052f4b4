import type { HistoryRowDto } from './api';

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

/** The loaded contacts as CSV, one row each, with the table's columns and the contact's type. */
export function historyCsv(rows: HistoryRowDto[]): string {
  const lines = [CSV_COLUMNS.map(([h]) => h).join(',')];
  for (const r of rows) lines.push(CSV_COLUMNS.map(([, get]) => csvCell(get(r))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
