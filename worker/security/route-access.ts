import type { Area, Role } from '../lib/permissions';

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
  'GET /api/auth/sessions': 'authenticated',
  'DELETE /api/auth/sessions/:id': 'authenticated',
  'GET /api/user/verify/:hash': 'public',
  'GET /api/health': 'public',

  // subscriptions
  'GET /api/subscription/status': 'authenticated',
  'POST /api/subscription/childUsersSubscriptions': roles(false, 'admin', 'director', 'manager'),

  // users and teams
  'GET /api/user': roles(true, 'admin', 'director', 'manager'),
  'DELETE /api/user': area('users'),
  'GET /api/user/directorsList': roles(false, 'admin'),
  'GET /api/user/marketingUsers': roles(false, 'admin'),
  'GET /api/user/manager': area('profile'),
  'GET /api/user/directorChildManagers': roles(true, 'admin', 'director'),
  'GET /api/user/allTeam': area('history'),
  'GET /api/user/childUsers/:id': roles(true, 'admin', 'director', 'manager'),
  'POST /api/user/managerChildUsers': roles(true, 'admin', 'director', 'manager'),
  'POST /api/user/userByEmail': roles(false, 'admin', 'marketing'),
  'POST /api/user/register': area('users'),
  'PUT /api/user/update/name/:id': area('profile'),
  'PUT /api/user/update/email/:id': area('profile'),
  'PUT /api/user/update/password/:id': area('profile'),
  'PUT /api/user/update/userType/:id': roles(false, 'admin'),
  'PUT /api/user/update/trialPeriodState/:id': roles(false, 'admin'),
  'PUT /api/user/update/trialPeriodEndDate/:id': roles(false, 'admin'),
  'PUT /api/user/update/parent/:id': roles(false, 'admin'),
  'PUT /api/user/resendEmailVerification/:id': area('profile'),
  'GET /api/user/:id': area('profile'),

  // payments (the Idram callback and the payment pages are public: Idram and the browser call them)
  'POST /api/payment/idram/result': 'public',
  'GET /api/payment/idram/pay/:orderId': 'public',
  'POST /api/payment/idram/simulator': 'public',
  'POST /api/payment/idram/simulator/complete': 'public',
  'GET /api/payment/monthlyprice': area('payment'),
  'GET /api/payment/paymentHistory': area('payment'),
  'POST /api/payment/generateLink': area('payment'),
  'POST /api/payment/getPaymentLink': area('payment'),
  'POST /api/payment/get_arca_status': area('payment'),

  // promo codes
  'POST /api/promocode/checkPromoCode': area('payment'),
  'POST /api/promocode/usePromoCode': area('payment'),
  'GET /api/promocode': area('promo'),
  'GET /api/promocode/freeAndPublic': area('promo'),
  'GET /api/promocode/usedAndPublic': area('promo'),
  'GET /api/promocode/finishedAndPublic': area('promo'),
  'GET /api/promocode/types': area('promo'),
  'GET /api/promocode/effectTypes': area('promo'),
  'POST /api/promocode/createRandomPublic': area('promo'),
  'POST /api/promocode/create': area('promo'),
  'POST /api/promocode/delete': area('promo'),
  'POST /api/promocode/assignUser': area('promo'),
  'POST /api/promocode/removeUserAssignment': area('promo'),
  'POST /api/promocode/updatePromoListFreeStatus': area('promo'),

  // analytics (admin)
  'POST /api/analytics/loginHistory': area('analytics'),

  // links
  'GET /api/link': area('links'),
  'POST /api/link/generate': area('links'),
  'GET /api/link/:id': area('links'),
  'PUT /api/link/:id': area('links'),

  // broker filters and filter types (the filters area; renaming types is for leads)
  'POST /api/broker': area('filters'),
  'POST /api/broker/add': area('filters'),
  'POST /api/broker/update/details': area('filters'),
  'PUT /api/broker/update/isactive': area('filters'),
  'PUT /api/broker/update/isactive/': area('filters'),
  'PUT /api/broker/update/delete': area('filters'),
  'PUT /api/broker/update/delete/': area('filters'),
  'GET /api/broker/minified': area('filters'),
  'GET /api/broker/allNames': area('filters'),
  'GET /api/broker/teamUsers': area('filters'),
  'GET /api/user/filterOverrides': area('filters'),
  'PUT /api/user/update/filterOverride': roles(true, 'admin', 'manager'),
  'PUT /api/user/update/filterOverride/': roles(true, 'admin', 'manager'),

  // MC settings (Lines); the team lists also serve Contact History's MC checklist
  'GET /api/mcSettings': area('lines'),
  'GET /api/mcSettings/': area('lines'),
  'DELETE /api/mcSettings': area('lines'),
  'DELETE /api/mcSettings/': area('lines'),
  'GET /api/mcSettings/parentMcSettings': area('lines'),
  'GET /api/mcSettings/allMcSettings': area('history'),
  'POST /api/mcSettings/byParentId': area('history'),
  'POST /api/mcSettings/byParentId/': area('history'),
  'POST /api/mcSettings/add': area('lines'),
  'POST /api/mcSettings/add/': area('lines'),
  'POST /api/mcSettings/update/details': area('lines'),
  'POST /api/mcSettings/update/toggleVisibility': area('lines'),

  // Contact History, active loads, and the extension client's ingestion calls (docs/api/history.md, docs/api/ingestion.md)
  'POST /api/callHistory/getHistory': area('history'),
  'POST /api/callHistory/log': roles(true, 'manager', 'agent'),
  'GET /api/activeLoad/my': area('loads'),
  'POST /api/activeLoad/team': roles(true, 'manager'),
  'POST /api/activeLoad/delete': area('loads'),
  'POST /api/activeLoad/delete/': area('loads'),
  'POST /api/activeLoad/add': roles(true, 'manager', 'agent'),
  'POST /api/activeLoad/add/': roles(true, 'manager', 'agent'),
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
