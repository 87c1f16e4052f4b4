import { defineMessages } from '../lib/messages';

/** The Failed mails screen's messages. */
export const MAIL_MESSAGES = defineMessages('mail', {
  notFound: [404, 'Mail not found'],
  notFailed: [409, 'This mail is not failed: it was already resent'],
  resent: 'The mail is queued again',
});
