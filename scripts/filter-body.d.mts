/** scripts/filter-body.mjs: the filter modal's body, every field not named at the form's default. */
export function filterBody<T extends Record<string, unknown>>(fields: T): Record<string, unknown> & T;
