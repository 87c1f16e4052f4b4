import { defineMessages } from '../lib/messages';

/**
 * The users area's messages (spec section 5), beside the account fields' checks it shares with
 * the login page (worker/auth/auth.messages.ts). Shared with the screens.
 */
export const USER_MESSAGES = defineMessages('user', {
  passwordShortCreate: [400, 'Password must be minimum 6 symbols'],
  passwordEmptyUpdate: [400, 'Password is empty'],
  parentRequired: [400, 'Select the parent manager'],
  wrongParent: [400, 'The parent must be a manager'],
  wrongDirector: [400, 'The parent must be a director'],
  wrongType: [400, 'Select the user type'],
  badDate: [400, 'Choose a valid date'],
  chooseManager: [400, 'Choose a manager'],
  currentPasswordEmpty: [400, 'Current password is empty'],
  currentPasswordWrong: [400, 'Current password is wrong'],
  // booleans the screens always send as booleans: only a hand-made call sees these
  remindersFlag: [400, 'remindersEnabled must be true or false'],
  trialFlag: [400, 'isActive must be true or false'],
});
