import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/**
 * The signed-in screens' code, by route path (web/app/paths.ts lists the routes). Loaded with the
 * signed-in part, so the login page carries none of the screens' import sites and chunk lists
 * (docs/decisions/0024-login-bundle.md); each screen stays its own lazy chunk.
 */
export const AREA_SCREENS = {
  '/links': () => import('../features/links/links-list'),
  '/links/keys': () => import('../features/links/api-keys'),
  '/create': () => import('../features/links/link-create'),
  '/detail/:id': () => import('../features/links/link-detail'),
  '/profile/:id?': () => import('../features/users/profile'),
  '/users': () => import('../features/users/users-list'),
  '/createUser': () => import('../features/users/create-user'),
  '/companyFilters': () => import('../features/filters/company-filters'),
  '/companyFilters/import': () => import('../features/filters/import-filters'),
  '/companyFilters/queue': () => import('../features/filters/verification-queue'),
  '/companyFilters/:action/:name/:contact?': () => import('../features/filters/company-filters'),
  '/filters': () => import('../features/filters/my-filters'),
  '/callHistory': () => import('../features/history/contact-history'),
  '/activeLoads': () => import('../features/loads/active-loads'),
  '/payment': () => import('../features/payments/payment'),
  '/payment/receipt/:id': () => import('../features/payments/receipt'),
  '/lines': () => import('../features/mc-settings/lines'),
  '/promoCodes': () => import('../features/promo/promo-codes'),
  '/adminPayments': () => import('../features/payments/admin-payments'),
  '/analytics': () => import('../features/analytics/analytics'),
  '/failedMails': () => import('../features/mail/failed-mails'),
} satisfies Record<string, Loader>;
