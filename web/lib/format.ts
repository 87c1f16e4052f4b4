/**
 * Dates and money as the screens write them, in the browser's locale: one place, so every
 * screen writes a date the same way.
 */

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

/** A date: "Jan 5, 2026". */
export const shortDate = (date: string | Date) => new Date(date).toLocaleDateString(undefined, DATE);

/** A date and time: "Jan 5, 2026, 3:04 PM". */
export const shortDateTime = (date: string | Date) => new Date(date).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A date and a two-digit time, for lists of recent events: "Jan 5, 2026, 03:04 PM". */
export const dateAndTime = (date: string | Date) => new Date(date).toLocaleString(undefined, { ...DATE, ...TIME });

/** A time of day: "03:04 PM". */
export const timeOfDay = (date: string | Date) => new Date(date).toLocaleTimeString(undefined, TIME);

/** A day without its year, for chart axes: "Jan 5". */
export const monthDay = (date: Date) => date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

/** A month, for chart axes: "Jan 2026" (`key` is "2026-01", a UTC month). */
export const monthOf = (key: string) => new Date(`${key}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A local day as "2026-01-05": the value of an `<input type="date">`, and a day's key. */
export const dayValue = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** Local midnight of a "2026-01-05" day; undefined for anything else. */
export function parseDay(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}

/** A load's date: a "2026-07-14" day as a short local date; any other text as it came. */
export function loadDateText(value: string) {
  const day = parseDay(value);
  return day ? shortDate(day) : value;
}

/** Money in whole drams: "5,000 AMD". */
export const amd = (n: number) => `${n.toLocaleString('en-US')} AMD`;

/** A moment in full, in the locale's own short form: "1/5/2026, 3:04:05 PM". */
export const fullDateTime = (date: string | Date) => new Date(date).toLocaleString();
