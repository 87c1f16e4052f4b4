import { COMMON_MESSAGES } from '../lib/common-messages';
import { defineMessages } from '../lib/messages';

/** The promo codes' messages. Shared by the server and the Promo Codes screen. */
export const PROMO_MESSAGES = defineMessages('promo', {
  type: [400, 'Select the promo type'],
  notFound: [404, 'Promo code not found'],
  alreadyUsed: [400, 'Promo code is already used'],
  finished: [400, 'Promo code is finished'],
  pending: [409, 'You already have a promo discount waiting for your next payment'],
  busy: [409, 'The promo code could not be applied, please try again'],
  nameTaken: [409, 'A promo code with this name already exists'],
  name: [400, 'A promo code name is 4 to 32 letters, digits or -'],
  deleteUsed: [409, 'A promo code that has been used cannot be deleted'],
  assignUsed: [409, 'A promo code that has been used cannot be assigned'],
  value: [400, 'The effect value must be a whole number of at least 1'],
  percent: [400, 'A discount is 1 to 100 percent'],
  months: [400, 'Free months are 1 to 24'],
  amount: [400, 'The amount must be a whole number from 1 to 500'],
  maxUses: [400, 'Uses must be a whole number from 1 to 100000'],
  userNotFound: COMMON_MESSAGES.userNotFound,
  userMissing: [400, "Enter the user's e-mail"],
  userCannotUse: [400, 'This user cannot use promo codes'],
  listEmpty: [400, 'Select at least one promo code'],
  listTooLong: [400, 'At most {{max}} promo codes at a time'],
  tooManyChecks: [429, 'Too many promo code attempts, please try again later'],
});
