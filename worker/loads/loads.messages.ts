import { defineMessages } from '../lib/messages';

/** Active loads' messages. Shared with the screen. */
export const LOAD_MESSAGES = defineMessages('load', {
  notFound: [404, 'Load not found'],
  deleted: 'Load deleted',
  brokerEmpty: [400, 'Broker name is empty'],
  originEmpty: [400, 'Origin is empty'],
  destEmpty: [400, 'Destination is empty'],
  mcNotFound: [404, 'MC not found'],
  clientIdReused: [409, 'This client id was already used for a different entry'],
  date: [400, 'Wrong load date'],
  reference: [400, 'Reference is too long'],
});
