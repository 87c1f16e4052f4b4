import { isStaff, type Role } from './permissions';

const DAY = 86_400_000;

/** Active means the end date is in the future; staff are always active. */
export function subscriptionOf(user: { userType: Role; subscriptionEndDate: Date | null }, now = Date.now()) {
  const end = user.subscriptionEndDate?.getTime() ?? null;
  const isSubscriptionActive = isStaff(user.userType) || (end !== null && end > now);
  const subscriptionDaysLeft = end !== null && end > now ? Math.floor((end - now) / DAY) : 0;
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
