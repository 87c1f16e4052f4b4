import type { ValidationTargets } from 'hono';
import type * as z from 'zod';
import type { Answers } from './answer';
import type { Message } from './messages';
import type { RuleName } from './permissions';

/** What a route validates: `validate(target, schema)` leaves both on its middleware. */
export interface RouteInput {
  target: keyof ValidationTargets;
  schema: z.ZodType;
}

export interface RouteEntry {
  method: string;
  path: string;
  /** The rules it names with `allow()`: exactly one for a well-formed route. */
  rules: RuleName[];
  inputs: RouteInput[];
  /** Marked `readOnly()` (lib/db.ts): its queries read a D1 replica; otherwise the primary. */
  readOnly: boolean;
  /** Its success schemas by status (lib/answer.ts); none for CSV, HTML and redirects. */
  responses?: Answers['responses'];
  /** The area messages it refuses with, beyond the ones every call shares. */
  errors: readonly Message[];
}

type Marked = { rule?: RuleName; input?: RouteInput; readOnly?: boolean; answers?: Answers; __COMPOSED_HANDLER?: Marked };

/** Read from the app itself (`allow()`, `validate()` and `answer()` mark their handlers), not from a copy. */
export function routeTable(routes: readonly { method: string; path: string; handler: unknown }[]): RouteEntry[] {
  const byRoute = new Map<string, RouteEntry>();
  for (const r of routes) {
    if (r.method === 'ALL') continue;
    const key = `${r.method} ${r.path}`;
    const route: RouteEntry = byRoute.get(key) ?? { method: r.method, path: r.path, rules: [], inputs: [], readOnly: false, errors: [] };
    byRoute.set(key, route);
    const handler = r.handler as Marked;
    // a sub-app with its own error handler wraps each handler; the original stays reachable
    const marked = handler.rule || handler.input || handler.readOnly || handler.answers ? handler : (handler.__COMPOSED_HANDLER ?? handler);
    if (marked.rule) route.rules.push(marked.rule);
    if (marked.input) route.inputs.push(marked.input);
    if (marked.readOnly) route.readOnly = true;
    if (marked.answers) Object.assign(route, marked.answers);
  }
  return [...byRoute.values()];
}
