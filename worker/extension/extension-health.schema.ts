import * as z from 'zod';
import { LOAD_BOARDS } from '../history/boards';
import { problem } from '../lib/messages';
import { HEALTH_MESSAGES } from './extension-health.messages';

/** Only these names, only numbers: a report can carry nothing of a row's content. */
export const HEALTH_FIELDS = [
  'company',
  'origin',
  'destination',
  'pickup',
  'rate',
  'contact',
  'trip',
  'equipment',
  'detailsPickup',
  'detailsReference',
  'detailsContact',
  'detailsMc',
  // layout signals: read = the loads whose row showed it, missed = those whose row did not
  // (cells ending in -small, the wide layout's cells, a pick-up cell, a contact in the row)
  'signalSmallCells',
  'signalWideCells',
  'signalPickupCell',
  'signalContactCell',
] as const;
export type HealthField = (typeof HEALTH_FIELDS)[number];

/** The report's layout signals as fields (the actions go by what a row shows, not by a layout's name). */
export const SIGNAL_FIELDS = {
  smallCells: 'signalSmallCells',
  wideCells: 'signalWideCells',
  pickupCell: 'signalPickupCell',
  contactCell: 'signalContactCell',
} as const satisfies Record<string, HealthField>;
export const isSignalField = (field: HealthField) => field.startsWith('signal');

/** The board layouts the extension tells apart; 'unknown' when it found no row it could read. */
export const BOARD_LAYOUTS = ['wide', 'compact', 'unknown'] as const;
export type BoardLayout = (typeof BOARD_LAYOUTS)[number];

export const HEALTH_BOARDS = LOAD_BOARDS;

export { HEALTH_MESSAGES };

const count = z
  .number({ error: problem(HEALTH_MESSAGES.counts) })
  .int(problem(HEALTH_MESSAGES.counts))
  .min(0, problem(HEALTH_MESSAGES.counts))
  .max(100_000, problem(HEALTH_MESSAGES.counts));

/** POST /api/extension/health: one browser's report, at most once an hour. Unknown keys are refused. */
export const healthReportSchema = z.strictObject({
  version: z.string({ error: problem(HEALTH_MESSAGES.version) }).regex(/^\d{1,5}(\.\d{1,5}){0,3}$/, problem(HEALTH_MESSAGES.version)),
  /** The board the report is about; DAT when an extension from before Truckstop sends none. */
  board: z
    .enum(HEALTH_BOARDS, { error: problem(HEALTH_MESSAGES.board) })
    .optional()
    .default('dat'),
  layout: z.enum(BOARD_LAYOUTS, { error: problem(HEALTH_MESSAGES.layout) }),
  rowsSeen: count,
  unreadable: z.boolean(),
  fields: z.partialRecord(z.enum(HEALTH_FIELDS), z.strictObject({ read: count, missed: count })),
});
export type HealthReportInput = z.output<typeof healthReportSchema>;

export const healthQuerySchema = z.object({
  days: z.coerce.number().int().min(1, problem(HEALTH_MESSAGES.days)).max(30, problem(HEALTH_MESSAGES.days)).optional().default(7),
});

export const healthVersionSchema = z.strictObject({
  /** The board these reports are about: each board's fields are read and shown apart. */
  board: z.enum(HEALTH_BOARDS),
  version: z.string(),
  reports: z.number(),
  /** Distinct extension sessions (browsers) that reported. */
  browsers: z.number(),
  /** Reports sent while the board said it could not read the page. */
  unreadableReports: z.number(),
  rowsSeen: z.number(),
  lastAt: z.string(),
  layouts: z.partialRecord(z.enum(BOARD_LAYOUTS), z.number()),
  /** Per field: rows read and not read, and the share read (0 to 1; null when no row had the field to read). */
  fields: z.array(z.strictObject({ field: z.enum(HEALTH_FIELDS), read: z.number(), missed: z.number(), share: z.number().nullable() })),
});
export type HealthVersionDto = z.infer<typeof healthVersionSchema>;

export const healthSummarySchema = z.strictObject({
  since: z.string(),
  versions: z.array(healthVersionSchema),
});
export type HealthSummaryDto = z.infer<typeof healthSummarySchema>;
