// A stand-in for Resend's send call (POST /emails) on the loopback address, for the tests: it
// answers like Resend (200 {id}; a repeated Idempotency-Key within its memory gets the first
// answer and sends nothing again) and can be told, per recipient domain, to refuse every send
// for now (503, an outage), to reject it for good (422), or to accept again. It records every
// call and every mail it "delivered", which the tests read back.
//   POST /emails                      the provider's call
//   POST /control {domain, mode}      mode: accept | refuse | reject
//   GET  /deliveries?domain=d         {attempts, refused, rejected, deliveries: [{to, subject, key}], replays}
// It also stands in for Sentry's ingest (a DSN pointing at it): POST /api/<project>/envelope/ is
// kept, and GET /sentry?project=p answers the envelopes received for that project.
import http from 'node:http';

/** Starts the stub on 127.0.0.1 (port 0: a free one); answers its URL and a stop function. */
export async function startMailStub({ apiKey = 'test-mail-key', port = 0 } = {}) {
  const modes = new Map();
  const byDomain = new Map();
  const keys = new Map();
  const envelopes = new Map();
  const stats = (domain) => {
    if (!byDomain.has(domain)) byDomain.set(domain, { attempts: 0, refused: 0, rejected: 0, replays: 0, deliveries: [] });
    return byDomain.get(domain);
  };
  const send = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://stub');
    try {
      if (req.method === 'POST' && url.pathname === '/emails') {
        if (req.headers.authorization !== `Bearer ${apiKey}`) return send(res, 401, { message: 'API key is invalid' });
        const body = JSON.parse(raw);
        const to = Array.isArray(body.to) ? body.to[0] : body.to;
        const domain = String(to).split('@')[1] ?? '';
        const key = req.headers['idempotency-key'];
        const s = stats(domain);
        s.attempts++;
        const mode = modes.get(domain) ?? 'accept';
        if (mode === 'refuse') {
          s.refused++;
          return send(res, 503, { message: 'Service unavailable (stub outage)' });
        }
        if (mode === 'reject') {
          s.rejected++;
          return send(res, 422, { message: `The to address is invalid: ${to}` });
        }
        if (key && keys.has(key)) {
          s.replays++;
          return send(res, 200, { id: keys.get(key) });
        }
        const id = `stub-${keys.size + 1}-${Date.now()}`;
        if (key) keys.set(key, id);
        s.deliveries.push({ to, subject: body.subject, key: key ?? null, from: body.from, hasHtml: !!body.html, hasText: !!body.text });
        return send(res, 200, { id });
      }
      const sentry = /^\/api\/(\w+)\/envelope\/?$/.exec(url.pathname);
      if (req.method === 'POST' && sentry) {
        envelopes.set(sentry[1], [...(envelopes.get(sentry[1]) ?? []), raw]);
        return send(res, 200, { id: 'stub' });
      }
      if (req.method === 'GET' && url.pathname === '/sentry') return send(res, 200, envelopes.get(url.searchParams.get('project') ?? '') ?? []);
      if (req.method === 'POST' && url.pathname === '/control') {
        const { domain, mode } = JSON.parse(raw);
        modes.set(domain, mode);
        return send(res, 200, { ok: true });
      }
      if (req.method === 'GET' && url.pathname === '/deliveries') return send(res, 200, stats(url.searchParams.get('domain') ?? ''));
      send(res, 404, { message: 'Not found' });
    } catch (err) {
      send(res, 400, { message: String(err) });
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  server.unref();
  const { port: bound } = server.address();
  return { url: `http://127.0.0.1:${bound}`, apiKey, stop: () => new Promise((resolve) => server.close(resolve)) };
}
