import type { ComponentType } from 'react';
import type { Area, Role } from '../../worker/lib/permissions';
import type { AREA_SCREENS } from './screens';

/** The route that signs out (a route, so leaving unsaved edits asks first). */
export const LOGOUT_PATH = '/logout';

type Loader = () => Promise<{ default: ComponentType }>;
/** The screen's name in the tab's title, "Users · FreightDesk" (rule 0141): a catalogue key (`titles.*`), said in the user's language. */
type Title = string | ((role: Role) => string);

/** Routes open in every state (spec: Public routes). */
export const PUBLIC_ROUTES: { path: string; title: string; load: Loader }[] = [
  { path: '/emailVerify/:hash', title: 'titles.verifyEmail', load: () => import('../features/auth/email-verify') },
  { path: '/passwordRecovery/:hash', title: 'titles.passwordRecovery', load: () => import('../features/auth/password-recovery') },
  { path: '/paymentResult/:status', title: 'titles.paymentResult', load: () => import('../features/payments/payment-result') },
  { path: '/help/:topic?', title: 'titles.help', load: () => import('../features/help/help') },
];

/**
 * Logged-in routes, each in one area of the permissions table (spec: Logged in, by role). Their
 * screens' code is named in web/app/screens.ts, which loads with the signed-in part.
 */
export const AREA_ROUTES: { path: keyof typeof AREA_SCREENS; area: Area; title: Title }[] = [
  { path: '/links', title: 'titles.links', area: 'links' },
  { path: '/links/keys', title: 'titles.apiKeys', area: 'links' },
  { path: '/create', title: 'titles.createLink', area: 'links' },
  { path: '/detail/:id', title: 'titles.linkDetails', area: 'links' },
  { path: '/profile/:id?', title: 'titles.profile', area: 'profile' },
  {
    path: '/users',
    title: (role) => (role === 'admin' ? 'titles.allUsers' : 'titles.myTeam'),
    area: 'users',
  },
  { path: '/createUser', title: 'titles.addUser', area: 'users' },
  { path: '/companyFilters', title: 'titles.brokerFiltering', area: 'filters' },
  { path: '/companyFilters/import', title: 'titles.importFilters', area: 'filtersLead' },
  { path: '/companyFilters/queue', title: 'titles.verificationQueue', area: 'filtersLead' },
  {
    path: '/companyFilters/:action/:name/:contact?',
    title: 'titles.brokerFiltering',
    area: 'filters',
  },
  { path: '/filters', title: 'titles.myFilters', area: 'filters' },
  { path: '/callHistory', title: 'titles.contactHistory', area: 'history' },
  { path: '/activeLoads', title: 'titles.activeLoads', area: 'loads' },
  { path: '/payment', title: 'titles.payment', area: 'payment' },
  { path: '/payment/receipt/:id', title: 'titles.receipt', area: 'payment' },
  { path: '/lines', title: 'titles.lines', area: 'lines' },
  { path: '/promoCodes', title: 'titles.promoCodes', area: 'promo' },
  { path: '/adminPayments', title: 'titles.payments', area: 'adminPayments' },
  { path: '/analytics', title: 'titles.analytics', area: 'analytics' },
  { path: '/failedMails', title: 'titles.failedMails', area: 'mail' },
];
