import * as z from 'zod';

/** The one date parser of the API's inputs; null when it is none. No server imports. */
export function parseDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : value;
  if (text === '') return null;
  const ms = typeof text === 'number' ? text : /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date field as the API takes it (an ISO string or a ms timestamp); `message` for any other type. */
export const dateInput = (message: string) => z.union([z.string().max(64), z.number()], { error: message });

/** A date field parsed to a Date: `message` for anything that is not a date, or one `within` refuses. */
export const dateField = (message: string, within: (date: Date) => boolean = () => true) =>
  dateInput(message).transform((value, ctx) => {
    const date = parseDate(value);
    if (!date || !within(date)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return date;
  });
