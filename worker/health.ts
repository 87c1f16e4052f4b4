import * as z from 'zod';
import type { Bindings } from './env';
import { allShards, d1Of } from './lib/d1';
import type { RateLimiter } from './lib/rate-limit';
import type { ClickCounter } from './links/click-counter';
import type { PaymentOrder } from './payments/payment-order';
import type { TeamLive } from './team/team-live';

/** GET /api/health's 200; a failed check answers 503 `{ok: false, message, checks}` instead. */
export const healthSchema = z.strictObject({ ok: z.literal(true), checks: z.record(z.string(), z.string()) });

/** Each check's time: a binding that hangs fails the check instead of hanging the health call. */
const CHECK_TIMEOUT_MS = 3000;

const within = <T>(promise: Promise<T>): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS))]);

/** The Durable Object namespaces of wrangler.toml, each checked by its binding name. */
const DURABLE_OBJECTS = ['PAYMENT_ORDER', 'CLICK_COUNTER', 'RATE_LIMITER', 'TEAM_LIVE'] as const;

export type HealthChecks = Record<'d1' | 'kv' | (typeof DURABLE_OBJECTS)[number], string>;

/**
 * GET /api/health: a query on each D1 database, a read of KV, and a call to one object of each Durable Object
 * namespace, all at once. Each check answers `ok` or its error's message; the call is healthy when
 * every one is ok.
 */
export async function checkHealth(env: Bindings): Promise<{ ok: boolean; checks: HealthChecks; failed: string[] }> {
  const probes: [keyof HealthChecks, () => Promise<unknown>][] = [
    // every database: the control plane and each shard (a failure names the shard)
    [
      'd1',
      () =>
        Promise.all(
          allShards(env).map((shard) =>
            d1Of(env, shard)
              .prepare('select 1 as one')
              .first()
              .catch((err: unknown) => {
                throw new Error(`${shard}: ${err instanceof Error ? err.message : String(err)}`);
              }),
          ),
        ),
    ],
    ['kv', () => env.LINKS_KV.get('health-check')],
    ...DURABLE_OBJECTS.map((name): [keyof HealthChecks, () => Promise<unknown>] => [
      name,
      async () => {
        // every class of wrangler.toml has ping() (lib/rate-limit.ts, links/click-counter.ts, payments/payment-order.ts, team/team-live.ts)
        const ns = env[name] as DurableObjectNamespace<RateLimiter | ClickCounter | PaymentOrder | TeamLive>;
        const answer = await ns.get(ns.idFromName('health')).ping();
        if (answer !== 'ok') throw new Error(`unexpected answer ${String(answer)}`);
      },
    ]),
  ];
  const results = await Promise.allSettled(probes.map(([, probe]) => within(probe())));
  const checks = {} as HealthChecks;
  const failed: string[] = [];
  probes.forEach(([name], i) => {
    const r = results[i]!;
    if (r.status === 'fulfilled') checks[name] = 'ok';
    else {
      checks[name] = (r.reason instanceof Error ? r.reason.message : String(r.reason)).slice(0, 200) || 'failed';
      failed.push(name);
    }
  });
  return { ok: failed.length === 0, checks, failed };
}
