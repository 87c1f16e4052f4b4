import { FILTER_MESSAGES } from '../filters/filters.messages';
import { defineMessages } from '../lib/messages';

/** Check now's answers (docs/decisions/0166-fmcsa-gate-and-budget.md). Shared with the screens. */
export const VETTING_MESSAGES = defineMessages('vetting', {
  notConfigured: 'FMCSA checks are not configured',
  noNumber: 'The filter has no MC or DOT number',
  checked: 'Checked at FMCSA',
  unavailable: 'FMCSA did not answer; the last answer is kept',
  notFound: FILTER_MESSAGES.notFound,
});
