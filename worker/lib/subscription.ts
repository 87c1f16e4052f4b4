import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { subscriptionDaysLeft as daysLeft } from './days-left';
import { isStaff, type Role } from './permissions';

const DAY = 86_400_000;

/** Staff are always active. The shape is GET /api/subscription/status's. */
export function subscriptionOf(user: { userType: Role; subscriptionEndDate: Date | null }, now = Date.now()) {
  const end = user.subscriptionEndDate?.getTime() ?? null;
  const isSubscriptionActive = isStaff(user.userType) || (end !== null && end > now);
  const subscriptionDaysLeft = daysLeft(end === null ? null : new Date(end), now);
  return {
    isSubscriptionActive,
    subscriptionDaysLeft,
    subscriptionEndDate: end !== null ? new Date(end).toISOString() : null,
  };
}

/** A paid month is a calendar month added to the later of now and the current end date. */
export function extendByMonths(current: Date | null, months: number, now = new Date()): Date {
  const base = current && current.getTime() > now.getTime() ? new Date(current) : new Date(now);
  const day = base.getUTCDate();
  base.setUTCDate(1);
  base.setUTCMonth(base.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0)).getUTCDate();
  base.setUTCDate(Math.min(day, lastDay));
  return base;
}

/** One SQL expression over the stored end date: two extensions landing at once both count. A test checks it against `extendByMonths`. */
export function extendByMonthsSql(endColumn: SQLWrapper, months: number, now = new Date()): SQL {
  if (!Number.isInteger(months) || months < 0 || months > 1200) throw new RangeError(`months out of range: ${months}`);
  // integers only: inlined, so the expression binds no parameters (D1 allows 100 per statement)
  return extendSql(endColumn, sql.raw(String(months)), sql.raw('0'), now);
}

/** Both counts as SQL (a team order's items give each payee its own, read inside the UPDATE); a day is 24 hours. */
export function extendSql(endColumn: SQLWrapper, months: SQL, days: SQL, now = new Date()): SQL {
  const base = sql`max(coalesce(${endColumn}, 0), ${sql.raw(String(Math.trunc(now.getTime())))})`;
  const seconds = sql`(${base} / 1000)`;
  const plus = sql`('+' || (${months}) || ' months')`;
  const day = sql`cast(strftime('%d', ${seconds}, 'unixepoch') as integer)`;
  const lastDay = sql`cast(strftime('%d', ${seconds}, 'unixepoch', 'start of month', ${plus}, '+1 month', '-1 day') as integer)`;
  const date = sql`strftime('%s', ${seconds}, 'unixepoch', 'start of month', ${plus}, '+' || (min(${day}, ${lastDay}) - 1) || ' days')`;
  return sql`(cast(${date} as integer) * 1000 + ${base} % ${sql.raw(String(DAY))} + (${days}) * ${sql.raw(String(DAY))})`;
}

/** `months` calendar months before `end` (a refund taking months back): the day clamped to the target month's last day, the time of day kept. */
export function removeMonths(end: Date, months: number): Date {
  const base = new Date(end);
  const day = base.getUTCDate();
  base.setUTCDate(1);
  base.setUTCMonth(base.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0)).getUTCDate();
  base.setUTCDate(Math.min(day, lastDay));
  return base;
}

/** No end date stays none. */
export function removeMonthsSql(endColumn: SQLWrapper, months: number): SQL {
  if (!Number.isInteger(months) || months < 0 || months > 1200) throw new RangeError(`months out of range: ${months}`);
  const seconds = sql`(${endColumn} / 1000)`;
  const minus = sql.raw(`'-${months} months'`);
  const day = sql`cast(strftime('%d', ${seconds}, 'unixepoch') as integer)`;
  const lastDay = sql`cast(strftime('%d', ${seconds}, 'unixepoch', 'start of month', ${minus}, '+1 month', '-1 day') as integer)`;
  const date = sql`strftime('%s', ${seconds}, 'unixepoch', 'start of month', ${minus}, '+' || (min(${day}, ${lastDay}) - 1) || ' days')`;
  return sql`(cast(${date} as integer) * 1000 + ${endColumn} % ${sql.raw(String(DAY))})`;
}
