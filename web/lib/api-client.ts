import { BOOKMARK_HEADER, newerBookmark } from '../../worker/lib/bookmark';
import { GENERAL_MESSAGES } from '../../worker/lib/common-messages';
import { createApi } from './api';
import { getSession, setSession } from './session';

const BOOKMARK_KEY = 'd1Bookmark';
let bookmarkInMemory: string | null = null;

/**
 * Sent with every call so a replica's read includes the user's own last write
 * (docs/decisions/0142-d1-bookmark-header.md); in localStorage so another tab's write counts too.
 */
export function currentBookmark(): string | null {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(BOOKMARK_KEY);
  } catch {
    stored = null;
  }
  return newerBookmark(bookmarkInMemory, stored);
}

/** Keeps an answer's bookmark when it is newer than the one kept (answers to parallel calls arrive in any order). */
function keepBookmark(received: string | null) {
  const current = currentBookmark();
  const newest = newerBookmark(current, received);
  if (!newest || newest === current) return;
  bookmarkInMemory = newest;
  try {
    localStorage.setItem(BOOKMARK_KEY, newest);
  } catch {
    // storage full or refused: the copy in memory serves this tab
  }
}

/** Raised for a 401: the session is already cleared, and screens show no error for it. */
export class LoggedOutError extends Error {
  constructor() {
    super('');
    this.name = 'LoggedOutError';
  }
}

export const isLoggedOut = (err: unknown) => err instanceof LoggedOutError;

/** The response header naming the request, for a support question ("request id …"); read when the server sends it. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Status 0: no answer at all (offline, or the server could not be reached). */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly data: Record<string, unknown> | null,
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** What a call that got no answer says: offline is said as such, so the person knows it is not the data. */
export const OFFLINE_MESSAGE = 'You are offline: this needs a connection. Try again when you are back online.';
export const UNREACHABLE_MESSAGE = 'Something went wrong: the server could not be reached. Try again.';

const SOMETHING_WRONG = GENERAL_MESSAGES.somethingWrong;

export const requestIdOf = (err: unknown) => (err instanceof ApiFailure ? err.requestId : null);

/** Any 401 while signed in clears the session and raises LoggedOutError, which screens do not show. */
export const apiFetch: typeof fetch = async (input, init) => {
  const session = getSession();
  const headers = new Headers(init?.headers);
  headers.set('accept', 'application/json');
  if (session?.token) headers.set('authorization', `Bearer ${session.token}`);
  const bookmark = currentBookmark();
  if (bookmark) headers.set(BOOKMARK_HEADER, bookmark);
  let res: Response;
  try {
    res = await fetch(input, { ...init, headers });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiFailure(typeof navigator !== 'undefined' && navigator.onLine === false ? OFFLINE_MESSAGE : UNREACHABLE_MESSAGE, 0, null);
  }
  keepBookmark(res.headers.get(BOOKMARK_HEADER));
  if (res.status === 401 && session) {
    setSession(null);
    throw new LoggedOutError();
  }
  if (!res.ok) {
    const data = await res.json().catch(() => null);
    // an answer without the API's error body (a proxy's page): the API's own 500, by its code
    const answer = data && typeof data.message === 'string' && data.message ? data : { message: SOMETHING_WRONG.text, code: SOMETHING_WRONG.code };
    throw new ApiFailure(answer.message, res.status, answer, res.headers.get(REQUEST_ID_HEADER));
  }
  return res;
};

export const api = createApi(window.location.origin, apiFetch);
