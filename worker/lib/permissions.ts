import { COMMON_MESSAGES, GENERAL_MESSAGES } from './common-messages';
import type { Message } from './messages';
/**
 * The one permissions table: routes name a rule with `allow()`, the SPA's guard and menu read it,
 * and the access-matrix test checks it. No server imports: the web app imports this file.
 */
export const ROLES = ['admin', 'director', 'manager', 'marketing', 'agent'] as const;
export type Role = (typeof ROLES)[number];

/** Who a rule lets through: these roles, and (unless staff) only with an active subscription when `needsSubscription`. */
export interface RoleRule {
  roles: readonly Role[];
  needsSubscription: boolean;
  /** The refusal a role gets instead of the generic one (agents renaming filter types). */
  refusals?: Partial<Record<Role, Message>>;
}

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
  /** Decision 0007: the verification queue and CSV imports (imported filters are verified team filters). */
  filtersLead: { roles: ['admin', 'manager'], needsSubscription: true },
  /** Mails that failed for good, with their error, and resending them (decision 0017). */
  mail: { roles: ['admin'], needsSubscription: false },
} as const satisfies Record<string, RoleRule>;
export type Area = keyof typeof AREAS;

/** Rules that are not a role list: no token at all, any signed-in user, development only (404 in production). */
export type OpenRule = 'public' | 'signedIn' | 'development';
export type Rule = OpenRule | RoleRule;

export const RULES = {
  public: 'public',
  signedIn: 'signedIn',
  development: 'development',
  ...AREAS,
  admin: { roles: ['admin'], needsSubscription: false },
  /** Lists of a team (users, a manager's agents): the admin, and directors and managers with an active subscription. */
  teamLists: { roles: ['admin', 'director', 'manager'], needsSubscription: true },
  directorTeams: { roles: ['admin', 'director'], needsSubscription: true },
  /** Pay for Team's list: not behind the subscription, an expired manager must still see whom it can pay for. */
  payForTeam: { roles: ['admin', 'director', 'manager'], needsSubscription: false },
  /** One Idram order for several of a manager's agents: not behind its own subscription either. */
  teamOrder: { roles: ['manager'], needsSubscription: false },
  /** Renaming the team's filter types is for leads; agents only read them. */
  filterTypesEdit: { roles: ['admin', 'manager'], needsSubscription: true, refusals: { agent: COMMON_MESSAGES.filterTypesAgents } },
  extensionWrites: { roles: ['manager', 'agent'], needsSubscription: true },
  /** Managing one's API keys for the link calls: the links area's roles, with a signed-in session (a key cannot manage keys). */
  linkKeys: { roles: ['admin', 'manager'], needsSubscription: true },
  /** Check now: a broker's FMCSA record looked up again at once (docs/decisions/0166-fmcsa-gate-and-budget.md). */
  vettingCheck: { roles: ['admin', 'manager'], needsSubscription: true, refusals: { agent: COMMON_MESSAGES.vettingManagers } },
  teamSettings: { roles: ['admin', 'manager'], needsSubscription: true, refusals: { agent: COMMON_MESSAGES.teamSettingsManagers } },
  boardContacts: { roles: ['admin', 'manager', 'agent'], needsSubscription: true },
  teamLoads: { roles: ['manager'], needsSubscription: true },
  /** Contact History's archived months, their export and restore: the team's leads as Contact History reaches them (decision 0171). */
  historyArchive: { roles: ['admin', 'director', 'manager'], needsSubscription: true },
  /** The databases and moving companies between them (docs/decisions/0181-moving-companies.md). */
  shards: { roles: ['admin'], needsSubscription: false },
} as const satisfies Record<string, Rule>;
export type RuleName = keyof typeof RULES;

/** Admin and marketing users are staff: their subscription is always active. */
export const isStaff = (role: Role) => role === 'admin' || role === 'marketing';

/** `public`, `signedIn` and `development` let every signed-in caller through. */
export function decide(rule: Rule, role: Role, isSubscriptionActive: boolean): { ok: true } | { ok: false; refusal: Message } {
  if (typeof rule === 'string') return { ok: true };
  if (!rule.roles.includes(role)) return { ok: false, refusal: rule.refusals?.[role] ?? GENERAL_MESSAGES.notAllowed };
  if (rule.needsSubscription && !isStaff(role) && !isSubscriptionActive) return { ok: false, refusal: COMMON_MESSAGES.subscriptionInactive };
  return { ok: true };
}

export const canReach = (role: Role, area: Area, isSubscriptionActive: boolean) => decide(AREAS[area], role, isSubscriptionActive).ok;

/** Whether the role has the area at all (an expired subscription aside). */
export const roleHasArea = (role: Role, area: Area) => (AREAS[area].roles as readonly Role[]).includes(role);

export const DEFAULT_PATH: Record<Role, { path: string; area: Area }> = {
  admin: { path: '/users', area: 'users' },
  manager: { path: '/users', area: 'users' },
  agent: { path: '/companyFilters', area: 'filters' },
  director: { path: '/callHistory', area: 'history' },
  marketing: { path: '/promoCodes/', area: 'promo' },
};

/** Spec: Navigation menu. `hiddenFor`: roles that reach the area but the spec leaves out of their menu. */
export const MENU: { label: string | Partial<Record<Role, string>>; path: string; area: Area; hiddenFor?: readonly Role[] }[] = [
  { label: 'Profile', path: '/profile/', area: 'profile', hiddenFor: ['admin'] },
  { label: 'Payment', path: '/payment/', area: 'payment', hiddenFor: ['admin'] },
  { label: 'Promo Codes', path: '/promoCodes/', area: 'promo' },
  { label: { manager: 'My Team', admin: 'All Users' }, path: '/users', area: 'users' },
  { label: 'Analytics', path: '/analytics/', area: 'analytics' },
  { label: 'Payments', path: '/adminPayments/', area: 'adminPayments' },
  // Not in the spec's menu (decision 0017): mails the provider refused for good, to resend.
  { label: 'Failed Mails', path: '/failedMails', area: 'mail' },
  { label: 'Broker Filtering', path: '/companyFilters', area: 'filters', hiddenFor: ['admin'] },
  { label: 'My Filters', path: '/filters', area: 'filters', hiddenFor: ['admin'] },
  // Not in the spec's menu (decision 0007): the agents' submissions waiting for the manager, with their count.
  { label: 'Verification Queue', path: '/companyFilters/queue', area: 'filtersLead', hiddenFor: ['admin'] },
  { label: 'Contact History', path: '/callHistory', area: 'history', hiddenFor: ['admin'] },
  // Not in the spec's menu (rule 0157): reachable only by typing its URL otherwise.
  { label: 'Active Loads', path: '/activeLoads', area: 'loads', hiddenFor: ['admin'] },
  { label: 'Lines', path: '/lines', area: 'lines', hiddenFor: ['admin'] },
  // Not in the spec's menu: the link shortener would otherwise be unreachable without typing its URL.
  { label: 'Links', path: '/links', area: 'links' },
];

export function menuFor(role: Role, isSubscriptionActive: boolean): { label: string; path: string }[] {
  return MENU.filter((item) => canReach(role, item.area, isSubscriptionActive) && !item.hiddenFor?.includes(role)).map((item) => ({
    label: typeof item.label === 'string' ? item.label : (item.label[role] ?? ''),
    path: item.path,
  }));
}
