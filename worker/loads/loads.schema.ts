import * as z from 'zod';
import { LOAD_BOARDS } from '../history/boards';
import { boardField, clientIdField, contactDateOf } from '../history/history.schema';
import { dateInput } from '../lib/dates';
import { problem } from '../lib/messages';
import { LOAD_MESSAGES } from './loads.messages';

export { LOAD_MESSAGES };

/** A list answers at most this many loads, newest first (docs/decisions/0008-history.md). */
export const MAX_ACTIVE_LOADS = 5000;

export const deleteLoadSchema = z.object({
  id: z
    .string({ error: problem(LOAD_MESSAGES.notFound) })
    .min(1, problem(LOAD_MESSAGES.notFound))
    .max(64, problem(LOAD_MESSAGES.notFound)),
});

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max);

export const addLoadSchema = z.object({
  clientId: clientIdField,
  mcSettingId: z.string().trim().max(64, problem(LOAD_MESSAGES.mcNotFound)).nullable().optional(),
  brokerName: required(problem(LOAD_MESSAGES.brokerEmpty), 200),
  origin: required(problem(LOAD_MESSAGES.originEmpty), 200),
  dest: required(problem(LOAD_MESSAGES.destEmpty), 200),
  loadDate: z
    .string()
    .trim()
    .max(40)
    .nullable()
    .optional()
    .transform((v) => v ?? ''),
  /** When the load became active: now when the client sent nothing; within the contact window. */
  date: dateInput(problem(LOAD_MESSAGES.date))
    .nullable()
    .optional()
    .transform((value, ctx) => {
      const date = contactDateOf(value);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: problem(LOAD_MESSAGES.date) });
        return z.NEVER;
      }
      return date;
    }),
  /** The board's reference ID of the load (DAT shows it in the load's details); '' when none. */
  reference: z
    .string()
    .trim()
    .max(100, problem(LOAD_MESSAGES.reference))
    .nullable()
    .optional()
    .transform((v) => v ?? ''),
  board: boardField,
});
export type AddLoadInput = z.output<typeof addLoadSchema>;

export const activeLoadSchema = z.strictObject({
  _id: z.string(),
  parent: z.strictObject({ name: z.string() }),
  brokerName: z.string(),
  origin: z.string(),
  dest: z.string(),
  loadDate: z.string(),
  /** The board's reference ID, '' when the board showed none. */
  reference: z.string(),
  board: z.enum(LOAD_BOARDS),
  date: z.string(),
});
export type ActiveLoadDto = z.infer<typeof activeLoadSchema>;
