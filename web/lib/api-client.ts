import { getSession, setSession } from './session';

/** Raised for a 401: the session is already cleared, and screens show no error for it. */
export class LoggedOutError extends Error {
  constructor() {
    super('');
    this.name = 'LoggedOutError';
  }
}

export const isLoggedOut = (err: unknown) => err instanceof LoggedOutError;

/**
 * The one fetch wrapper: JSON in and out, the bearer token, the response's `message` (or
 * 'Something went wrong') raised as the error, and any 401 logs the user out silently.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const session = getSession();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (session?.token) headers.authorization = `Bearer ${session.token}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Error('Something went wrong');
  }
  if (res.status === 401 && session) {
    setSession(null);
    throw new LoggedOutError();
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const message = data && typeof data.message === 'string' && data.message ? data.message : 'Something went wrong';
    throw new Error(message);
  }
  return data as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body ?? {});
export const del = <T>(path: string, body?: unknown) => api<T>('DELETE', path, body ?? {});

/** SWR's fetcher: the key is the GET path. */
export const fetcher = <T>(path: string) => get<T>(path);
