import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';

/** What a board is told: something of this kind changed for its team; it fetches the rest itself. */
export type LiveSignalType = 'filters' | 'contacts';
export interface LiveSignal {
  type: LiveSignalType;
  /** When the change was made (ms since the epoch). */
  at: number;
}

/** What each socket keeps through hibernation: whose it is. */
interface Attachment {
  userId: string;
  sessionId: string;
}

/** The close code a socket gets when its session ends (sign-out, password change): sign in again. */
export const SESSION_ENDED_CLOSE = 4401;
/** The keep-alive a client sends; answered by the runtime without waking the object. */
export const LIVE_PING = 'ping';
export const LIVE_PONG = 'pong';

const userTag = (userId: string) => `u:${userId}`;
const sessionTag = (sessionId: string) => `s:${sessionId}`;

/**
 * One object per team (`idFromName(teamId)`) holding the open boards' and screens' WebSockets
 * through the WebSocket Hibernation API (docs/decisions/0162-live-signals.md). It
 * keeps nothing but the sockets: the Worker checks the session before a socket gets here, and
 * signals carry a kind and a time, never data. Idle, the object hibernates with its sockets open;
 * the clients' pings are answered by the runtime without waking it.
 */
export class TeamLive extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(LIVE_PING, LIVE_PONG));
  }

  /** The health check's call (worker/health.ts). */
  ping(): 'ok' {
    return 'ok';
  }

  /** An upgrade the Worker has authenticated: the user and session come in headers only the Worker sets. */
  // the Workers' Request, Response and WebSocket by names of their own (worker/runtime-names.d.ts):
  // the web's type check reads this file too, where the DOM's types hold the plain names
  async fetch(request: WorkerRequest): Promise<WorkerResponse> {
    const userId = request.headers.get('x-live-user');
    const sessionId = request.headers.get('x-live-session');
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket' || !userId || !sessionId) {
      return Response.json({ message: 'Expected a WebSocket upgrade' }, { status: 426 }) as unknown as WorkerResponse;
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [userTag(userId), sessionTag(sessionId)]);
    server.serializeAttachment({ userId, sessionId } satisfies Attachment);
    const protocol = request.headers.get('x-live-protocol');
    const init = { status: 101, webSocket: client, headers: protocol ? { 'sec-websocket-protocol': protocol } : {} };
    return new Response(null, init as ResponseInit) as unknown as WorkerResponse;
  }

  /** Tells every open socket of the team; answers how many were told. */
  signal(signal: LiveSignal): number {
    const message = JSON.stringify(signal);
    let told = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(message);
        told++;
      } catch {
        // a socket closing meanwhile: its close handler runs
      }
    }
    return told;
  }

  /**
   * Closes the sockets of an ended session, or of all the user's sessions but one (a password
   * change keeps the session it was made from); answers how many were closed.
   */
  endSessions(target: { sessionId: string } | { userId: string; exceptSessionId?: string }): number {
    const sockets = 'sessionId' in target ? this.ctx.getWebSockets(sessionTag(target.sessionId)) : this.ctx.getWebSockets(userTag(target.userId));
    let closed = 0;
    for (const ws of sockets) {
      const att = ws.deserializeAttachment() as Attachment | null;
      if ('exceptSessionId' in target && att?.sessionId === target.exceptSessionId) continue;
      try {
        ws.close(SESSION_ENDED_CLOSE, 'Session ended');
      } catch {
        // already closing
      }
      closed++;
    }
    return closed;
  }

  /** How many sockets are open, for the tests and the benchmark's check. */
  count(): number {
    return this.ctx.getWebSockets().length;
  }

  // a client sends nothing but pings (answered by the auto-response); anything else is ignored
  webSocketMessage(_ws: WorkerWebSocket, _message: string | ArrayBuffer) {}

  webSocketClose(ws: WorkerWebSocket, code: number, reason: string) {
    try {
      // completes the closing handshake the client started (1005/1006 cannot be sent back)
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }

  webSocketError(ws: WorkerWebSocket) {
    try {
      ws.close(1011, 'Socket error');
    } catch {
      // already closed
    }
  }
}
