import { AUTH_MESSAGES } from '../auth/auth.messages';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { defineMessages } from '../lib/messages';

/** Contact History's messages (spec section 5) and the ingestion call's. Shared with the screen. */
export const HISTORY_MESSAGES = defineMessages('history', {
  range: [400, 'History is available for maximum 40 days'],
  selectManager: [400, 'Select a manager', 'a director or the admin without `managerId`'],
  managerNotFound: COMMON_MESSAGES.managerNotFound,
  userNotFound: COMMON_MESSAGES.userNotFound,
  mcNotFound: [404, 'MC not found'],
  selectMc: [400, 'Select MC'],
  tooMany: [413, 'Too many contacts for one load: choose fewer days or users'],
  clientId: [400, 'A client id is required: 1 to 100 letters, digits or . _ : -'],
  clientIdReused: [409, 'This client id was already used for a different entry'],
  kind: [400, "Kind must be 'call' or 'email'"],
  phone: AUTH_MESSAGES.phone,
  email: AUTH_MESSAGES.emailInvalid,
  brokerEmpty: [400, 'Broker name is empty'],
  contactDate: [400, 'Wrong contact date'],
  search: [400, 'Search is at most 200 characters'],
  sort: [400, 'Sort by one of the table columns, asc or desc'],
  page: [400, 'Page is a whole number from 1'],
  pageSize: [400, 'Page size is 10 to 50'],
  timeZone: [400, 'Unknown time zone'],
  line: [400, 'Lines are 1 to 6'],
  // a boolean the screen always sends as one: only a hand-made call sees this
  summaryFlag: [400, 'summary is true or false'],
  board: [400, 'Board must be dat or truckstop'],
  archiveMonth: [400, 'Pick a month as year and month: 2025-03'],
  archiveNotFound: [404, 'This month is not in the archive', "a month the team has not archived (another team's is not the caller's)"],
  archiveRestored: 'The month is back in Contact History',
});
