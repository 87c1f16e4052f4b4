import type { DrizzleD1Database } from 'drizzle-orm/d1';
import type * as schema from './db/schema';
import type { UserType } from './users/users.schema';

/** The Worker's bindings, vars and secrets (see wrangler.toml and .dev.vars.example). */
export interface Bindings {
  DB: D1Database;
  LINKS_KV: KVNamespace;
  ASSETS: Fetcher;
  PAYMENT_ORDER: DurableObjectNamespace<import('./payments/payment-order').PaymentOrder>;
  CLICK_COUNTER: DurableObjectNamespace<import('./links/click-counter').ClickCounter>;
  RATE_LIMITER: DurableObjectNamespace<import('./lib/rate-limit').RateLimiter>;
  ENVIRONMENT: string;
  JWT_SECRET?: string;
  PASSWORD_PEPPER?: string;
  ADMIN_EMAIL?: string;
  ADMIN_PASSWORD?: string;
  PUBLIC_URL: string;
  MONTHLY_PRICE_AMD: string;
  IDRAM_REC_ACCOUNT: string;
  IDRAM_SECRET_KEY?: string;
  IDRAM_PAYMENT_URL: string;
  MAIL_PROVIDER?: string;
  MAIL_FROM?: string;
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  /** Set only by tests: turns the abuse limits off so suites can log in many times. */
  DISABLE_RATE_LIMITS?: string;
}

/** The authenticated caller, loaded from D1 on every request. */
export interface Caller {
  id: string;
  name: string;
  email: string;
  userType: UserType;
  parentId: string | null;
  isEmailVerified: boolean;
  subscriptionEndDate: Date | null;
  isTrialPeriod: boolean;
}

export type Db = DrizzleD1Database<typeof schema>;

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    db: Db;
    caller: Caller;
  };
}

export const isDevelopment = (env: Pick<Bindings, 'ENVIRONMENT'>) => env.ENVIRONMENT === 'development';
