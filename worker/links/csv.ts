/**
 * RFC 4180 CSV: fields with a comma, quote or line break are quoted (quotes doubled), lines end in
 * CRLF. A text field starting with =, +, -, @, tab or CR gets a leading ' so a spreadsheet shows
 * it as text instead of running it as a formula (OWASP "CSV injection"). A BOM lets Excel read UTF-8.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const field = (value: string | number) => {
    if (typeof value === 'number') return String(value);
    const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `\uFEFF${[header, ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}
