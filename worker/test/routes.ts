import { app } from '../app';
import type { RuleName } from '../lib/permissions';

export interface AppRoute {
  method: string;
  path: string;
  /** The rules named on the route with `allow()`, read back from its middleware: exactly one for a well-formed route. */
  rules: RuleName[];
}

type Handler = { rule?: RuleName; __COMPOSED_HANDLER?: Handler };

/**
 * The app's routes (not `.use()` or `.all()` middleware), each with the access rules it names:
 * `allow('rule')` leaves its rule's name on the middleware, and Hono lists every handler of a
 * route in `app.routes`, so the rules are read from the app itself, not from a copy.
 */
export function appRoutes(): AppRoute[] {
  const byRoute = new Map<string, AppRoute>();
  for (const r of app.routes) {
    if (r.method === 'ALL') continue;
    const key = `${r.method} ${r.path}`;
    const route = byRoute.get(key) ?? { method: r.method, path: r.path, rules: [] };
    byRoute.set(key, route);
    const handler = r.handler as unknown as Handler;
    const rule = handler.rule ?? handler.__COMPOSED_HANDLER?.rule;
    if (rule) route.rules.push(rule);
  }
  return [...byRoute.values()];
}

const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);

/** The rule of the route a concrete request reaches (a fixed path wins over one with a parameter, as in the router). */
export function ruleOf(method: string, path: string): RuleName {
  const matches = appRoutes().filter((r) => r.method === method && pattern(r.path).test(path));
  matches.sort((a, b) => a.path.split(':').length - b.path.split(':').length);
  const rule = matches[0]?.rules[0];
  if (!rule) throw new Error(`no route with a rule for ${method} ${path}`);
  return rule;
}
