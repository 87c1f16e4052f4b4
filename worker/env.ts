/// <reference path="../worker-configuration.d.ts" />
import type { DrizzleD1Database } from 'drizzle-orm/d1';
import type { UserType } from './users/users.schema';

/** Secrets and settings a deployment may leave unset: the code checks them where it reads them. */
type MaybeUnset =
  | 'JWT_SECRET'
  | 'PASSWORD_PEPPER'
  | 'ADMIN_EMAIL'
  | 'ADMIN_PASSWORD'
  | 'IDRAM_SECRET_KEY'
  | 'MAIL_PROVIDER'
  | 'MAIL_FROM'
  | 'MAIL_API_URL'
  | 'MAIL_API_KEY'
  | 'MAIL_RETRY_SECONDS'
  | 'SENTRY_DSN'
  | 'FMCSA_WEBKEY';

/** `Env` comes from `wrangler types` (`npm run typegen`; `npm run check` fails when it is stale). */
export type Bindings = Omit<Env, MaybeUnset> &
  Partial<Pick<Env, MaybeUnset>> & {
    /** Set only by tests: turns the abuse limits off so suites can log in many times. */
    DISABLE_RATE_LIMITS?: string;
    /** Cloudflare Email Service (`[[send_email]] name = "EMAIL"`), present only when MAIL_PROVIDER=cloudflare is set up. */
    EMAIL?: SendEmail;
  };

export interface Caller {
  id: string;
  name: string;
  email: string;
  userType: UserType;
  parentId: string | null;
  isEmailVerified: boolean;
  subscriptionEndDate: Date | null;
  isTrialPeriod: boolean;
  /** The company whose shard holds the caller's data (docs/decisions/0174-company-shards.md). */
  companyId: string;
  sessionId: string;
}

/** Made without the schema: drizzle would otherwise build its relations config on every request (0.6 ms). */
export type Db = DrizzleD1Database & {
  /** The D1 database (or session) under it, for D1's own `batch()` and `raw()`. */
  $client: D1Database;
  /** The binding name of its database (lib/d1.ts), where known: a mail written here is sent from here. */
  $shard?: string;
};

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    /** The control plane (`DB`): the directory, companies, money, API keys. */
    control: Db;
    /** The caller's company on its shard, fenced (lib/d1.ts); set by `allow()` for signed-in routes only. */
    db: Db;
    /** The D1 session behind `db` (lib/db.ts): its bookmark goes back to the client. */
    dbSession: D1DatabaseSession;
    shard: string;
    companyId: string;
    caller: Caller;
    /** The request's id (lib/observe.ts): its log line and the `X-Request-Id` header. */
    requestId: string;
  };
}

export const isDevelopment = (env: Pick<Bindings, 'ENVIRONMENT'>) => env.ENVIRONMENT === 'development';
