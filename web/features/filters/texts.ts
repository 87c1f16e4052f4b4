import i18next from 'i18next';
import { FILTER_MESSAGES } from '../../../worker/filters/filters.messages';
import { keyOfCode } from '../../../worker/lib/messages';
import type { VettingState } from '../../../worker/vetting/vetting.states';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-filters.json';

// the filters screens' English texts (each lazy screen of the feature imports this module)
addEnglish(english);

/** A filters message in the user's language, by its entry (a success the screen knows without reading the answer's words). */
export const filterMessage = (key: keyof typeof FILTER_MESSAGES) => i18next.t(keyOfCode(FILTER_MESSAGES[key].code));

/** The FMCSA chip's words by the record's state (the API's label is English). */
export const VETTING_LABEL_KEYS: Record<VettingState | 'unchecked', string> = {
  active: 'filterVetting.stateActive',
  inactive: 'filterVetting.stateInactive',
  no_bond: 'filterVetting.stateNoBond',
  not_found: 'filterVetting.stateNotFound',
  unchecked: 'filterVetting.stateUnchecked',
};
