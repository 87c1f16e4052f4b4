import { app } from '../app';
import { devApp } from '../dev/index';
import type { Answers } from '../lib/answer';
import type { RuleName } from '../lib/permissions';
import { type RouteEntry, routeTable } from '../lib/route-table';

/** Every route the local Worker answers (the product's and the development-only ones), with its rule and inputs. */
export const appRoutes = (): RouteEntry[] => routeTable([...app.routes, ...devApp.routes]);

const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);

/** The rule of the route a concrete request reaches (a fixed path wins over one with a parameter, as in the router). */
export function ruleOf(method: string, path: string): RuleName {
  const matches = appRoutes().filter((r) => r.method === method && pattern(r.path).test(path));
  matches.sort((a, b) => a.path.split(':').length - b.path.split(':').length);
  const rule = matches[0]?.rules[0];
  if (!rule) throw new Error(`no route with a rule for ${method} ${path}`);
  return rule;
}

/** `METHOD /api/path` of each route that declares its answers (lib/answer.ts). */
export const answeringCalls = (): string[] =>
  appRoutes()
    .filter((r) => r.responses)
    .map((r) => `${r.method} ${r.path}`);

/** The success schemas a route declares, by `METHOD /api/path` as the route is written. */
export function responsesOfCall(call: string): NonNullable<Answers['responses']> {
  const route = appRoutes().find((r) => `${r.method} ${r.path}` === call);
  const responses = route?.responses;
  if (!responses) throw new Error(`${call} declares no answers`);
  return responses;
}
