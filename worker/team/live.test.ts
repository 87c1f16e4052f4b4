import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { randomId } from '../lib/ids';
import { addFilter, addMc, filterSave, teamWithMcs } from '../test/filters';
import { call, createUser, loginToken, PASSWORD, type TestUser, testEnv } from '../test/helpers';
import { liveOf } from './live';
import { SESSION_ENDED_CLOSE } from './team-live';

interface OpenSocket {
  ws: WebSocket;
  protocol: string | null;
  messages: { type: string; at: number }[];
  texts: string[];
  closed: { code: number } | null;
}

/** Opens /api/live as the extension and the web app do: the token as the second subprotocol. */
async function connect(token: string | null, headers: Record<string, string> = { upgrade: 'websocket' }) {
  const all = { ...headers, ...(token !== null ? { 'sec-websocket-protocol': `freightdesk.live, ${token}` } : {}) };
  const res = await SELF.fetch('http://localhost/api/live', { headers: all });
  if (res.status !== 101) return { status: res.status, body: (await res.json()) as { message: string }, socket: null };
  const ws = res.webSocket!;
  ws.accept();
  const socket: OpenSocket = { ws, protocol: res.headers.get('sec-websocket-protocol'), messages: [], texts: [], closed: null };
  ws.addEventListener('message', (e) => {
    const text = String(e.data);
    socket.texts.push(text);
    if (text.startsWith('{')) socket.messages.push(JSON.parse(text));
  });
  ws.addEventListener('close', (e) => {
    socket.closed = { code: e.code };
  });
  return { status: 101, body: null, socket };
}

async function open(user: TestUser | string) {
  const { socket, status } = await connect(typeof user === 'string' ? user : user.token);
  if (!socket) throw new Error(`live socket: ${status}`);
  return socket;
}

/** Waits until the check holds (the signal goes after the write's answer). */
async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /api/live: the team’s live signals', () => {
  it('checks the session on connect: 401 without a token or with a bad one, 403 for roles without filters, 426 without an upgrade', async () => {
    const { agents, director } = await teamWithMcs();
    expect(await connect(null)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    expect(await connect('not-a-token')).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    // the token under another subprotocol name is not taken
    const other = await SELF.fetch('http://localhost/api/live', { headers: { upgrade: 'websocket', 'sec-websocket-protocol': `chat, ${agents[0].token}` } });
    expect(other.status).toBe(401);
    expect((await connect(director.token)).status).toBe(403);
    const expired = await createUser('agent', { subscriptionDays: -1 });
    expect((await connect(expired.token)).status).toBe(403);
    const plain = await call('GET', '/api/live', { token: agents[0].token });
    expect(plain).toMatchObject({ status: 426, body: { message: 'Expected a WebSocket upgrade' } });
    const ok = await open(agents[0]);
    expect(ok.protocol).toBe('freightdesk.live');
    // the keep-alive is answered without waking the object
    ok.ws.send('ping');
    await until(() => ok.texts.includes('pong'));
    ok.ws.close(1000);
  });

  it('a filter written by the team reaches every board of the team and no other team’s; a logged contact says contacts', async () => {
    const team = await teamWithMcs();
    const other = await teamWithMcs();
    const [a, b, lead, stranger] = await Promise.all([open(team.agents[0]), open(team.agents[1]), open(team.manager), open(other.agents[0])]);
    const filterId = await addFilter(team.agents[0], filterSave(team));
    await until(() => b.messages.length > 0 && lead.messages.length > 0 && a.messages.length > 0);
    expect(b.messages[0]).toEqual({ type: 'filters', at: expect.any(Number) });
    // disabled by the lead: the same signal, nothing of the filter itself
    const toggled = await call('PUT', '/api/broker/update/isactive', { token: team.manager.token, body: { filterId } });
    expect(toggled.status).toBe(200);
    await until(() => b.messages.length === 2);
    expect(b.texts.every((t) => !t.includes('Acme') && !t.includes(filterId))).toBe(true);
    // a refused write (another team's filter) signals nothing
    const refused = await call('PUT', '/api/broker/update/isactive', { token: other.manager.token, body: { filterId } });
    expect(refused.status).toBe(404);
    // a logged contact
    const mc = await addMc(team.agents[0], { parentMc: team.mcB, lines: [2] });
    const logged = await call('POST', '/api/callHistory/log', {
      token: team.agents[0].token,
      body: { clientId: randomId(), mcSettingId: mc, kind: 'call', contact: '(513) 555-0142', brokerName: 'Total Quality Logistics' },
    });
    expect(logged.status).toBe(201);
    await until(() => b.messages.some((m) => m.type === 'contacts'));
    await pause(300);
    expect(b.messages.map((m) => m.type)).toEqual(['filters', 'filters', 'contacts']);
    expect(stranger.messages).toEqual([]);
    // the other team's own change reaches its board (its socket works)
    await addFilter(other.agents[0], filterSave(other));
    await until(() => stranger.messages.length === 1);
    await pause(200);
    expect(b.messages).toHaveLength(3);
    for (const s of [a, b, lead, stranger]) s.ws.close(1000);
  });

  it('30 boards of a team connect at once and 20 filters saved at once each reach all 30, 2 rounds', async () => {
    const team = await teamWithMcs();
    for (let round = 0; round < 2; round++) {
      const agents = await Promise.all(Array.from({ length: 5 }, () => createUser('agent', { parentId: team.manager.id })));
      const sockets = await Promise.all(Array.from({ length: 30 }, (_, i) => open(agents[i % agents.length]!)));
      const saves = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call('POST', '/api/broker/add', { token: team.manager.token, body: filterSave(team, { name: `Live ${round} ${i} ${randomId()}` }) }),
        ),
      );
      expect(saves.map((s) => s.status)).toEqual(Array(20).fill(200));
      await until(() => sockets.every((s) => s.messages.length === 20), 10_000);
      expect(await liveOf(testEnv, team.manager.id).count()).toBeGreaterThanOrEqual(30);
      for (const s of sockets) s.ws.close(1000);
    }
  });

  it('signing out closes that session’s sockets only; a password change closes the user’s other sessions’ sockets', async () => {
    const team = await teamWithMcs();
    const agent = team.agents[1];
    const [first, second, third] = [await loginToken(agent.email), await loginToken(agent.email), await loginToken(agent.email)];
    const [s1, s2, s3, teammate] = await Promise.all([open(first), open(second), open(third), open(team.agents[0])]);
    expect((await call('POST', '/api/auth/logout', { token: first })).status).toBe(200);
    await until(() => s1.closed !== null);
    expect(s1.closed).toEqual({ code: SESSION_ENDED_CLOSE });
    // the token cannot open a new one
    expect((await connect(first)).status).toBe(401);
    // the password changed from the second session: the third's socket closes, the second's stays
    const changed = await call('PUT', `/api/user/update/password/${agent.id}`, {
      token: second,
      body: { currentPassword: PASSWORD, newPassword: 'another-pass-1' },
    });
    expect(changed.status).toBe(200);
    await until(() => s3.closed !== null);
    expect(s3.closed).toEqual({ code: SESSION_ENDED_CLOSE });
    await pause(200);
    expect(s2.closed).toBeNull();
    expect(teammate.closed).toBeNull();
    // the remaining sockets still get the team's signals
    await addFilter(team.manager, filterSave(team));
    await until(() => s2.messages.length === 1 && teammate.messages.length === 1);
    s2.ws.close(1000);
    teammate.ws.close(1000);
  });
});
