import type { ComponentType } from 'react';
import type { Area, Role } from '../../worker/lib/permissions';

/** The route that signs out (a route, so leaving unsaved edits asks first). */
export const LOGOUT_PATH = '/logout';

type Loader = () => Promise<{ default: ComponentType }>;
/** The screen's name in the tab's title, "Users · FreightDesk" (decision 0141): a catalogue key (`titles.*`), said in the user's language. */
type Title = string | ((role: Role) => string);

/** Routes open in every state (spec: Public routes). */
export const PUBLIC_ROUTES: { path: string; title: string; load: Loader }[] = [
  { path: '/emailVerify/:hash', title: 'titles.verifyEmail', load: () => import('../features/auth/email-verify') },
  { path: '/passwordRecovery/:hash', title: 'titles.passwordRecovery', load: () => import('../features/auth/password-recovery') },
  { path: '/paymentResult/:status', title: 'titles.paymentResult', load: () => import('../features/payments/payment-result') },
  { path: '/help/:topic?', title: 'titles.help', load: () => import('../features/help/help') },
];

/** Logged-in routes, each in one area of the permissions table (spec: Logged in, by role). */
export const AREA_ROUTES: { path: string; area: Area; title: Title; load: Loader }[] = [
  { path: '/links', title: 'titles.links', area: 'links', load: () => import('../features/links/links-list') },
  { path: '/links/keys', title: 'titles.apiKeys', area: 'links', load: () => import('../features/links/api-keys') },
  { path: '/create', title: 'titles.createLink', area: 'links', load: () => import('../features/links/link-create') },
  { path: '/detail/:id', title: 'titles.linkDetails', area: 'links', load: () => import('../features/links/link-detail') },
  { path: '/profile/:id?', title: 'titles.profile', area: 'profile', load: () => import('../features/users/profile') },
  {
    path: '/users',
    title: (role) => (role === 'admin' ? 'titles.allUsers' : 'titles.myTeam'),
    area: 'users',
    load: () => import('../features/users/users-list'),
  },
  { path: '/createUser', title: 'titles.addUser', area: 'users', load: () => import('../features/users/create-user') },
  { path: '/companyFilters', title: 'titles.brokerFiltering', area: 'filters', load: () => import('../features/filters/company-filters') },
  { path: '/companyFilters/import', title: 'titles.importFilters', area: 'filtersLead', load: () => import('../features/filters/import-filters') },
  { path: '/companyFilters/queue', title: 'titles.verificationQueue', area: 'filtersLead', load: () => import('../features/filters/verification-queue') },
  {
    path: '/companyFilters/:action/:name/:contact?',
    title: 'titles.brokerFiltering',
    area: 'filters',
    load: () => import('../features/filters/company-filters'),
  },
  { path: '/filters', title: 'titles.myFilters', area: 'filters', load: () => import('../features/filters/my-filters') },
  { path: '/callHistory', title: 'titles.contactHistory', area: 'history', load: () => import('../features/history/contact-history') },
  { path: '/activeLoads', title: 'titles.activeLoads', area: 'loads', load: () => import('../features/loads/active-loads') },
  { path: '/payment', title: 'titles.payment', area: 'payment', load: () => import('../features/payments/payment') },
  { path: '/payment/receipt/:id', title: 'titles.receipt', area: 'payment', load: () => import('../features/payments/receipt') },
  { path: '/lines', title: 'titles.lines', area: 'lines', load: () => import('../features/mc-settings/lines') },
  { path: '/promoCodes', title: 'titles.promoCodes', area: 'promo', load: () => import('../features/promo/promo-codes') },
  { path: '/adminPayments', title: 'titles.payments', area: 'adminPayments', load: () => import('../features/payments/admin-payments') },
  { path: '/analytics', title: 'titles.analytics', area: 'analytics', load: () => import('../features/analytics/analytics') },
  { path: '/failedMails', title: 'titles.failedMails', area: 'mail', load: () => import('../features/mail/failed-mails') },
];
