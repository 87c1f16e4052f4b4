import type { ComponentType } from 'react';
import type { Area, Role } from '../../worker/lib/permissions';

/** The route that signs out (a route, so leaving unsaved edits asks first). */
export const LOGOUT_PATH = '/logout';

type Loader = () => Promise<{ default: ComponentType }>;
/** The screen's name in the tab's title, "Users · FreightDesk" (decision 0141). */
type Title = string | ((role: Role) => string);

/** Routes open in every state (spec: Public routes). */
export const PUBLIC_ROUTES: { path: string; title: string; load: Loader }[] = [
  { path: '/emailVerify/:hash', title: 'Verify E-mail', load: () => import('../features/auth/email-verify') },
  { path: '/passwordRecovery/:hash', title: 'Password Recovery', load: () => import('../features/auth/password-recovery') },
  { path: '/paymentResult/:status', title: 'Payment Result', load: () => import('../features/payments/payment-result') },
  { path: '/help/:topic?', title: 'Help', load: () => import('../features/help/help') },
];

/** Logged-in routes, each in one area of the permissions table (spec: Logged in, by role). */
export const AREA_ROUTES: { path: string; area: Area; title: Title; load: Loader }[] = [
  { path: '/links', title: 'Links', area: 'links', load: () => import('../features/links/links-list') },
  { path: '/links/keys', title: 'API Keys', area: 'links', load: () => import('../features/links/api-keys') },
  { path: '/create', title: 'Create Link', area: 'links', load: () => import('../features/links/link-create') },
  { path: '/detail/:id', title: 'Link Details', area: 'links', load: () => import('../features/links/link-detail') },
  { path: '/profile/:id?', title: 'Profile', area: 'profile', load: () => import('../features/users/profile') },
  { path: '/users', title: (role) => (role === 'admin' ? 'All Users' : 'My Team'), area: 'users', load: () => import('../features/users/users-list') },
  { path: '/createUser', title: 'Add User', area: 'users', load: () => import('../features/users/create-user') },
  { path: '/companyFilters', title: 'Broker Filtering', area: 'filters', load: () => import('../features/filters/company-filters') },
  { path: '/companyFilters/import', title: 'Import Filters', area: 'filtersLead', load: () => import('../features/filters/import-filters') },
  { path: '/companyFilters/queue', title: 'Verification Queue', area: 'filtersLead', load: () => import('../features/filters/verification-queue') },
  { path: '/companyFilters/:action/:name/:contact?', title: 'Broker Filtering', area: 'filters', load: () => import('../features/filters/company-filters') },
  { path: '/filters', title: 'My Filters', area: 'filters', load: () => import('../features/filters/my-filters') },
  { path: '/callHistory', title: 'Contact History', area: 'history', load: () => import('../features/history/contact-history') },
  { path: '/activeLoads', title: 'Active Loads', area: 'loads', load: () => import('../features/loads/active-loads') },
  { path: '/payment', title: 'Payment', area: 'payment', load: () => import('../features/payments/payment') },
  { path: '/payment/receipt/:id', title: 'Receipt', area: 'payment', load: () => import('../features/payments/receipt') },
  { path: '/lines', title: 'Lines', area: 'lines', load: () => import('../features/mc-settings/lines') },
  { path: '/promoCodes', title: 'Promo Codes', area: 'promo', load: () => import('../features/promo/promo-codes') },
  { path: '/adminPayments', title: 'Payments', area: 'adminPayments', load: () => import('../features/payments/admin-payments') },
  { path: '/analytics', title: 'Analytics', area: 'analytics', load: () => import('../features/analytics/analytics') },
  { path: '/failedMails', title: 'Failed Mails', area: 'mail', load: () => import('../features/mail/failed-mails') },
];
