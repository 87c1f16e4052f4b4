/**
 * The one date and time format per locale (docs/decisions/0158-one-format.md),
 * without the phone formatter's metadata, so the extension's popup can use it: screens import
 * web/lib/format.ts, which re-exports this.
 */
export function makeFormat(locale?: string, timeZone?: string) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone });
  const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone });
  const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  return {
    /** A date: "Nov 25, 2026". */
    date: (value: string | number | Date) => date.format(new Date(value)),
    /** A date and time: "Nov 25, 2026, 7:39 PM". */
    dateTime: (value: string | number | Date) => dateTime.format(new Date(value)),
    /** A time of day: "7:39 PM". */
    time: (value: string | number | Date) => time.format(new Date(value)),
    /** A day without its year, for chart axes: "Nov 25". */
    day: (value: string | number | Date) => day.format(new Date(value)),
    /** A UTC month key ("2026-11"), for chart axes: "Nov 2026". */
    month: (key: string) => month.format(new Date(`${key}-01T00:00:00Z`)),
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
