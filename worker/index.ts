import { app } from './app';
import type { Bindings } from './env';

export { PaymentOrder } from './payments/payment-order';
export { ClickCounter } from './links/click-counter';
export { RateLimiter } from './lib/rate-limit';

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
