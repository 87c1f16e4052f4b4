/** The states of a broker's FMCSA record and their words, without zod (the extension's board imports them). */

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
