import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { tooManyRequests } from './errors';

interface Window {
  start: number;
  count: number;
}

/**
 * A fixed-window counter, one Durable Object per key (`login-ip:1.2.3.4`, `link-user:abc`…).
 * The Workers rate-limiting binding counts per location and is permissive; this one is exact.
 */
export class RateLimiter extends DurableObject<Bindings> {
  private window: Window | null = null;

  private async load(windowMs: number, now: number): Promise<Window> {
    this.window ??= (await this.ctx.storage.get<Window>('w')) ?? { start: now, count: 0 };
    if (now - this.window.start >= windowMs) this.window = { start: now, count: 0 };
    return this.window;
  }

  /** How many hits the current window holds, without adding one. */
  async peek(windowMs: number): Promise<number> {
    return (await this.load(windowMs, Date.now())).count;
  }

  /** Adds a hit; answers whether it was within the limit and when the window resets. */
  async hit(limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }> {
    const now = Date.now();
    const w = await this.load(windowMs, now);
    w.count += 1;
    await this.ctx.storage.put('w', w);
    return { allowed: w.count <= limit, retryAfterMs: Math.max(0, w.start + windowMs - now) };
  }

  async reset(): Promise<void> {
    this.window = { start: Date.now(), count: 0 };
    await this.ctx.storage.put('w', this.window);
  }
}

export interface Limit {
  limit: number;
  windowMs: number;
}

/** The product's abuse limits (README: Security). */
export const LIMITS = {
  loginFailuresPerEmail: { limit: 10, windowMs: 15 * 60_000 },
  loginFailuresPerIp: { limit: 100, windowMs: 15 * 60_000 },
  registerPerIp: { limit: 20, windowMs: 60 * 60_000 },
  mailPerAddress: { limit: 5, windowMs: 60 * 60_000 },
  linkCreatePerUser: { limit: 60, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Limit>;

const stub = (env: Bindings, key: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
const disabled = (env: Bindings) => env.DISABLE_RATE_LIMITS === 'true';

/** Counts one hit against `key`; throws 429 past the limit. */
export async function enforceLimit(env: Bindings, key: string, rule: Limit, message?: string): Promise<void> {
  if (disabled(env)) return;
  const { allowed } = await stub(env, key).hit(rule.limit, rule.windowMs);
  if (!allowed) throw tooManyRequests(message);
}

/** Throws 429 if `key` is already at its limit (failures are counted separately with `countHit`). */
export async function checkLimit(env: Bindings, key: string, rule: Limit, message?: string): Promise<void> {
  if (disabled(env)) return;
  if ((await stub(env, key).peek(rule.windowMs)) >= rule.limit) throw tooManyRequests(message);
}

export async function countHit(env: Bindings, key: string, rule: Limit): Promise<void> {
  if (disabled(env)) return;
  await stub(env, key).hit(rule.limit, rule.windowMs);
}

export const clientIp = (req: Request) => req.headers.get('cf-connecting-ip') ?? '127.0.0.1';
