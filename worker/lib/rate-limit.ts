import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { GENERAL_MESSAGES } from './common-messages';
import { apiError } from './errors';
import type { Message } from './messages';

type Refusal = Message;
const refused = (message: Refusal) => apiError(message);

interface Window {
  start: number;
  count: number;
}

/** How long an attempt let through may stay unsettled before its room is given back (a crashed caller). */
const PENDING_TTL_MS = 30_000;
/**
 * How long an attempt waits for room while the bucket is full of attempts in flight (good logins
 * queue behind each other, they are not refused; each takes one password hash, tens of ms).
 */
const MAX_WAIT_MS = 30_000;

/**
 * Exact, unlike the Workers rate-limiting binding (per location). Attempts in flight count too, so
 * a burst of simultaneous guesses cannot all pass a check made before any of them failed.
 */
export class RateLimiter extends DurableObject<Bindings> {
  private window: Window | null = null;
  // attempts let through by `begin` and not settled yet (in memory: a restart only frees slots)
  private pending = new Map<string, number>();
  private waiters = new Set<() => void>();

  ping(): 'ok' {
    return 'ok';
  }

  private wake() {
    for (const waiter of [...this.waiters]) waiter();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, ms));
      this.waiters.add(done);
    });
  }

  private expirePending(now: number) {
    for (const [ticket, at] of this.pending) if (now - at >= PENDING_TTL_MS) this.pending.delete(ticket);
  }

  /** Waits up to MAX_WAIT_MS while the room is taken by attempts in flight (good ones give it back); past the failures limit it refuses at once. */
  async begin(limit: number, windowMs: number): Promise<{ allowed: boolean; ticket: string }> {
    const deadline = Date.now() + MAX_WAIT_MS;
    for (;;) {
      const now = Date.now();
      const w = await this.load(windowMs, now);
      this.expirePending(now);
      if (w.count >= limit) return { allowed: false, ticket: '' };
      if (w.count + this.pending.size < limit) {
        const ticket = crypto.randomUUID();
        this.pending.set(ticket, now);
        return { allowed: true, ticket };
      }
      if (now >= deadline) return { allowed: false, ticket: '' };
      const oldest = Math.min(...this.pending.values());
      await this.wait(Math.min(deadline - now, oldest + PENDING_TTL_MS - now));
    }
  }

  /** Ends an attempt from `begin`: a failure is counted, a success only gives its room back. */
  async settle(ticket: string, failed: boolean, windowMs: number): Promise<void> {
    this.pending.delete(ticket);
    if (failed) {
      const w = await this.load(windowMs, Date.now());
      w.count += 1;
      await this.ctx.storage.put('w', w);
    }
    this.wake();
  }

  private async load(windowMs: number, now: number): Promise<Window> {
    this.window ??= (await this.ctx.storage.get<Window>('w')) ?? { start: now, count: 0 };
    if (now - this.window.start >= windowMs) this.window = { start: now, count: 0 };
    return this.window;
  }

  async peek(windowMs: number): Promise<number> {
    return (await this.load(windowMs, Date.now())).count;
  }

  async hit(limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }> {
    const now = Date.now();
    const w = await this.load(windowMs, now);
    w.count += 1;
    await this.ctx.storage.put('w', w);
    this.wake();
    return { allowed: w.count <= limit, retryAfterMs: Math.max(0, w.start + windowMs - now) };
  }

  private next: number | null = null;

  /** One object for the product (docs/decisions/0166-fmcsa-gate-and-budget.md), one call at a time, so two callers never get the same moment. */
  async reserve(intervalMs: number): Promise<number> {
    const now = Date.now();
    this.next ??= (await this.ctx.storage.get<number>('next')) ?? 0;
    const at = Math.max(now, this.next);
    this.next = at + intervalMs;
    await this.ctx.storage.put('next', this.next);
    return at - now;
  }

  async reset(): Promise<void> {
    this.window = { start: Date.now(), count: 0 };
    await this.ctx.storage.put('w', this.window);
    this.wake();
  }
}

export interface Limit {
  limit: number;
  windowMs: number;
}

/** The product's abuse limits (docs/guides/security.md). */
export const LIMITS = {
  // logins without a valid device token ("untrusted clients"), per account and per address
  loginFailuresPerEmail: { limit: 10, windowMs: 15 * 60_000 },
  loginFailuresPerIp: { limit: 100, windowMs: 15 * 60_000 },
  // logins presenting a valid device token: only that device token is limited
  loginFailuresPerDevice: { limit: 10, windowMs: 15 * 60_000 },
  // wrong current passwords on the profile's e-mail and password changes, per user
  reauthFailuresPerUser: { limit: 10, windowMs: 15 * 60_000 },
  registerPerIp: { limit: 20, windowMs: 60 * 60_000 },
  mailPerAddress: { limit: 5, windowMs: 60 * 60_000 },
  linkCreatePerUser: { limit: 60, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Limit>;

const stub = (env: Bindings, key: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
const disabled = (env: Bindings) => env.DISABLE_RATE_LIMITS === 'true';

export async function enforceLimit(env: Bindings, key: string, rule: Limit, message: Refusal = GENERAL_MESSAGES.tooManyRequests): Promise<void> {
  if (disabled(env)) return;
  const { allowed } = await stub(env, key).hit(rule.limit, rule.windowMs);
  if (!allowed) throw refused(message);
}

/** Throws 429 if `key` is already at its limit (failures are counted separately with `countHit`). */
export async function checkLimit(env: Bindings, key: string, rule: Limit, message: Refusal = GENERAL_MESSAGES.tooManyRequests): Promise<void> {
  if (disabled(env)) return;
  if ((await stub(env, key).peek(rule.windowMs)) >= rule.limit) throw refused(message);
}

export async function countHit(env: Bindings, key: string, rule: Limit): Promise<void> {
  if (disabled(env)) return;
  await stub(env, key).hit(rule.limit, rule.windowMs);
}

export interface Attempt {
  settle(failed: boolean): Promise<void>;
}

const noAttempt: Attempt = { settle: async () => {} };

/** Buckets are taken in the given order, so two attempts never wait on each other. Exact under concurrency. */
export async function beginAttempt(
  env: Bindings,
  buckets: readonly (readonly [string, Limit])[],
  message: Refusal = GENERAL_MESSAGES.tooManyRequests,
): Promise<Attempt> {
  if (disabled(env)) return noAttempt;
  const taken: { key: string; rule: Limit; ticket: string }[] = [];
  const settleAll = async (failed: boolean) => {
    await Promise.all(taken.map((t) => stub(env, t.key).settle(t.ticket, failed, t.rule.windowMs)));
  };
  for (const [key, rule] of buckets) {
    const { allowed, ticket } = await stub(env, key).begin(rule.limit, rule.windowMs);
    if (!allowed) {
      await settleAll(false);
      throw refused(message);
    }
    taken.push({ key, rule, ticket });
  }
  let settled = false;
  return {
    settle: async (failed) => {
      if (settled) return;
      settled = true;
      await settleAll(failed);
    },
  };
}

export const clientIp = (req: Request) => req.headers.get('cf-connecting-ip') ?? '127.0.0.1';
