export const SYNC_ALARM = 'sync-filters';
export const RETRY_ALARM = 'retry-queue';
export const CONTACTS_ALARM = 'sync-contacts';
/** The team's contacts are synced this often (an ETag: 304 while nothing changed), and after each own contact. */
export const CONTACTS_MINUTES = 1;
/** Filters are synced this often (chrome.alarms; the board itself is never refreshed). */
export const SYNC_MINUTES = 5;
/** While actions wait, the queue is retried this often (Chrome's shortest alarm), and sooner from memory. */
export const RETRY_MINUTES = 0.5;
