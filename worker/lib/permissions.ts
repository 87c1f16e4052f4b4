/**
 * The one permissions table: which role reaches which area, and whether the area needs an
 * active subscription. The server enforces it (`requireArea`), the SPA builds its routes and
 * menu from it, so the two cannot drift. No server imports: the web app imports this file.
 */
export const ROLES = ['admin', 'director', 'manager', 'marketing', 'agent'] as const;
export type Role = (typeof ROLES)[number];

export const AREAS = {
  profile: { roles: ['admin', 'director', 'manager', 'marketing', 'agent'], needsSubscription: false },
  payment: { roles: ['admin', 'director', 'manager', 'agent'], needsSubscription: false },
  users: { roles: ['admin', 'manager'], needsSubscription: true },
  filters: { roles: ['admin', 'manager', 'agent'], needsSubscription: true },
  lines: { roles: ['admin', 'manager', 'agent'], needsSubscription: true },
  history: { roles: ['admin', 'director', 'manager', 'agent'], needsSubscription: true },
  loads: { roles: ['admin', 'manager', 'agent'], needsSubscription: true },
  promo: { roles: ['admin', 'marketing'], needsSubscription: false },
  adminPayments: { roles: ['admin'], needsSubscription: false },
  analytics: { roles: ['admin'], needsSubscription: false },
  links: { roles: ['admin', 'manager'], needsSubscription: true },
} as const satisfies Record<string, { roles: readonly Role[]; needsSubscription: boolean }>;
export type Area = keyof typeof AREAS;

/** Admin and marketing users are staff: their subscription is always active. */
export const isStaff = (role: Role) => role === 'admin' || role === 'marketing';

export function canReach(role: Role, area: Area, isSubscriptionActive: boolean): boolean {
  const rule = AREAS[area];
  if (!(rule.roles as readonly Role[]).includes(role)) return false;
  return !rule.needsSubscription || isStaff(role) || isSubscriptionActive;
}

/** The first screen after login, by role. */
export const DEFAULT_PATH: Record<Role, string> = {
  admin: '/users',
  manager: '/users',
  agent: '/companyFilters',
  director: '/callHistory',
  marketing: '/promoCodes/',
};

/** The navigation menu, in order, with who sees each item (spec: Navigation menu). */
export const MENU: { label: string; path: string; visible: (role: Role, active: boolean) => boolean }[] = [
  { label: 'Profile', path: '/profile/', visible: (r) => r !== 'admin' },
  { label: 'Payment', path: '/payment/', visible: (r) => r !== 'admin' && r !== 'marketing' },
  { label: 'Promo Codes', path: '/promoCodes/', visible: (r) => r === 'marketing' || r === 'admin' },
  { label: 'My Team', path: '/users', visible: (r, a) => r === 'manager' && a },
  { label: 'All Users', path: '/users', visible: (r) => r === 'admin' },
  { label: 'Analytics', path: '/analytics/', visible: (r) => r === 'admin' },
  { label: 'Payments', path: '/adminPayments/', visible: (r) => r === 'admin' },
  { label: 'Broker Filtering', path: '/companyFilters', visible: (r, a) => (r === 'manager' || r === 'agent') && a },
  { label: 'My Filters', path: '/filters', visible: (r, a) => (r === 'manager' || r === 'agent') && a },
  {
    label: 'Contact History',
    path: '/callHistory',
    visible: (r, a) => r !== 'admin' && r !== 'marketing' && a,
  },
  { label: 'Lines', path: '/lines', visible: (r, a) => (r === 'manager' || r === 'agent') && a },
  // Not in the spec's menu: the link shortener would otherwise be unreachable without typing its URL.
  { label: 'Links', path: '/links', visible: (r, a) => r === 'admin' || (r === 'manager' && a) },
];
