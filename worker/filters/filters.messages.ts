import { COMMON_MESSAGES } from '../lib/common-messages';
import { defineMessages } from '../lib/messages';

/** The filters area's messages (spec section 5 and the screens). Shared with the screens. */
export const FILTER_MESSAGES = defineMessages('filter', {
  nameEmpty: [400, 'Name is empty', 'name blank after trimming'],
  typeEmpty: [400, 'Select the type', 'type missing or `-1`'],
  mcEmpty: [400, 'Select minimum 1 mc or All MC', '`allMC` false and `mcList` empty'],
  searchMcEmpty: [400, 'Choose minimum 1 MC'],
  noMcs: [400, 'Add your MC in Lines tab before creating filters'],
  typeNameEmpty: [400, 'Type name is empty'],
  badColor: [400, 'Choose a colour', 'not `#rrggbb`'],
  agentsCannotRename: COMMON_MESSAGES.filterTypesAgents,
  cannotEdit: [403, 'You are not allowed to edit this filter', 'a filter the caller sees but may not edit'],
  notFound: [404, 'Filter not found', 'a filter the caller does not see (on update: no `updateFilterId`)'],
  mcNotFound: [
    404,
    'MC not found',
    "an MC id the caller may not use (another team's, an agent setting's own id, or for an agent one of the manager's MCs not in its own list)",
  ],
  userNotFound: COMMON_MESSAGES.userNotFound,
  typeNotFound: [404, 'Filter type not found', "a type id that is not the team's"],
  added: 'Filter added',
  addedUnverified: 'Filter added. It stays unverified until your manager verifies it',
  updated: 'Filter updated',
  resubmitted: 'Filter updated and sent to your manager for verification',
  verified: 'Filter verified and updated',
  deleted: 'Filter deleted',
  activated: 'Filter activated',
  disabled: 'Filter disabled',
  typesSaved: 'Filter types saved',
  badMcNumber: [400, 'MC number must be 1 to 8 digits'],
  badDotNumber: [400, 'DOT number must be 1 to 8 digits'],
  noteEmpty: [400, 'Note is empty'],
  noteAdded: 'Note added',
  reasonEmpty: [400, 'Give a reason'],
  rejected: 'Filter rejected',
  noneSelected: [400, 'Select at least one filter'],
  tooManyContacts: [400, 'At most {{max}} contacts'],
  tooManyAliases: [400, 'At most {{max}} aliases'],
  importEmpty: [400, 'The file has no rows'],
  importTooMany: [400, 'At most {{max}} rows per import'],
  /** The duplicate rule's refusal, naming the filter that already has the name or MC number. */
  duplicate: [409, 'A filter for {{name}} already exists', 'another filter of the team has the name, an alias or the MC number (`params`: `name`)'],
  /** The refusal when the name matched nothing the caller may be told about. */
  duplicateThisName: [409, 'A filter for this name already exists'],
  /** The same refusal to a caller who cannot see that filter (a teammate's private one): it names nothing. */
  hiddenDuplicate: [409, 'A filter for this broker already exists in your team'],
});
