import { createApi } from './api';
import { getSession, setSession } from './session';

/** Raised for a 401: the session is already cleared, and screens show no error for it. */
export class LoggedOutError extends Error {
  constructor() {
    super('');
    this.name = 'LoggedOutError';
  }
}

export const isLoggedOut = (err: unknown) => err instanceof LoggedOutError;

/** A refused call: its `message`, status, and the other fields of the answer (a duplicate's `existingFilterId`). */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly data: Record<string, unknown> | null,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/**
 * The one fetch wrapper, under every API client: the bearer token; any 401 while signed in
 * clears the session and raises LoggedOutError (screens show nothing for it); any other failure
 * raises the response's `message`, or 'Something went wrong' (also when the network fails).
 * A successful response comes back untouched, for the client to read.
 */
export const apiFetch: typeof fetch = async (input, init) => {
  const session = getSession();
  const headers = new Headers(init?.headers);
  headers.set('accept', 'application/json');
  if (session?.token) headers.set('authorization', `Bearer ${session.token}`);
  let res: Response;
  try {
    res = await fetch(input, { ...init, headers });
  } catch {
    throw new Error('Something went wrong');
  }
  if (res.status === 401 && session) {
    setSession(null);
    throw new LoggedOutError();
  }
  if (!res.ok) {
    const data = await res.json().catch(() => null);
    throw new ApiFailure(data && typeof data.message === 'string' && data.message ? data.message : 'Something went wrong', res.status, data);
  }
  return res;
};

/** The web app's API clients (lib/api.ts) on its own origin, through the wrapper above. */
export const api = createApi(window.location.origin, apiFetch);
