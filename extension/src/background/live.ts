/** Live signals: a socket to the team's live object while a board is open. */

import { SYNC_ALARM, SYNC_MINUTES } from './alarms';
import { endSession } from './api';
import { desk } from './desk';
import { apiUrlOf, BOARD_ROLES, read, type Stored } from './store';

/** The subprotocol the server's /api/live names; the token follows it (a browser cannot set Authorization on a WebSocket). */
const LIVE_PROTOCOL = 'freightdesk.live';
/** The socket's keep-alive: WebSocket activity keeps an MV3 service worker alive (Chrome 116+), and idle sockets are not dropped by proxies. */
const LIVE_PING_MS = 20_000;
/** While the socket cannot connect, the filters are synced this often instead of every SYNC_MINUTES. */
const FALLBACK_MINUTES = 1;
const LIVE_RETRY_MAX_MS = 30_000;
/** The server closes a socket with this code when its session ends: the next call answers 401. */
const SESSION_ENDED_CLOSE = 4401;

let liveSocket: WebSocket | null = null;
export let liveState: 'on' | 'off' | null = null;
let livePing: ReturnType<typeof setInterval> | null = null;
let liveRetry: ReturnType<typeof setTimeout> | null = null;
let liveDelay = 1000;

function liveUrl(s: Stored): string {
  const url = new URL('/api/live', apiUrlOf(s));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

async function setLive(next: 'on' | 'off' | null) {
  if (liveState === next) return;
  liveState = next;
  // off: the filters' ETag sync every minute stands in for the signals; on: back to every 5 minutes
  if (next !== null && (await read()).token) await chrome.alarms.create(SYNC_ALARM, { periodInMinutes: next === 'off' ? FALLBACK_MINUTES : SYNC_MINUTES });
  await desk.pushState();
}

/** Closes the socket on purpose (signed out, no board open): no retry. */
export function closeLive() {
  if (liveRetry) clearTimeout(liveRetry);
  liveRetry = null;
  if (livePing) clearInterval(livePing);
  livePing = null;
  const ws = liveSocket;
  liveSocket = null;
  if (ws) {
    ws.onclose = null;
    ws.close(1000);
  }
  liveState = null;
}

/** Opens the socket while the user is signed in and a board tab is open; closes it otherwise. */
export async function updateLive() {
  const s = await read();
  const wanted = !!s.token && !!s.user && BOARD_ROLES.has(s.user.userType) && (await desk.boardTabs()).length > 0;
  if (!wanted) {
    if (liveSocket || liveState) {
      closeLive();
      await desk.pushState();
    }
    return;
  }
  if (liveSocket || liveRetry) return;
  let ws: WebSocket;
  try {
    ws = new WebSocket(liveUrl(s), [LIVE_PROTOCOL, s.token!]);
  } catch {
    return liveLost(null);
  }
  liveSocket = ws;
  const token = s.token!;
  ws.onopen = () => {
    liveDelay = 1000;
    livePing = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('ping'), LIVE_PING_MS);
    void setLive('on');
    // whatever changed while the socket was down
    void desk.sync();
  };
  ws.onmessage = (event) => {
    if (typeof event.data !== 'string' || !event.data.startsWith('{')) return;
    const signal = JSON.parse(event.data) as { type?: string };
    if (signal.type === 'filters') void syncAfter(desk.syncing, desk.sync);
    else if (signal.type === 'contacts') void syncAfter(desk.syncingContacts, desk.syncContacts);
  };
  ws.onclose = (event) => {
    // the server closed it because this socket's session ended: that is the news, whatever else is under way
    // (a newer session's socket opens again then)
    if (event.code === SESSION_ENDED_CLOSE) void endSession(token).then(updateLive);
    if (liveSocket === ws) liveLost(event.code);
  };
}

/**
 * Syncs after a change the server just signalled: a sync already under way may have read the
 * server before the change, so it is waited for and a new one runs.
 */
export async function syncAfter(running: () => Promise<void> | null, run: () => Promise<void>) {
  const current = running();
  if (current) await current.catch(() => undefined);
  await run();
}

/** The socket closed or could not open: sync every minute, say so, and try again later (1 s, 2 s, 4 s, … 30 s). */
function liveLost(code: number | null) {
  if (livePing) clearInterval(livePing);
  livePing = null;
  liveSocket = null;
  // the session ended (told above): no retry with its token
  if (code === SESSION_ENDED_CLOSE) return;
  void setLive('off');
  const delay = liveDelay;
  liveDelay = Math.min(liveDelay * 2, LIVE_RETRY_MAX_MS);
  liveRetry = setTimeout(() => {
    liveRetry = null;
    void updateLive();
  }, delay);
}
