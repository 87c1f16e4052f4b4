import * as z from 'zod';

export { isWarning, VETTING_LABELS, VETTING_STATES, type VettingState } from './vetting.states';
import type { VettingState } from './vetting.states';

export const VETTING_MESSAGES = {
  notConfigured: 'FMCSA checks are not configured',
  noNumber: 'The filter has no MC or DOT number',
  checked: 'Checked at FMCSA',
  unavailable: 'FMCSA did not answer; the last answer is kept',
  notFound: 'Filter not found',
} as const;

/** A broker's record as the screens and the extension read it. */
export interface VettingDto {
  state: VettingState | null;
  label: string;
  legalName: string | null;
  dotNumber: string | null;
  mcNumber: string | null;
  brokerAuthority: string | null;
  commonAuthority: string | null;
  contractAuthority: string | null;
  bondOnFile: string | null;
  bondRequired: string | null;
  bipdOnFile: string | null;
  bipdRequired: string | null;
  allowedToOperate: string | null;
  outOfService: boolean;
  oosDate: string | null;
  checkedAt: string | null;
  /** Set when the last attempt failed (the answer shown is older). */
  lastError: string | null;
}

/** POST /api/vetting/filters: the records of these filters of the caller's team. */
export const vettingFiltersSchema = z.object({
  filterIds: z.array(z.string().min(1).max(64)).max(500),
});
export type VettingFiltersInput = z.infer<typeof vettingFiltersSchema>;

export const vettingCheckSchema = z.object({
  filterId: z.string().min(1).max(64),
});
export type VettingCheckInput = z.infer<typeof vettingCheckSchema>;
