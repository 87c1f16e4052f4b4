import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach } from 'vitest';
import worker from '../dev/index';

/**
 * Not `SELF.fetch`: in the pool each `SELF.fetch` costs more than the one before within a file
 * (6 ms at first, 330 ms after 900 calls; cloudflare/workers-sdk#15446). WebSocket upgrades keep `SELF`.
 */
export async function fetchWorker(input: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(input, init);
  const res = await worker.fetch!(request as never, env as never, ctx);
  pending.add(waitOnExecutionContext(ctx));
  return res;
}

const pending = new Set<Promise<void>>();

afterEach(async () => {
  const all = [...pending];
  pending.clear();
  await Promise.allSettled(all);
});
