import { type ErrorHandler, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { analyticsRoutes } from './analytics/analytics.routes';
import { authRoutes, emailVerifyRoutes } from './auth/auth.routes';
import type { AppEnv } from './env';
import { extensionRoutes } from './extension/extension.routes';
import { filterTypeRoutes } from './filters/filter-types.routes';
import { brokerRoutes } from './filters/filters.routes';
import { checkHealth, healthSchema } from './health';
import { callHistoryRoutes } from './history/history.routes';
import { answers } from './lib/answer';
import { allow } from './lib/auth';
import { COMMON_MESSAGES, GENERAL_MESSAGES } from './lib/common-messages';
import { isFenceRefusal } from './lib/d1';
import { withDb } from './lib/db';
import { ApiError, apiError } from './lib/errors';
import { messageOf } from './lib/messages';
import { observeRequests } from './lib/observe';
import { companyMoving, MOVING_RETRY_SECONDS } from './lib/shards';
import { linkRoutes, shortLinkRoutes } from './links/links.routes';
import { activeLoadRoutes } from './loads/loads.routes';
import { mailRoutes } from './mail/mail.routes';
import { mcSettingsRoutes } from './mc-settings/mc-settings.routes';
import { paymentRoutes } from './payments/payments.routes';
import { promoRoutes } from './promo/promo.routes';
import { shardRoutes } from './shards/shards.routes';
import { subscriptionRoutes } from './subscriptions/subscriptions.routes';
import { liveRoutes } from './team/live.routes';
import { teamRoutes } from './team/team.routes';
import { userRoutes } from './users/users.routes';
import { vettingRoutes } from './vetting/vetting.routes';

/** Request bodies larger than this answer 413. */
export const MAX_BODY_BYTES = 256 * 1024;
/** A filters import (up to 5,000 CSV rows as JSON) may be larger. */
export const MAX_IMPORT_BODY_BYTES = 4 * 1024 * 1024;
const tooLarge = () => {
  throw apiError(COMMON_MESSAGES.bodyTooLarge);
};
const bodyLimits = {
  normal: bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge }),
  import: bodyLimit({ maxSize: MAX_IMPORT_BODY_BYTES, onError: tooLarge }),
};

const api = new Hono<AppEnv>()
  .use(
    secureHeaders({
      contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      referrerPolicy: 'strict-origin-when-cross-origin',
      strictTransportSecurity: false,
      // a route that serves its own HTML page (the Idram pages) keeps its own CSP
      overwrite: false,
    }),
  )
  .use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    if (c.env.ENVIRONMENT === 'production') c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  })
  .use((c, next) => (c.req.path.startsWith('/api/broker/import') ? bodyLimits.import(c, next) : bodyLimits.normal(c, next)))
  .use(withDb)
  .route('/auth', authRoutes)
  .route('/user', emailVerifyRoutes)
  .route('/user', filterTypeRoutes)
  .route('/user', userRoutes)
  .route('/broker', brokerRoutes)
  .route('/mcSettings', mcSettingsRoutes)
  .route('/callHistory', callHistoryRoutes)
  .route('/activeLoad', activeLoadRoutes)
  .route('/payment', paymentRoutes)
  .route('/subscription', subscriptionRoutes)
  .route('/promocode', promoRoutes)
  .route('/analytics', analyticsRoutes)
  .route('/link', linkRoutes)
  .route('/extension', extensionRoutes)
  .route('/team', teamRoutes)
  .route('/live', liveRoutes)
  .route('/mail', mailRoutes)
  .route('/vetting', vettingRoutes)
  .route('/shards', shardRoutes)
  // D1, KV and each Durable Object namespace: 200 {ok: true, checks} when all answer, else 503 naming the failed ones
  .get('/health', allow('public'), answers(healthSchema), async (c) => {
    const health = await checkHealth(c.env);
    if (health.ok) return c.var.answer({ ok: true as const, checks: health.checks });
    return c.json({ ok: false as const, message: `Unhealthy: ${health.failed.join(', ')}`, checks: health.checks }, 503);
  });

// strict: false: the spec writes some paths with a trailing slash (`/api/promocode/`, `/api/mcSettings/add/`); both forms reach the one route.
export const app = new Hono<AppEnv>({ strict: false })
  .use('/api/*', observeRequests)
  .route('/api', api)
  .route('/s', shortLinkRoutes)
  .all('/api/*', () => {
    throw apiError(GENERAL_MESSAGES.notFound);
  });

/**
 * Every error as `{message}` with its status; anything unknown is a 500 with a generic message,
 * whose stack goes to the request's log line (lib/observe.ts), never into the response.
 */
export const handleError: ErrorHandler = (thrown, c) => {
  // a write refused by its company's fence: the company is moving to another shard (docs/decisions/0181)
  const err = isFenceRefusal(thrown) ? companyMoving() : thrown;
  if (err instanceof ApiError && err.code === COMMON_MESSAGES.companyMoving.code) c.header('Retry-After', String(MOVING_RETRY_SECONDS));
  if (err instanceof HTTPException) {
    const status = err.status;
    // a code only from the entry thrown, never found by the text (docs/decisions/0182-messages-keyed-by-code.md)
    if (err instanceof ApiError) {
      const { code, params, details } = err;
      return c.json({ ...details, message: err.message, ...(code ? { code } : {}), ...(params ? { params } : {}) }, status);
    }
    if (err.message) return c.json({ message: err.message }, status);
    return c.json(status === 400 ? { message: 'Bad request' } : messageOf(GENERAL_MESSAGES.somethingWrong), status);
  }
  // outside the request middleware (no request id yet): log it here
  if (!c.get('requestId')) console.error(JSON.stringify({ level: 'error', event: 'unhandled_error', message: err.message, stack: err.stack }));
  return c.json(messageOf(GENERAL_MESSAGES.somethingWrong), 500);
};

app.onError(handleError);

app.notFound((c) => c.json(messageOf(GENERAL_MESSAGES.notFound), 404));

export type AppType = typeof app;
