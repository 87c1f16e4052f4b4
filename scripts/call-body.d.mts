/** scripts/call-body.mjs: a logged contact's body, every field not named at the sample's. */
export function callBody<T extends Record<string, unknown>>(fields: T): Record<string, unknown> & T;
