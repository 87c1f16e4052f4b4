/** What the board shows of a load row (any cell may be missing: ''). */
export interface BoardLoad {
  company: string;
  phone: string;
  email: string;
  origin: string;
  dest: string;
  /** The pick-up date as the board shows it ("11/24", "11/24 - 11/26", "Nov 24"). */
  pickup: string;
  rate: string;
  reference: string;
  /** The broker's MC number from the load's details, digits only ('' when not shown). */
  mcNumber: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 86_400_000;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * yyyy-mm-dd of the first date in DAT's "11/24", "11/24/26" or "Nov 24"; without a year, the year
 * nearest to `today` ("1/2" seen on Dec 30 is next year's). Null when the text holds no date.
 */
export function fullDate(text: string, today = new Date()): string | null {
  const numeric = /(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?/.exec(text);
  const named =
    /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(\d{1,2})\b(?:,?\s+(\d{4}))?/i.exec(
      text,
    );
  const first = numeric && (!named || numeric.index <= named.index) ? numeric : named;
  if (!first) return null;
  const month = first === numeric ? Number(first[1]) : MONTHS.indexOf(first[1]!.slice(0, 3).toLowerCase()) + 1;
  const day = Number(first[2]);
  const yearText = first[3];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const valid = (year: number) => {
    const d = new Date(year, month - 1, day);
    return d.getMonth() === month - 1 ? d : null;
  };
  if (yearText) {
    const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
    const d = valid(year);
    return d ? `${year}-${pad(month)}-${pad(day)}` : null;
  }
  const base = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  let best: { year: number; distance: number } | null = null;
  for (const year of [today.getFullYear() - 1, today.getFullYear(), today.getFullYear() + 1]) {
    const d = valid(year);
    if (!d) continue;
    const distance = Math.abs(d.getTime() - base) / DAY_MS;
    if (!best || distance < best.distance) best = { year, distance };
  }
  return best ? `${best.year}-${pad(month)}-${pad(day)}` : null;
}

/** "Nov 24, 2026" for a yyyy-mm-dd date (the e-mail templates' {pickupDate}); other text as it is. */
export function readableDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  const d = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

export const localDay = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What identifies the load itself: broker, lane and pick-up date. Not the rate (it changes) and not
 * the reference, which DAT shows only once the load's details are open: the same call from the
 * row and from its details is one entry.
 */
const loadIdentity = (load: BoardLoad) => [load.company, load.origin, load.dest, fullDate(load.pickup) ?? load.pickup].map((s) => s.trim().toLowerCase());

/** One per load, MC, kind, contact and day: a double click or a retry is one entry, tomorrow's call a new one. */
export async function contactClientId(load: BoardLoad, mcId: string, kind: 'call' | 'email', contact: string, at: number): Promise<string> {
  const hash = await sha256Hex(JSON.stringify([...loadIdentity(load), mcId, kind, contact.trim().toLowerCase(), localDay(at)]));
  return `fd-${kind}-${hash.slice(0, 40)}`;
}

/** The client id of "+ Active load": one per load and MC, however often it is clicked. */
export async function loadClientId(load: BoardLoad, mcId: string): Promise<string> {
  const hash = await sha256Hex(JSON.stringify([...loadIdentity(load), mcId]));
  return `fd-load-${hash.slice(0, 40)}`;
}
