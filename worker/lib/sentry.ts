import type { DurableObject } from 'cloudflare:workers';
import * as Sentry from '@sentry/cloudflare';
import type { Bindings } from '../env';
import type { MailMessage } from './mailer';

/**
 * Error tracking with @sentry/cloudflare, only when the SENTRY_DSN secret is set: without it no
 * Sentry code runs at all (no client, no wrapping), so a deployment without Sentry pays nothing.
 */
export const sentryEnabled = (env: Pick<Bindings, 'SENTRY_DSN'>) => !!env.SENTRY_DSN;

/** The SDK's options: errors only (no tracing), tagged with the environment. */
export const sentryOptions = (env: Bindings) => ({
  dsn: env.SENTRY_DSN,
  environment: env.ENVIRONMENT,
  tracesSampleRate: 0,
});

/**
 * Reports an error the app answered as a 5xx (Hono's error handler catches it, so the SDK's own
 * wrapping never sees it). A no-op without SENTRY_DSN; inside `withSentry` the client exists and
 * the SDK flushes it with the request.
 */
export function reportError(env: Pick<Bindings, 'SENTRY_DSN'>, err: unknown, tags: Record<string, string>): void {
  if (!sentryEnabled(env)) return;
  Sentry.withScope((scope) => {
    scope.setTags(tags);
    Sentry.captureException(err);
  });
}

/**
 * The Worker's handlers, run through `withSentry` when SENTRY_DSN is set and as they are when
 * not (the choice is made per invocation: the env is not known before).
 */
export function withSentryWhenSet<H extends ExportedHandler<Bindings, MailMessage>>(handler: H): H {
  const instrumented = Sentry.withSentry((env: Bindings) => sentryOptions(env), { ...handler } as ExportedHandler<Bindings, MailMessage>) as H;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(handler) as (keyof H & string)[]) {
    const plain = handler[name] as (...args: unknown[]) => unknown;
    const wrapped = instrumented[name] as (...args: unknown[]) => unknown;
    out[name] = (event: unknown, env: Bindings, ctx: ExecutionContext) => (sentryEnabled(env) ? wrapped : plain).call(handler, event, env, ctx);
  }
  return out as H;
}

/**
 * A Durable Object class instrumented with Sentry when SENTRY_DSN is set: constructing it makes
 * the SDK's instrumented object then, and a plain instance otherwise (the click counter sits on
 * the redirect's path). Sentry's own wrapper is a Proxy of the class too.
 */
export function durableObjectWithSentryWhenSet<C extends new (state: DurableObjectState, env: Bindings) => DurableObject<Bindings>>(Base: C): C {
  const Instrumented = Sentry.instrumentDurableObjectWithSentry((env: Bindings) => sentryOptions(env), Base);
  return new Proxy(Base, {
    construct(target, args, newTarget) {
      const env = args[1] as Bindings;
      return sentryEnabled(env) ? Reflect.construct(Instrumented, args) : Reflect.construct(target, args, newTarget);
    },
  });
}
