import { app } from './app';
import { redirectShortLink } from './links/links.routes';
import { pathOf } from './lib/url';
import type { Bindings } from './env';
import { runReminders } from './subscriptions/reminders';

export { PaymentOrder } from './payments/payment-order';
export { ClickCounter } from './links/click-counter';
export { RateLimiter } from './lib/rate-limit';

const SHORT = '/s/';

export default {
  // The short-link redirect is the hot path: it goes straight to its handler, past the router.
  fetch(request, env, ctx) {
    const pathname = pathOf(request.url);
    if ((request.method === 'GET' || request.method === 'HEAD') && pathname.startsWith(SHORT) && pathname.indexOf('/', SHORT.length) === -1) {
      return redirectShortLink(env, ctx, request, pathname.slice(SHORT.length));
    }
    return app.fetch(request, env, ctx);
  },
  // The Cron Trigger (wrangler.toml [triggers]): reminders before subscriptions end. Locally:
  // `wrangler dev --test-scheduled`, then GET /__scheduled?cron=0+6+*+*+*
  async scheduled(controller, env, _ctx) {
    const sent = await runReminders(env, new Date(controller.scheduledTime));
    console.log(`[reminders] ${sent.reminders} reminders, ${sent.digests} manager digests`);
  },
} satisfies ExportedHandler<Bindings>;
