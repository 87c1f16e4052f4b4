/** docs/api/filters.md, "Broker names"; the extension compares board names in the same form. No server imports. */

/**
 * Legal-form words dropped from the END of a name, as words after punctuation became spaces
 * (so "L.L.C." arrives as "l l c"). Longest first so "l l c" is tried before "c" would be.
 */
export const LEGAL_SUFFIXES: readonly string[] = [
  'incorporated',
  'corporation',
  'limited',
  'company',
  'l l l p',
  'l l c',
  'l l p',
  'p l l c',
  'p c',
  'l p',
  'pllc',
  'lllp',
  'corp',
  'inc',
  'llc',
  'llp',
  'ltd',
  'co',
  'lp',
  'pc',
];

const suffixPattern = new RegExp(`(?:^|\\s)(?:${LEGAL_SUFFIXES.map((s) => s.replace(/ /g, '\\s')).join('|')})$`);

/**
 * Never drops the last word ("Co" alone stays "co"). "C.H. Robinson Worldwide, Inc." and "CH Robinson
 * Worldwide" -> "ch robinson worldwide"; "The Allen Lund Company" -> "allen lund".
 */
export function normalizeBrokerName(name: string): string {
  let s = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.'’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (s.startsWith('the ')) s = s.slice(4);
  for (;;) {
    const m = suffixPattern.exec(s);
    if (!m || m.index === 0) break;
    s = s.slice(0, m.index).trim();
  }
  return s;
}

/** A US MC or USDOT number as stored: digits only, without an "MC"/"DOT" prefix, spaces or leading zeros. */
export function normalizeCarrierNumber(value: string): string {
  return value
    .trim()
    .replace(/^(mc|dot|usdot|ff|mx)[\s#:-]*/i, '')
    .replace(/^0+(?=\d)/, '');
}
