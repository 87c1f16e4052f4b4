import type { ReactNode } from 'react';
import { isLoggedOut, requestIdOf } from '../../lib/api-client';
import { useOnline } from '../../lib/online';
import { Spinner } from './spinner';

/** What a screen's read gives this pattern: SWR's answer, or anything shaped like it. */
export interface ReadState<T> {
  data: T | undefined;
  error?: unknown;
  isLoading?: boolean;
  isValidating?: boolean;
  mutate: () => Promise<unknown>;
}

const messageOf = (error: unknown) => {
  const text = error instanceof Error && error.message ? error.message : 'Something went wrong';
  return /[.!?]$/.test(text) ? text : `${text}.`;
};

/**
 * A failed read, said as such (issue 34 item 1): what could not be loaded, the server's message,
 * the request id when the server sent one (`X-Request-Id`), and Retry. `compact` is the line
 * shown above data that is still on screen from before.
 */
export function RequestFailed({ what, error, onRetry, compact = false }: { what: string; error: unknown; onRetry: () => void; compact?: boolean }) {
  const requestId = requestIdOf(error);
  return (
    <div className={`request-failed${compact ? ' request-failed-compact' : ''}`} role="alert" data-testid="request-failed">
      <div className="request-failed-text">
        <strong>Could not load {what}.</strong> <span>{messageOf(error)}</span>
        {compact && <span> Showing what was loaded before.</span>}
        {requestId && (
          <span className="request-id" data-testid="request-id">
            {' '}
            Request id: <code>{requestId}</code>
          </span>
        )}
      </div>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/**
 * The one request-state pattern for a screen's reads: loading (a spinner), failed (RequestFailed,
 * never an empty list), or the data (`children`; an empty list is the child's own empty state).
 * A read that fails after data was shown keeps that data under a one-line failure with Retry.
 * A 401 shows nothing: the session is already cleared and the login page follows.
 */
export function Loaded<T>({ what, state, children, loading }: { what: string; state: ReadState<T>; children: (data: T) => ReactNode; loading?: ReactNode }) {
  const { data, error } = state;
  const retry = () => void state.mutate();
  const failed = error !== undefined && error !== null && !isLoggedOut(error);
  if (data === undefined) {
    if (failed) return <RequestFailed what={what} error={error} onRetry={retry} />;
    return <>{loading ?? <Spinner label={`Loading ${what}`} />}</>;
  }
  return (
    <>
      {failed && <RequestFailed what={what} error={error} onRetry={retry} compact />}
      {children(data)}
    </>
  );
}

/** The banner while the browser is offline: said once for the whole app, above every screen. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      You are offline. What is on screen may be out of date, and saving or paying waits until the connection is back.
    </div>
  );
}

/** A read with no data yet: its spinner, or its failure with Retry (for `if (!data) return <Pending … />`). */
export function Pending({ what, state }: { what: string; state: ReadState<unknown> }) {
  return (
    <Loaded what={what} state={{ ...state, data: undefined }}>
      {() => null}
    </Loaded>
  );
}
