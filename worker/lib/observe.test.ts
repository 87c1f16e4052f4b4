import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { app } from '../app';
import { call, createUser, testEnv } from '../test/helpers';
import { sha256Hex } from './ids';

/** The log lines the Worker printed while `run` ran, parsed (every request line is one JSON line). */
async function linesDuring(run: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const printed: string[] = [];
  const keep = (...args: unknown[]) => {
    printed.push(args.map(String).join(' '));
  };
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(keep),
    vi.spyOn(console, 'warn').mockImplementation(keep),
    vi.spyOn(console, 'error').mockImplementation(keep),
  ];
  try {
    await run();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return printed.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

async function fetchWith(env: object, path: string, init?: RequestInit) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`, init), { ...testEnv, ...env }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

afterEach(() => vi.restoreAllMocks());

describe('request logs and request ids (decision 0147)', () => {
  it('one JSON line per request: method, route pattern, status, duration, request id, a hash of the user; never the token or the body', async () => {
    const user = await createUser('manager');
    let res!: Awaited<ReturnType<typeof call>>;
    const lines = await linesDuring(async () => {
      res = await call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { name: 'Secret Name 123' } });
    });
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9A-Za-z]{16}$/);
    const mine = lines.filter((l) => l.event === 'request' && l.requestId === requestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toEqual({
      level: 'info',
      event: 'request',
      requestId,
      method: 'PUT',
      route: '/api/user/update/name/:id',
      status: res.status,
      durationMs: expect.any(Number),
      user: (await sha256Hex(user.id)).slice(0, 16),
    });
    const all = JSON.stringify(lines);
    expect(all).not.toContain(user.token);
    expect(all).not.toContain('Secret Name 123');
    expect(all).not.toContain(user.id);
  });

  it('every /api answer carries X-Request-Id, errors and the dev calls included; each request its own', async () => {
    const answers = [
      await call('GET', '/api/health'),
      await call('GET', '/api/nope'),
      await call('GET', '/api/user', { token: 'bad' }),
      await call('GET', '/api/dev/outbox'),
    ];
    const ids = answers.map((r) => r.headers.get('x-request-id'));
    expect(ids.every((id) => /^[0-9A-Za-z]{16}$/.test(id ?? ''))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a 500 logs one line with its stack and the request id the response carries; the response holds neither', async () => {
    // the control plane unreachable: a login, which looks the e-mail up there, fails
    const broken = {
      DB: new Proxy(testEnv.DB, {
        get(target, prop) {
          if (prop === 'withSession' || prop === 'prepare')
            return () => {
              throw new TypeError('D1 is unreachable (test)');
            };
          return Reflect.get(target, prop);
        },
      }),
    };
    let res!: Response;
    const lines = await linesDuring(async () => {
      res = await fetchWith(broken, '/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@test.example', password: 'secret-pass', clientType: 0 }),
      });
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ message: 'Something went wrong', code: 'somethingWrong' });
    expect(text).not.toMatch(/D1 is unreachable|at |stack/);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    const mine = lines.filter((l) => l.requestId === requestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 'error', event: 'request', status: 500, route: expect.any(String), method: 'POST' });
    expect(mine[0]!.error.message).toBe('D1 is unreachable (test)');
    expect(mine[0]!.error.stack).toMatch(/TypeError: D1 is unreachable \(test\)\n\s+at /);
    // nothing else about it: one line
    expect(lines.filter((l) => JSON.stringify(l).includes('D1 is unreachable'))).toHaveLength(1);
  });
});

describe('GET /api/health (decision 0149)', () => {
  it('answers 200 {ok: true} after checking D1, KV and each Durable Object namespace', async () => {
    const res = await call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, checks: { d1: 'ok', kv: 'ok', PAYMENT_ORDER: 'ok', CLICK_COUNTER: 'ok', RATE_LIMITER: 'ok', TEAM_LIVE: 'ok' } });
  });

  it('answers 503 naming each broken binding, with its error, and the others ok', async () => {
    const brokenKv = { get: () => Promise.reject(new Error('KV is down (test)')) };
    const brokenDo = {
      idFromName: () => {
        throw new Error('no such Durable Object namespace (test)');
      },
    };
    const res = await fetchWith({ LINKS_KV: brokenKv, RATE_LIMITER: brokenDo }, '/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ok: false,
      message: 'Unhealthy: kv, RATE_LIMITER',
      checks: {
        d1: 'ok',
        kv: 'KV is down (test)',
        PAYMENT_ORDER: 'ok',
        CLICK_COUNTER: 'ok',
        RATE_LIMITER: 'no such Durable Object namespace (test)',
        TEAM_LIVE: 'ok',
      },
    });
    const d1Down = await fetchWith(
      {
        DB: {
          ...testEnv.DB,
          withSession: testEnv.DB.withSession.bind(testEnv.DB),
          prepare: () => ({ first: () => Promise.reject(new Error('D1 is down (test)')) }),
        },
      },
      '/api/health',
    );
    expect(d1Down.status).toBe(503);
    expect(await d1Down.json()).toMatchObject({ ok: false, message: 'Unhealthy: d1', checks: { d1: 'DB: D1 is down (test)', kv: 'ok' } });
  });
});
