import { defineMessages } from '../lib/messages';

/** The extension's health reports' messages. */
export const HEALTH_MESSAGES = defineMessages('health', {
  version: [400, 'Wrong extension version'],
  counts: [400, 'Counts must be whole numbers from 0 to 100000'],
  layout: [400, 'Layout must be wide, compact or unknown'],
  days: [400, 'Days must be from 1 to 30'],
  board: [400, 'Board must be dat or truckstop'],
});
