import { expect, test } from './fixtures';
import { baseURL } from './helpers';

/** The SPA's own security headers, as a browser receives them from the static-asset server. */
test.describe('SPA security headers', () => {
  for (const path of ['/', '/users', '/detail/abc']) {
    test(`${path} carries the CSP, frame and sniffing protections`, async () => {
      const res = await fetch(`${baseURL()}${path}`, { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    });
  }

  test('routes /api and /s to the worker even for a browser navigation', async () => {
    const api = await fetch(`${baseURL()}/api/health`, { headers: { 'sec-fetch-mode': 'navigate' } });
    // the worker's health answer (it names each binding it checked), not the SPA's HTML
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ ok: true, checks: { d1: 'ok', kv: 'ok' } });
    const short = await fetch(`${baseURL()}/s/no-such-code`, { headers: { 'sec-fetch-mode': 'navigate' }, redirect: 'manual' });
    expect(short.status).toBe(404);
    expect(await short.text()).not.toContain('<div id="root">');
  });
});
