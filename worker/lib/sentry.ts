import type { DurableObject } from 'cloudflare:workers';
import * as Sentry from '@sentry/cloudflare';
import type { Bindings } from '../env';

/** Without SENTRY_DSN no Sentry code runs at all, so a deployment without Sentry pays nothing. */
export const sentryEnabled = (env: Pick<Bindings, 'SENTRY_DSN'>) => !!env.SENTRY_DSN;

/** The SDK's options: errors only (no tracing), tagged with the environment. */
export const sentryOptions = (env: Bindings) => ({
  dsn: env.SENTRY_DSN,
  environment: env.ENVIRONMENT,
  tracesSampleRate: 0,
});

/** Hono's error handler catches 5xx errors, so the SDK's own wrapping never sees them. */
export function reportError(env: Pick<Bindings, 'SENTRY_DSN'>, err: unknown, tags: Record<string, string>): void {
  if (!sentryEnabled(env)) return;
  Sentry.withScope((scope) => {
    scope.setTags(tags);
    Sentry.captureException(err);
  });
}

/** Chosen per invocation: the env is not known before. */
export function withSentryWhenSet<H extends ExportedHandler<Bindings, never>>(handler: H): H {
  const instrumented = Sentry.withSentry((env: Bindings) => sentryOptions(env), { ...handler } as ExportedHandler<Bindings, never>) as H;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(handler) as (keyof H & string)[]) {
    const plain = handler[name] as (...args: unknown[]) => unknown;
    const wrapped = instrumented[name] as (...args: unknown[]) => unknown;
    out[name] = (event: unknown, env: Bindings, ctx: ExecutionContext) => (sentryEnabled(env) ? wrapped : plain).call(handler, event, env, ctx);
  }
  return out as H;
}

/** A plain instance without SENTRY_DSN: the click counter sits on the redirect's path. */
export function durableObjectWithSentryWhenSet<C extends new (state: DurableObjectState, env: Bindings) => DurableObject<Bindings>>(Base: C): C {
  const Instrumented = Sentry.instrumentDurableObjectWithSentry((env: Bindings) => sentryOptions(env), Base);
  return new Proxy(Base, {
    construct(target, args, newTarget) {
      const env = args[1] as Bindings;
      return sentryEnabled(env) ? Reflect.construct(Instrumented, args) : Reflect.construct(target, args, newTarget);
    },
  });
}
