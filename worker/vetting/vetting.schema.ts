import * as z from 'zod';

/** What a broker's FMCSA record says, in the order of how bad it is for a carrier. */
export const VETTING_STATES = ['active', 'no_bond', 'inactive', 'not_found'] as const;
export type VettingState = (typeof VETTING_STATES)[number];

/** The chip's words, one per state; `null` (never answered) is "Not checked yet". */
export const VETTING_LABELS: Record<VettingState | 'unchecked', string> = {
  active: 'Authority active · bond on file',
  inactive: 'Broker authority inactive',
  no_bond: 'No bond on file',
  not_found: 'Not found at FMCSA',
  unchecked: 'Not checked yet',
};

/** Whether a state earns the board's warning badge (authority not active, or no bond on file). */
export const isWarning = (state: VettingState | null | undefined) => state === 'inactive' || state === 'no_bond';

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
