import { createApi } from '../../../web/lib/api';
import { BOOKMARK_HEADER, newerBookmark } from '../../../worker/lib/bookmark';
import type { Refusal } from '../shared/refusal';

/**
 * The newest D1 bookmark the server gave this service worker, sent with every call so a read
 * served by a replica includes the user's own writes (docs/decisions/0142-d1-bookmark-header.md).
 * Kept in memory only: a restarted service worker starts without one, long after any replica
 * has caught up with its last write.
 */
let newestBookmark: string | null = null;

/**
 * What a 401 from any call does: set once at start (index.ts) to end the session and tell every
 * board tab. The one place a session ended elsewhere is learned, whichever call heard it.
 */
let sessionEnded: (token: string) => Promise<void> = async () => undefined;
export function onSessionEnded(handler: (token: string) => Promise<void>) {
  sessionEnded = handler;
}
/** The session of `token` ended elsewhere (a 401, or the live socket closed for it): told once, at once. */
export const endSession = (token: string) => sessionEnded(token);

/** How long a call may take before it counts as no answer. */
const REQUEST_TIMEOUT_MS = 20_000;

/** No answer from the server (offline, stopped, DNS): the action waits in the queue. */
export class Unreachable extends Error {
  constructor() {
    super('The server cannot be reached');
  }
}

/** The server answered 401: the session ended (signed out elsewhere, password changed). */
export class SignInAgain extends Error {
  constructor() {
    super('Sign in again');
  }
}

/** Any other refusal, with the server's `message` ('Something went wrong' without one). */
export class Refused extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The code and values the API answered beside the message. */
    readonly coded: Pick<Refusal, 'code' | 'params'> = {},
  ) {
    super(message);
  }

  get refusal(): Refusal {
    return { message: this.message, ...this.coded };
  }
}

/** A refusal worth retrying later rather than dropping: the server is busy or broken. */
export const isTransient = (err: unknown) => err instanceof Unreachable || (err instanceof Refused && (err.status === 429 || err.status >= 500));

/**
 * The extension's fetch wrapper under the typed API clients (the web app's `createApi`, typed from
 * the worker's routes): the bearer token from the service worker's storage and the newest D1 bookmark; a network failure
 * raises `Unreachable`, a 401 ends the session (`endSession`) and raises `SignInAgain`, any other failure `Refused`
 * with the server's message.
 */
export function extensionApi(apiUrl: string, token: string | null) {
  const wrapped: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('accept', 'application/json');
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (newestBookmark) headers.set(BOOKMARK_HEADER, newestBookmark);
    let res: Response;
    try {
      // a request that hangs (a dropped connection) counts as no answer: the queue retries it
      res = await fetch(input, { ...init, headers, credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch {
      throw new Unreachable();
    }
    newestBookmark = newerBookmark(newestBookmark, res.headers.get(BOOKMARK_HEADER));
    if (res.status === 401 && token) {
      // the board hears it now, not at the next sync that happens to tell it
      await endSession(token);
      throw new SignInAgain();
    }
    // 304: the caller sent If-None-Match and keeps what it has
    if (!res.ok && res.status !== 304) {
      const data = (await res.json().catch(() => null)) as { message?: unknown; code?: unknown; params?: unknown } | null;
      const coded = {
        ...(typeof data?.code === 'string' ? { code: data.code } : {}),
        ...(data?.params && typeof data.params === 'object' ? { params: data.params as Refusal['params'] } : {}),
      };
      throw new Refused(typeof data?.message === 'string' && data.message ? data.message : 'Something went wrong', res.status, coded);
    }
    return res;
  };
  return createApi(apiUrl.replace(/\/+$/, ''), wrapped);
}

export type ExtensionApi = ReturnType<typeof extensionApi>;
