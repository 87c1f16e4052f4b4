import { app } from './app';
import type { Bindings } from './env';
import { runScheduled } from './jobs';
import { RateLimiter as RateLimiterBase } from './lib/rate-limit';
import { durableObjectWithSentryWhenSet, withSentryWhenSet } from './lib/sentry';
import { pathOf } from './lib/url';
import { ClickCounter as ClickCounterBase } from './links/click-counter';
import { redirectShortLink } from './links/links.routes';
import { consumeMailBatch } from './mail/mail.queue';
import type { MailMessage } from './mail/mailer';
import { PaymentOrder as PaymentOrderBase } from './payments/payment-order';
import { ShardMover as ShardMoverBase } from './shards/shard-mover';
import { TeamLive as TeamLiveBase } from './team/team-live';

// The Durable Object classes, instrumented by Sentry when SENTRY_DSN is set (lib/sentry.ts).
export const PaymentOrder = durableObjectWithSentryWhenSet(PaymentOrderBase);
export type PaymentOrder = PaymentOrderBase;
export const ClickCounter = durableObjectWithSentryWhenSet(ClickCounterBase);
export type ClickCounter = ClickCounterBase;
export const RateLimiter = durableObjectWithSentryWhenSet(RateLimiterBase);
export type RateLimiter = RateLimiterBase;
export const TeamLive = durableObjectWithSentryWhenSet(TeamLiveBase);
export type TeamLive = TeamLiveBase;
export const ShardMover = durableObjectWithSentryWhenSet(ShardMoverBase);
export type ShardMover = ShardMoverBase;

const SHORT = '/s/';

export const handlers = {
  // The short-link redirect is the hot path: it goes straight to its handler, past the router.
  fetch(request, env, ctx) {
    const pathname = pathOf(request.url);
    if ((request.method === 'GET' || request.method === 'HEAD') && pathname.startsWith(SHORT) && pathname.indexOf('/', SHORT.length) === -1) {
      return redirectShortLink(env, ctx, request, pathname.slice(SHORT.length));
    }
    return app.fetch(request, env, ctx);
  },
  // Locally GET /api/dev/scheduled?cron=…: wrangler's /cdn-cgi/handler/scheduled fails with [assets].
  async scheduled(controller, env, _ctx) {
    await runScheduled(controller, env);
  },
  async queue(batch, env, _ctx) {
    await consumeMailBatch(batch, env);
  },
} satisfies ExportedHandler<Bindings, MailMessage>;

export default withSentryWhenSet(handlers);
