import { type Area, type Role } from '../lib/permissions';

/**
 * Who may call each API route: `public` (no token), `authenticated` (any signed-in user), an
 * area of the permissions table, or an explicit role list for routes narrower than their area
 * (a manager-only call inside an area agents also reach). The access matrix test checks every
 * route against this table, and fails for a route that has no entry.
 */
export type RouteRule = 'public' | 'authenticated' | { area: Area } | { roles: readonly Role[]; needsSubscription: boolean };

const area = (a: Area): RouteRule => ({ area: a });
const roles = (needsSubscription: boolean, ...r: Role[]): RouteRule => ({ roles: r, needsSubscription });
const ANY_PAYER = ['admin', 'director', 'manager', 'agent'] as const;

export const ROUTE_RULES: Record<string, RouteRule> = {
  // auth (spec section 7) and the public e-mail link
  'POST /api/auth/login': 'public',
  'POST /api/auth/register': 'public',
  'POST /api/auth/sendPasswordHash': 'public',
  'POST /api/auth/passwordHashVerify/:hash': 'public',
  'POST /api/auth/logout': 'authenticated',
  'GET /api/user/verify/:hash': 'public',
  'GET /api/health': 'public',

  // subscriptions
  'GET /api/subscription/status': 'authenticated',
};

export function ruleFor(method: string, path: string): RouteRule | undefined {
  return ROUTE_RULES[`${method} ${path}`];
}

/** The API routes of the app (handlers, not middleware), without the development-only ones. */
export function apiRoutes(all: readonly { method: string; path: string }[]) {
  const seen = new Map<string, { method: string; path: string }>();
  for (const r of all) {
    if (r.method === 'ALL' || !r.path.startsWith('/api/') || r.path.startsWith('/api/dev/')) continue;
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path });
  }
  return [...seen.values()];
}

export { ANY_PAYER, area, roles };
