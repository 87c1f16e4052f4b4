/**
 * The one date and time format per locale (docs/rules/screens.md#0158-one-format),
 * without the phone formatter's metadata, so the extension's popup can use it: screens import
 * web/lib/format.ts, which re-exports this.
 */
export function makeFormat(wanted?: string, timeZone?: string) {
  // a locale this browser has no data for (Chromium's own builds carry no Armenian): the numeric
  // day.month.year and 24-hour clock Armenia writes by hand, "29.11.2026, 19:39" (de-DE's
  // forms), never English or German month names on that screen
  const numeric = wanted !== undefined && Intl.DateTimeFormat.supportedLocalesOf(wanted).length === 0;
  const locale = numeric ? 'de-DE' : wanted;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone });
  const day = new Intl.DateTimeFormat(locale, numeric ? { month: '2-digit', day: '2-digit', timeZone } : { month: 'short', day: 'numeric', timeZone });
  const month = new Intl.DateTimeFormat(
    locale,
    numeric ? { month: '2-digit', year: 'numeric', timeZone: 'UTC' } : { month: 'short', year: 'numeric', timeZone: 'UTC' },
  );
  return {
    /** A date: "Nov 25, 2026". */
    date: (value: string | number | Date) => date.format(new Date(value)),
    /** A date and time: "Nov 25, 2026, 7:39 PM". */
    dateTime: (value: string | number | Date) => dateTime.format(new Date(value)),
    /** A time of day: "7:39 PM". */
    time: (value: string | number | Date) => time.format(new Date(value)),
    /** A day without its year, for chart axes: "Nov 25". */
    day: (value: string | number | Date) => day.format(new Date(value)).replace(/\.$/, ''),
    /** A UTC month key ("2026-11"), for chart axes: "Nov 2026". */
    month: (key: string) => {
      const at = new Date(`${key}-01T00:00:00Z`);
      if (!numeric) return month.format(at);
      const part = (type: string) => month.formatToParts(at).find((p) => p.type === type)?.value ?? '';
      return `${part('month')}.${part('year')}`;
    },
  };
}

/** The locale the screens format in: the user's language's (web/i18n sets it); undefined is the browser's. */
let screenLocale: string | undefined;
const localeListeners = new Set<() => void>();

/** Sets the screens' locale (web/i18n, when the language changes). */
export function setFormatLocale(locale: string | undefined) {
  screenLocale = locale;
  for (const listener of localeListeners) listener();
}

/** The screens' locale now. */
export const formatLocale = () => screenLocale;

/** Calls `listener` whenever the screens' locale changes. */
export function onFormatLocale(listener: () => void) {
  localeListeners.add(listener);
  return () => localeListeners.delete(listener);
}

type DayPart = 'day' | 'month' | 'year';

/**
 * How people type a day and a time of day in a locale, for the date fields the screens draw
 * themselves: the browser's own date inputs follow the browser's language, not the user's
 * (docs/decisions/0178-no-english-left.md). A locale without data types as Armenia writes by hand,
 * "22.01.2027" and "09:30" (de-DE's forms), as the dates above.
 */
export function makeTyping(wanted?: string) {
  const numeric = wanted !== undefined && Intl.DateTimeFormat.supportedLocalesOf(wanted).length === 0;
  const locale = numeric ? 'de-DE' : wanted;
  const sample = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(new Date(2027, 0, 22));
  const order = sample.filter((p) => p.type === 'day' || p.type === 'month' || p.type === 'year').map((p) => p.type as DayPart);
  const separator = sample.find((p) => p.type === 'literal')?.value ?? '.';
  const hour12 = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hour12 === true;
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    /** The parts of a typed day in order: ['month', 'day', 'year'] in en-US. */
    order,
    separator,
    /** Whether times are typed on a 12-hour clock ("9:30 PM"). */
    hour12,
    /** A "2027-01-22" day as typed here: "22.01.2027", "01/22/2027"; '' for none. */
    day: (value: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!m) return '';
      const parts = { year: m[1]!, month: m[2]!, day: m[3]! };
      return order.map((p) => parts[p]).join(separator);
    },
    /**
     * A typed day as "2027-01-22": the locale's order with any separators, or the ISO form;
     * '' for an empty text, null for one that is not a day.
     */
    parseDay: (text: string): string | null => {
      const groups = text.trim().split(/\D+/).filter(Boolean);
      if (groups.length === 0) return '';
      if (groups.length !== 3) return null;
      const byPart =
        groups[0]!.length === 4 ? { year: groups[0]!, month: groups[1]!, day: groups[2]! } : Object.fromEntries(order.map((p, i) => [p, groups[i]!]));
      const year = byPart.year!.length === 2 ? 2000 + Number(byPart.year) : Number(byPart.year);
      const [month, day] = [Number(byPart.month), Number(byPart.day)];
      if (byPart.year!.length !== 2 && byPart.year!.length !== 4) return null;
      const date = new Date(year, month - 1, day);
      if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
      return `${year}-${two(month)}-${two(day)}`;
    },
    /** A "21:30" time as typed here: "21:30", "9:30 PM"; '' for none. */
    time: (value: string) => {
      const m = /^(\d{2}):(\d{2})$/.exec(value);
      if (!m) return '';
      const hour = Number(m[1]);
      return hour12 ? `${hour % 12 || 12}:${m[2]} ${hour < 12 ? 'AM' : 'PM'}` : value;
    },
    /** A typed time as "21:30" ("9:30 pm" and "21:30" both, where the clock has 12 hours); '' for none, null for not a time. */
    parseTime: (text: string): string | null => {
      const t = text.trim().toLowerCase();
      if (!t) return '';
      const m = /^(\d{1,2})(?:[:.](\d{2}))?\s*([ap])?\.?\s*(?:m\.?)?$/.exec(t);
      if (!m) return null;
      let hour = Number(m[1]);
      const minute = m[2] === undefined ? 0 : Number(m[2]);
      if (m[3]) {
        if (!hour12 || hour < 1 || hour > 12) return null;
        hour = (hour % 12) + (m[3] === 'p' ? 12 : 0);
      }
      if (hour > 23 || minute > 59) return null;
      return `${two(hour)}:${two(minute)}`;
    },
  };
}
