/**
 * The `{message}` errors each call answers beyond the ones every call shares (bad input, no or a
 * bad token, a role or subscription its rule refuses), for the generated per-area pages
 * (docs/api/<area>.md). The messages are the server's own: worker/dev/api-reference.test.ts fails
 * when one of them is no longer in the worker's code.
 */
export type ApiError = readonly [status: number, message: string, when?: string];

export const API_ERRORS: Record<string, readonly ApiError[]> = {
  'POST /api/payment/generateLink': [
    [400, 'Months to buy: minimum 1', '`amount` missing, not a whole number, or below 1'],
    [400, 'Months to buy: at most 36', '`amount` above 36'],
    [400, 'Visa Payment Temporary not supported. Please pay with Idram.', '`paymentType` `arca`'],
    [400, 'Choose a payment type', 'any other `paymentType` (default `idram`)'],
    [403, 'Only a manager can pay for its agents', 'a non-manager names someone else'],
    [404, 'User not found', "a manager names a user who is not one of its live agents (another team's, its director, a deleted agent, an unknown id)"],
    [400, 'Email is not verified', "the manager's agent has not verified its e-mail"],
    [409, 'Your promo discount was already used for another order', 'a free (100%) order lost its discount to another order made at the same moment'],
  ],
  'POST /api/payment/generateTeamLink': [
    [400, 'Choose the agents to pay for', '`userIds` missing or empty'],
    [400, 'At most 50 agents in one order', 'more than 50 ids'],
    [400, 'align must be true or false', '`align` not a boolean'],
    [400, 'Email is not verified', 'an agent has not verified its e-mail'],
    [400, 'Your subscription has no end date to align to', "`align` and the caller's subscription has ended or has no end date"],
    [400, 'Aligning would buy more than 36 months', '`align` and a line would exceed 1,116 days'],
    [404, 'User not found', "an id that is not one of the caller's live agents (another team's, itself, unknown, deleted)"],
    [409, 'Your promo discount was already used for another order', 'as for generateLink'],
  ],
  'POST /api/payment/cancelOrder': [
    [404, 'Order not found'],
    [409, 'A paid order cannot be canceled'],
    [409, 'This order is no longer waiting for payment'],
  ],
  'GET /api/payment/receipt/:id': [[404, 'Receipt not found']],
  'POST /api/payment/refund': [
    [400, 'Payment not found', 'no `paymentId`'],
    [400, 'Refund amount: a whole number of AMD, 0 or more', '`amount` missing, negative or fractional'],
    [400, 'Give a reason for the refund', '`reason` missing or blank (at most 500 characters)'],
    [400, 'Months to take back: a whole number from 0 to 36', 'bad `monthsRemoved`'],
    [400, 'Give an amount or months to take back', 'both 0'],
    [400, 'Only a paid payment can be refunded', 'an unpaid order'],
    [400, 'This payment extended no subscription: no months to take back', 'months on a *Needs refund* payment'],
    [400, 'Choose whose months to take back', 'months on a team order without one of its agents, or another user on a single payment'],
    [404, 'Payment not found', 'unknown payment'],
  ],
  'POST /api/subscription/childUsersSubscriptions': [
    [404, 'User not found'],
    [400, 'Choose a manager'],
  ],
};

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
