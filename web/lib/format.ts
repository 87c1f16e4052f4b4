import { formatBoardPhone } from '../../worker/lib/phone';
import { formatLocale, makeFormat, makeTyping, onFormatLocale } from './format-dates';

/**
 * Dates, times, phones and money as every screen (and the extension's popup) writes them: one
 * format per locale, from the browser's locale and time zone (docs/rules/screens.md#0158-one-format).
 * In en-US: "Nov 25, 2026", "Nov 25, 2026, 7:39 PM", "7:39 PM", "Nov 25",
 * "Nov 2026"; a phone "+1 312 555 0142".
 */
export { makeFormat };

/** Whether this browser's Intl has data for `locale` (Chromium's own builds carry no Armenian). */
const hasData = (locale: string) => Intl.NumberFormat.supportedLocalesOf(locale).length > 0;

// the user's language's locale (web/i18n), made again when the language changes
let local = makeFormat(formatLocale());
let typed = makeTyping(formatLocale());
onFormatLocale(() => {
  local = makeFormat(formatLocale());
  typed = makeTyping(formatLocale());
});

/** How days and times are typed in the user's language (the date fields, components/ui/date-input.tsx). */
export const typing = () => typed;

/** A date: "Jan 5, 2026". */
export const shortDate = (date: string | Date) => local.date(date);

/** A date and time: "Jan 5, 2026, 3:04 PM". */
export const shortDateTime = (date: string | Date) => local.dateTime(date);

/** The same as shortDateTime (recent events, sessions, loads): one date-and-time format. */
export const dateAndTime = shortDateTime;

/** A time of day: "3:04 PM". */
export const timeOfDay = (date: string | Date) => local.time(date);

/** A day without its year, for chart axes: "Jan 5". */
export const monthDay = (date: Date) => local.day(date);

/** A month, for chart axes: "Jan 2026" (`key` is "2026-01", a UTC month). */
export const monthOf = (key: string) => local.month(key);

/** A "2026-01-05" day key as a chart axis label, "Jan 5" (the day itself, whatever the time zone). */
export const dayKeyLabel = (key: string) => {
  const day = parseDay(key);
  return day ? monthDay(day) : key;
};

/** A phone in the one international form, "+1 312 555 0142" (an extension: "… ext. 12"); anything else as it came. */
export const phoneText = (stored: string) => (/^\+?[\d\s().\-/]+(;ext=\d+)?$/.test(stored.trim()) ? formatBoardPhone(stored.trim()) : stored);

/** A filter's contact as people read it: a phone in the international form, an e-mail as it is. */
export const contactText = (contact: string) => (contact.includes('@') ? contact : phoneText(contact));

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

/**
 * Money in whole drams, in the user's language: "5,000 AMD" in English (as the spec writes it);
 * in Russian and Armenian the digits grouped by Intl for the locale and the dram as people there
 * write it on a price ("5 000 драм", "5 000 դր."), not the ֏ sign, which many fonts lack.
 */
export const amd = (n: number) => {
  const locale = formatLocale();
  if (!locale || locale.startsWith('en')) return `${n.toLocaleString('en-US')} AMD`;
  const digits = new Intl.NumberFormat(hasData(locale) ? locale : 'ru-RU', { maximumFractionDigits: 0 }).format(n);
  return `${digits} ${locale.startsWith('hy') ? 'դր.' : 'драм'}`;
};

/** A moment in full (a link's creation and expiry): the one date-and-time format. */
export const fullDateTime = shortDateTime;
