import { app } from './app';
import { redirectShortLink } from './links/links.routes';
import type { Bindings } from './env';

export { PaymentOrder } from './payments/payment-order';
export { ClickCounter } from './links/click-counter';
export { RateLimiter } from './lib/rate-limit';

const SHORT = '/s/';

export default {
  // The short-link redirect is the hot path: it goes straight to its handler, past the router.
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname.startsWith(SHORT) && pathname.indexOf('/', SHORT.length) === -1) {
      return redirectShortLink(env, ctx, request, pathname.slice(SHORT.length));
    }
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Bindings>;
