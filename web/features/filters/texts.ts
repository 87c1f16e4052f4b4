import i18next from 'i18next';
import { FILTER_MESSAGES } from '../../../worker/filters/filters.schema';
import { VETTING_MESSAGES } from '../../../worker/vetting/vetting.schema';
import type { VettingState } from '../../../worker/vetting/vetting.states';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-filters.json';
import { messageText } from '../../i18n/errors';

// the filters screens' English texts (each lazy screen of the feature imports this module)
addEnglish(english);

/**
 * The filters area's shared messages (the schemas' constants, which the screens check with
 * before sending and the API answers without a code), each with its key in the catalogue
 * (docs/decisions/0023-languages.md): literal keys, so the catalogue test sees them used.
 */
const FILTER_MESSAGE_KEYS: Record<keyof typeof FILTER_MESSAGES, string> = {
  nameEmpty: 'filterMessages.nameEmpty',
  typeEmpty: 'filterMessages.typeEmpty',
  mcEmpty: 'filterMessages.mcEmpty',
  searchMcEmpty: 'filterMessages.searchMcEmpty',
  noMcs: 'filterMessages.noMcs',
  typeNameEmpty: 'filterMessages.typeNameEmpty',
  badColor: 'filterMessages.badColor',
  agentsCannotRename: 'filterMessages.agentsCannotRename',
  cannotEdit: 'filterMessages.cannotEdit',
  notFound: 'filterMessages.notFound',
  mcNotFound: 'filterMessages.mcNotFound',
  userNotFound: 'filterMessages.userNotFound',
  typeNotFound: 'filterMessages.typeNotFound',
  added: 'filterMessages.added',
  addedUnverified: 'filterMessages.addedUnverified',
  updated: 'filterMessages.updated',
  resubmitted: 'filterMessages.resubmitted',
  verified: 'filterMessages.verified',
  deleted: 'filterMessages.deleted',
  activated: 'filterMessages.activated',
  disabled: 'filterMessages.disabled',
  typesSaved: 'filterMessages.typesSaved',
  badMcNumber: 'filterMessages.badMcNumber',
  badDotNumber: 'filterMessages.badDotNumber',
  aliasEmpty: 'filterMessages.aliasEmpty',
  noteEmpty: 'filterMessages.noteEmpty',
  noteAdded: 'filterMessages.noteAdded',
  reasonEmpty: 'filterMessages.reasonEmpty',
  rejected: 'filterMessages.rejected',
  noneSelected: 'filterMessages.noneSelected',
};

const VETTING_MESSAGE_KEYS: Partial<Record<keyof typeof VETTING_MESSAGES, string>> = {
  notConfigured: 'filterVetting.msgNotConfigured',
  noNumber: 'filterVetting.msgNoNumber',
  checked: 'filterVetting.msgChecked',
  unavailable: 'filterVetting.msgUnavailable',
  notFound: 'filterMessages.notFound',
};

const keyOfMessage = new Map<string, string>([
  ...Object.entries(FILTER_MESSAGES).map(([code, message]) => [message, FILTER_MESSAGE_KEYS[code as keyof typeof FILTER_MESSAGES]] as const),
  ...Object.entries(VETTING_MESSAGES).flatMap(([code, message]) => {
    const key = VETTING_MESSAGE_KEYS[code as keyof typeof VETTING_MESSAGES];
    return key ? [[message, key] as const] : [];
  }),
]);

/**
 * A filters message in the user's language: one of the area's shared constants by its key, an
 * API error with a code by the code (messageText), anything else as it came.
 */
export function filterMessageText(message: string | null | undefined): string {
  if (!message) return '';
  const key = keyOfMessage.get(message);
  return key ? i18next.t(key) : messageText(message);
}

/** A filter message by its name in FILTER_MESSAGES (a success the screen knows without reading the answer's words). */
export const filterMessage = (code: keyof typeof FILTER_MESSAGES) => i18next.t(FILTER_MESSAGE_KEYS[code]);

/** The FMCSA chip's words by the record's state (the API's label is English). */
export const VETTING_LABEL_KEYS: Record<VettingState | 'unchecked', string> = {
  active: 'filterVetting.stateActive',
  inactive: 'filterVetting.stateInactive',
  no_bond: 'filterVetting.stateNoBond',
  not_found: 'filterVetting.stateNotFound',
  unchecked: 'filterVetting.stateUnchecked',
};
