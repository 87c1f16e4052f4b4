/**
 * The one subscription-days rule (docs/rules/payments.md#0134-subscription-days-left): whole calendar
 * days to the end DATE (Nov 23 to an end on Nov 26 is 3; later today is 0). No server imports.
 */

const DAY = 86_400_000;

/** The product's calendar when no other is given: it bills in AMD, on Yerevan's clock. */
export const PRODUCT_TIME_ZONE = 'Asia/Yerevan';

/** Making an Intl.DateTimeFormat costs 0.4 ms in the Worker, and every signed-in request counts days left. */
const calendars = new Map<string, Intl.DateTimeFormat>();
function calendarOf(timeZone: string): Intl.DateTimeFormat {
  let calendar = calendars.get(timeZone);
  if (!calendar) {
    calendar = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    calendars.set(timeZone, calendar);
  }
  return calendar;
}

function dayNumber(date: Date, timeZone: string): number {
  const parts = calendarOf(timeZone).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Math.round(Date.UTC(get('year'), get('month') - 1, get('day')) / DAY);
}

/** Whole calendar days from `now` to `end` on `timeZone`'s calendar; 0 once it has ended (or with no end). */
export function subscriptionDaysLeft(end: Date | string | null | undefined, now: Date | number = Date.now(), timeZone: string = PRODUCT_TIME_ZONE): number {
  if (end === null || end === undefined) return 0;
  const endDate = new Date(end);
  const nowDate = new Date(now);
  if (Number.isNaN(endDate.getTime()) || endDate.getTime() <= nowDate.getTime()) return 0;
  return Math.max(0, dayNumber(endDate, timeZone) - dayNumber(nowDate, timeZone));
}

/** How a screen says it: "Expires today", "1 day left", "3 days left". */
export const daysLeftText = (days: number) => (days <= 0 ? 'Expires today' : `${days} ${days === 1 ? 'day' : 'days'} left`);
