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
