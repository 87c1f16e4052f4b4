import type { ComponentType } from 'react';
import type { Area } from '../../worker/lib/permissions';

type Loader = () => Promise<{ default: ComponentType }>;

/** Routes open in every state (spec: Public routes). */
export const PUBLIC_ROUTES: { path: string; load: Loader }[] = [
  { path: '/emailVerify/:hash', load: () => import('../features/auth/email-verify') },
  { path: '/passwordRecovery/:hash', load: () => import('../features/auth/password-recovery') },
  { path: '/paymentResult/:status', load: () => import('../features/payments/payment-result') },
  { path: '/help/:topic?', load: () => import('../features/help/help') },
];

/** Logged-in routes, each in one area of the permissions table (spec: Logged in, by role). */
export const AREA_ROUTES: { path: string; area: Area; load: Loader }[] = [
  { path: '/links', area: 'links', load: () => import('../features/links/links-list') },
  { path: '/links/keys', area: 'links', load: () => import('../features/links/api-keys') },
  { path: '/create', area: 'links', load: () => import('../features/links/link-create') },
  { path: '/detail/:id', area: 'links', load: () => import('../features/links/link-detail') },
  { path: '/profile/:id?', area: 'profile', load: () => import('../features/users/profile') },
  { path: '/users', area: 'users', load: () => import('../features/users/users-list') },
  { path: '/createUser', area: 'users', load: () => import('../features/users/create-user') },
  { path: '/companyFilters', area: 'filters', load: () => import('../features/filters/company-filters') },
  { path: '/companyFilters/:action/:name/:contact?', area: 'filters', load: () => import('../features/filters/company-filters') },
  { path: '/filters', area: 'filters', load: () => import('../features/filters/my-filters') },
  { path: '/callHistory', area: 'history', load: () => import('../features/history/contact-history') },
  { path: '/activeLoads', area: 'loads', load: () => import('../features/loads/active-loads') },
  { path: '/payment', area: 'payment', load: () => import('../features/payments/payment') },
  { path: '/payment/receipt/:id', area: 'payment', load: () => import('../features/payments/receipt') },
  { path: '/lines', area: 'lines', load: () => import('../features/mc-settings/lines') },
  { path: '/promoCodes', area: 'promo', load: () => import('../features/promo/promo-codes') },
  { path: '/adminPayments', area: 'adminPayments', load: () => import('../features/payments/admin-payments') },
  { path: '/analytics', area: 'analytics', load: () => import('../features/analytics/analytics') },
];
