import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../app';
import { GENERAL_MESSAGES } from '../lib/common-messages';
import { call, createUser, errorBody, testEnv } from '../test/helpers';

/** Security headers on API answers, and no secret or stack trace in any error body. */
describe('API response headers', () => {
  it('answers with nosniff, a deny-all CSP, frame-ancestors none, a strict referrer policy and no-store', async () => {
    const user = await createUser('manager');
    for (const res of [await call('GET', '/api/subscription/status', { token: user.token }), await call('GET', '/api/health')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    }
  });

  it('adds HSTS only in production', async () => {
    expect((await call('GET', '/api/health')).headers.get('strict-transport-security')).toBeNull();
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request('http://localhost/api/health'), { ...testEnv, ENVIRONMENT: 'production' }, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
  });

  it('hides the dev outbox in production', async () => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request('http://localhost/api/dev/outbox'), { ...testEnv, ENVIRONMENT: 'production' }, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(404);
  });

  it('never puts a stack trace or a secret in an error body', async () => {
    const answers = [
      await call('POST', '/api/auth/login', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }),
      await call('GET', '/api/user', { token: 'not-a-token' }),
      await call('GET', '/api/does-not-exist'),
      await call('POST', '/api/auth/login', { body: { email: 'x'.repeat(10_000), password: 1 } }),
    ];
    // the message, and the code of the entry thrown when there was one (Hono's and zod's own texts have none); nothing else
    expect(answers.map((res) => [res.status, res.body])).toEqual([
      [400, { message: expect.stringContaining('JSON') }],
      [401, { message: 'Unauthorized' }],
      [404, errorBody(GENERAL_MESSAGES.notFound)],
      [400, { message: expect.stringContaining('320') }],
    ]);
    for (const res of answers) {
      for (const secret of [testEnv.JWT_SECRET!, testEnv.PASSWORD_PEPPER!, testEnv.IDRAM_SECRET_KEY!]) expect(res.text).not.toContain(secret);
      expect(res.text).not.toMatch(/at \w+ \(|\.ts:\d+/);
    }
  });
});
