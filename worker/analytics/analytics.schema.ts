import * as z from 'zod';
import { dateInput, parseDate } from '../lib/dates';
import { problem } from '../lib/messages';
import { MAX_PAGE_SIZE, pageQueryShape, pageShape } from '../lib/paging.schema';
import { ANALYTICS_MESSAGES } from './analytics.messages';

export { ANALYTICS_MESSAGES };

/** The earliest From date accepted (the product did not exist before). */
export const EARLIEST_DATE = Date.UTC(2000, 0, 1);
/** The daily chart covers at most this many days, ending today. */
export const MAX_CHART_DAYS = 366;

const loginHistoryFields = {
  dateFrom: dateInput(problem(ANALYTICS_MESSAGES.dateFrom)),
  // the admin's `Date#getTimezoneOffset()`, so the chart's days are the admin's days
  timezoneOffset: z
    .number({ message: problem(ANALYTICS_MESSAGES.timeZone) })
    .int(problem(ANALYTICS_MESSAGES.timeZone))
    .min(-840, problem(ANALYTICS_MESSAGES.timeZone))
    .max(840, problem(ANALYTICS_MESSAGES.timeZone))
    .optional()
    .default(0),
};

/** From a date the product may have logins of: a real date, not before 2000, not in the future. */
function checkedFrom<T extends { dateFrom: unknown }>(input: T, ctx: z.RefinementCtx): Omit<T, 'dateFrom'> & { dateFrom: Date } {
  const from = parseDate(input.dateFrom as string | number)?.getTime() ?? Number.NaN;
  if (!Number.isFinite(from) || from < EARLIEST_DATE) {
    ctx.addIssue({ code: 'custom', message: problem(ANALYTICS_MESSAGES.dateFrom) });
    return z.NEVER;
  }
  if (from > Date.now()) {
    ctx.addIssue({ code: 'custom', message: problem(ANALYTICS_MESSAGES.future) });
    return z.NEVER;
  }
  return { ...input, dateFrom: new Date(from) };
}

export const loginHistorySchema = z.object(loginHistoryFields).transform(checkedFrom);

/** POST /api/analytics/loginHistory/page: Login History a page of managers at a time (by e-mail), searched by e-mail or name. */
export const loginHistoryPageSchema = z
  .object({
    ...loginHistoryFields,
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(20),
    cursor: pageQueryShape.cursor,
    q: pageQueryShape.q,
    /** The column the page is in the order of (the screen's sortable columns), then the manager's id. */
    sort: z.enum(['email', 'totalUsers', 'loggedInUsers', 'managerLoggedIn']).optional().default('email'),
    dir: z.enum(['asc', 'desc']).optional().default('asc'),
  })
  .transform(checkedFrom);
export type LoginHistoryPageQuery = z.output<typeof loginHistoryPageSchema>;

export const loginHistoryItemSchema = z.strictObject({
  manager: z.strictObject({ _id: z.string(), email: z.string(), name: z.string() }),
  /** the manager's agents */
  totalUsers: z.number(),
  /** the manager's agents with at least one login since dateFrom */
  loggedInUsers: z.number(),
  managerLoggedIn: z.boolean(),
});
export type LoginHistoryItem = z.infer<typeof loginHistoryItemSchema>;

export const dailyLoginsSchema = z.strictObject({
  /** YYYY-MM-DD in the caller's time zone */
  day: z.string(),
  /** successful logins that day */
  logins: z.number(),
  /** distinct users who logged in that day */
  users: z.number(),
});
export type DailyLogins = z.infer<typeof dailyLoginsSchema>;

export const loginHistoryResultSchema = z.strictObject({
  items: z.array(loginHistoryItemSchema),
  /** distinct managers and agents of the table who logged in since dateFrom */
  totalOnlineAmount: z.number(),
  dateFrom: z.string(),
  daily: z.array(dailyLoginsSchema),
});
export type LoginHistory = z.infer<typeof loginHistoryResultSchema>;

export const loginHistoryPageResultSchema = z.strictObject({
  ...pageShape(loginHistoryItemSchema),
  /** Over every manager since dateFrom, whatever the search: as GET /api/analytics/loginHistory's. */
  totalOnlineAmount: z.number(),
  /** The headline's counts over every manager, whatever the search: managers, those who logged in since dateFrom, their agents, those who did. */
  managers: z.number(),
  managersIn: z.number(),
  agents: z.number(),
  agentsIn: z.number(),
  dateFrom: z.string(),
  /** The chart's days: on the first page only (null after), as they do not change by page. */
  daily: z.array(dailyLoginsSchema).nullable(),
});
export type LoginHistoryPage = z.infer<typeof loginHistoryPageResultSchema>;
