import { defineMessages } from '../lib/messages';

/** Login History's messages. Shared with the screen. */
export const ANALYTICS_MESSAGES = defineMessages('analytics', {
  dateFrom: [400, 'Select a valid From date'],
  future: [400, 'The From date cannot be in the future'],
  timeZone: [400, 'Invalid time zone', '`timezoneOffset` not a whole number of minutes from -840 to 840'],
});
