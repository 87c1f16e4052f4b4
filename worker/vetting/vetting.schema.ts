import * as z from 'zod';

export { isWarning, VETTING_LABELS, VETTING_STATES, type VettingState } from './vetting.states';

import { VETTING_STATES } from './vetting.states';

/** A broker's record as the screens and the extension read it. */
export const vettingSchema = z.strictObject({
  state: z.enum(VETTING_STATES).nullable(),
  label: z.string(),
  legalName: z.string().nullable(),
  dotNumber: z.string().nullable(),
  mcNumber: z.string().nullable(),
  brokerAuthority: z.string().nullable(),
  commonAuthority: z.string().nullable(),
  contractAuthority: z.string().nullable(),
  bondOnFile: z.string().nullable(),
  bondRequired: z.string().nullable(),
  bipdOnFile: z.string().nullable(),
  bipdRequired: z.string().nullable(),
  allowedToOperate: z.string().nullable(),
  outOfService: z.boolean(),
  oosDate: z.string().nullable(),
  checkedAt: z.string().nullable(),
  /** Set when the last attempt failed (the answer shown is older). */
  lastError: z.string().nullable(),
});
export type VettingDto = z.infer<typeof vettingSchema>;

/** POST /api/vetting/filters: whether FMCSA checks are set up, and each filter's broker record. */
export const filterVettingAnswerSchema = z.strictObject({
  configured: z.boolean(),
  /** By filter id: its broker's record, or null when the filter has no MC or DOT number. */
  records: z.record(z.string(), vettingSchema.nullable()),
});

/** POST /api/vetting/filters: the records of these filters of the caller's team. */
export const vettingFiltersSchema = z.object({
  filterIds: z.array(z.string().min(1).max(64)).max(500),
});
export type VettingFiltersInput = z.infer<typeof vettingFiltersSchema>;

export const vettingCheckSchema = z.object({
  filterId: z.string().min(1).max(64),
});
export type VettingCheckInput = z.infer<typeof vettingCheckSchema>;
