import { Hono } from 'hono';
import { handleError } from '../app';
import type { AppEnv, Bindings } from '../env';
import { handlers } from '../index';
import { withDb } from '../lib/db';
import { observeRequests } from '../lib/observe';
import { withSentryWhenSet } from '../lib/sentry';
import { pathOf } from '../lib/url';
import type { MailMessage } from '../mail/mailer';
import { devRoutes } from './dev.routes';

export { ClickCounter, PaymentOrder, RateLimiter, ShardMover, TeamLive } from '../index';

const DEV = '/api/dev/';

/** Only this entry imports them; `wrangler deploy` bundles worker/index.ts, so none of this code ships. */
export const devApp = new Hono<AppEnv>({ strict: false }).use(observeRequests).use(withDb).route('/api/dev', devRoutes);
devApp.onError(handleError);
devApp.notFound((c) => c.json({ message: 'Not found' }, 404));

/** `scheduled` and `queue` are the product's own, so the mail queue is consumed as deployed. */
export default withSentryWhenSet({
  fetch(request, env, ctx) {
    // a cheap test first: the short-link redirect passes through here on every visit
    if (request.url.includes(DEV) && pathOf(request.url).startsWith(DEV)) return devApp.fetch(request, env, ctx);
    return handlers.fetch(request, env, ctx);
  },
  scheduled: handlers.scheduled,
  queue: handlers.queue,
} satisfies ExportedHandler<Bindings, MailMessage>);
