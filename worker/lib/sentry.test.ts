import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import worker from '../index';
import { testEnv } from '../test/helpers';

/** Sentry's ingest stand-in: the mail stub keeps the envelopes posted to a DSN that points at it (scripts/mail-stub.mjs). */
const STUB = (testEnv as unknown as { MAIL_STUB_URL: string }).MAIL_STUB_URL;
const envelopes = async (project: string): Promise<string[]> => (await fetch(`${STUB}/sentry?project=${project}`)).json();

/** A control plane that throws: a login, which looks the e-mail up there, answers 500. */
const brokenDb = new Proxy(testEnv.DB, {
  get(target, prop) {
    if (prop === 'withSession' || prop === 'prepare')
      return () => {
        throw new TypeError('D1 is unreachable (sentry test)');
      };
    return Reflect.get(target, prop);
  },
});

async function failingRequest(env: object) {
  const ctx = createExecutionContext();
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  const res = await worker.fetch!(
    new Request('http://localhost/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@test.example', password: 'secret-pass', clientType: 0 }),
    }) as Request<unknown, IncomingRequestCfProperties>,
    { ...testEnv, DB: brokenDb, ...env } as never,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  quiet.mockRestore();
  return res;
}

describe('error tracking with @sentry/cloudflare (decision 0148)', () => {
  it('reports a 5xx, tagged with its request id, when SENTRY_DSN is set', async () => {
    const project = String(Math.floor(Math.random() * 1e9));
    const dsn = `${STUB.replace('://', '://publickey@')}/${project}`;
    const res = await failingRequest({ SENTRY_DSN: dsn });
    expect(res.status).toBe(500);
    const requestId = res.headers.get('x-request-id')!;
    let got: string[] = [];
    for (let i = 0; i < 50 && got.length === 0; i++) {
      got = await envelopes(project);
      if (!got.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(got.length).toBeGreaterThanOrEqual(1);
    const all = got.join('\n');
    expect(all).toContain('D1 is unreachable (sentry test)');
    expect(all).toContain(requestId);
  });

  it('sends nothing, and runs no Sentry code, when SENTRY_DSN is not set', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const res = await failingRequest({ SENTRY_DSN: '' });
    expect(res.status).toBe(500);
    expect(fetchSpy.mock.calls.filter(([url]) => String(url instanceof Request ? url.url : url).includes('/envelope'))).toHaveLength(0);
  });
});
