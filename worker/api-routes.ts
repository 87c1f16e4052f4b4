/** Compiled to .tmp/api-types first, so checking the web app does not type-check the worker again (decision 0022). */
export type { AnalyticsRoutes } from './analytics/analytics.routes';
export type { AuthRoutes, EmailVerifyRoutes } from './auth/auth.routes';
export type { ExtensionRoutes } from './extension/extension.routes';
export type { FilterTypeRoutes } from './filters/filter-types.routes';
export type { BrokerRoutes } from './filters/filters.routes';
export type { CallHistoryRoutes } from './history/history.routes';
export type { LinkRoutes } from './links/links.routes';
export type { ActiveLoadRoutes } from './loads/loads.routes';
export type { MailRoutes } from './mail/mail.routes';
export type { McSettingsRoutes } from './mc-settings/mc-settings.routes';
export type { PaymentRoutes } from './payments/payments.routes';
export type { PromoRoutes } from './promo/promo.routes';
export type { ShardRoutes } from './shards/shards.routes';
export type { SubscriptionRoutes } from './subscriptions/subscriptions.routes';
export type { TeamRoutes } from './team/team.routes';
export type { UserRoutes } from './users/users.routes';
export type { VettingRoutes } from './vetting/vetting.routes';
