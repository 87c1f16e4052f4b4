import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { useSession } from './session';

/** The subprotocol /api/live names; the token follows it (a browser cannot set Authorization on a WebSocket). */
const LIVE_PROTOCOL = 'freightdesk.live';
const PING_MS = 20_000;
const RETRY_MAX_MS = 60_000;
/** The server's close code for an ended session: no retry (the next call answers 401 and signs out). */
const SESSION_ENDED_CLOSE = 4401;

/** Whether an SWR key reads the team's filters (the filter lists, the queue and its badge): `/api/broker…`. */
const readsFilters = (key: unknown) => (typeof key === 'string' ? key : Array.isArray(key) ? String(key[0]) : '').startsWith('/api/broker');

/** docs/decisions/0162-live-signals.md. Optional: a socket that cannot connect retries with backoff, and the screens keep their own refreshes. */
export function useLiveSignals(enabled: boolean) {
  const token = useSession()?.token ?? null;
  const { mutate } = useSWRConfig();
  useEffect(() => {
    if (!enabled || !token || typeof WebSocket === 'undefined') return;
    let socket: WebSocket | null = null;
    let ping: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    let stopped = false;
    const open = () => {
      const url = new URL('/api/live', window.location.origin);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(url, [LIVE_PROTOCOL, token]);
      socket = ws;
      ws.onopen = () => {
        delay = 1000;
        ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('ping'), PING_MS);
      };
      ws.onmessage = (event) => {
        if (typeof event.data !== 'string' || !event.data.startsWith('{')) return;
        const signal = JSON.parse(event.data) as { type?: string };
        if (signal.type === 'filters') void mutate(readsFilters);
      };
      ws.onclose = (event) => {
        clearInterval(ping);
        if (stopped || event.code === SESSION_ENDED_CLOSE) return;
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(ping);
      socket?.close(1000);
    };
  }, [enabled, token, mutate]);
}
