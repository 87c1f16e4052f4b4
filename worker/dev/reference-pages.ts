/** Which page of docs/api/ each call is documented on, for the API reference (api-reference.ts). */

/** Which page documents an area's URL segment (/api/<segment>/…). */
export const PAGE_OF_SEGMENT: Record<string, string> = {
  auth: 'auth',
  user: 'users',
  broker: 'filters',
  callHistory: 'history',
  activeLoad: 'history',
  link: 'links',
  mcSettings: 'mc-settings',
  team: 'team',
  payment: 'payments',
  subscription: 'payments',
  promocode: 'promo',
  vetting: 'vetting',
  extension: 'extension',
  live: 'extension',
  analytics: 'analytics',
  shards: 'shards',
  mail: 'mail',
  health: 'health',
};

/** Calls documented on another page than their segment's. */
export const PAGE_OF_CALL: Record<string, string> = {
  'GET /api/user/filterOverrides': 'filters',
  'PUT /api/user/update/filterOverride': 'filters',
  'POST /api/callHistory/log': 'ingestion',
  'POST /api/activeLoad/add': 'ingestion',
};
