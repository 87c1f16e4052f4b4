import type { AnalyticsRoutes } from '@api-types/analytics/analytics.routes';
import type { AuthRoutes, EmailVerifyRoutes } from '@api-types/auth/auth.routes';
import type { ExtensionRoutes } from '@api-types/extension/extension.routes';
import type { FilterTypeRoutes } from '@api-types/filters/filter-types.routes';
import type { BrokerRoutes } from '@api-types/filters/filters.routes';
import type { CallHistoryRoutes } from '@api-types/history/history.routes';
import type { LinkRoutes } from '@api-types/links/links.routes';
import type { ActiveLoadRoutes } from '@api-types/loads/loads.routes';
import type { MailRoutes } from '@api-types/mail/mail.routes';
import type { McSettingsRoutes } from '@api-types/mc-settings/mc-settings.routes';
import type { PaymentRoutes } from '@api-types/payments/payments.routes';
import type { PromoRoutes } from '@api-types/promo/promo.routes';
import type { SubscriptionRoutes } from '@api-types/subscriptions/subscriptions.routes';
import type { TeamRoutes } from '@api-types/team/team.routes';
import type { UserRoutes } from '@api-types/users/users.routes';
import type { VettingRoutes } from '@api-types/vetting/vetting.routes';
import { hc } from 'hono/client';

/**
 * The API's clients, typed from the worker's routes (Hono's RPC client): a renamed route or a
 * changed body is a compile error. One client per area of the worker, named by its mount path
 * under /api, rather than one over the whole app: the type checker then instantiates each
 * area's routes alone. `fetch` is the caller's wrapper (token, errors); `origin` the product's.
 * Imports no React and no session, so the browser extension builds the same clients.
 */
export function createApi(origin: string, fetch: typeof globalThis.fetch) {
  const options = { fetch };
  const at = (path: string) => `${origin}/api/${path}`;
  return {
    activeLoad: hc<ActiveLoadRoutes>(at('activeLoad'), options),
    analytics: hc<AnalyticsRoutes>(at('analytics'), options),
    auth: hc<AuthRoutes>(at('auth'), options),
    broker: hc<BrokerRoutes>(at('broker'), options),
    extension: hc<ExtensionRoutes>(at('extension'), options),
    callHistory: hc<CallHistoryRoutes>(at('callHistory'), options),
    link: hc<LinkRoutes>(at('link'), options),
    mail: hc<MailRoutes>(at('mail'), options),
    mcSettings: hc<McSettingsRoutes>(at('mcSettings'), options),
    payment: hc<PaymentRoutes>(at('payment'), options),
    promocode: hc<PromoRoutes>(at('promocode'), options),
    subscription: hc<SubscriptionRoutes>(at('subscription'), options),
    vetting: hc<VettingRoutes>(at('vetting'), options),
    team: hc<TeamRoutes>(at('team'), options),
    // three sub-apps share /api/user (worker/app.ts mounts them in this order)
    emailVerify: hc<EmailVerifyRoutes>(at('user'), options),
    filterTypes: hc<FilterTypeRoutes>(at('user'), options),
    user: hc<UserRoutes>(at('user'), options),
  };
}

export type Api = ReturnType<typeof createApi>;
