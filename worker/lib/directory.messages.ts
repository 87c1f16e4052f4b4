import { defineMessages } from './messages';

/**
 * The account directory's refusal (lib/directory.ts): an e-mail is one account across the shards,
 * whichever way in (registration, a new user, an e-mail change). Its code is bare, the login page's.
 */
export const DIRECTORY_MESSAGES = defineMessages('', {
  emailTaken: [409, 'This e-mail is already registered'],
});
