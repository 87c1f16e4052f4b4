import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/errors';
import { isLoggedOut, requestIdOf } from '../../lib/api-client';
import { Spinner } from './spinner';

export interface ReadState<T> {
  data: T | undefined;
  error?: unknown;
  isLoading?: boolean;
  isValidating?: boolean;
  mutate: () => Promise<unknown>;
}

/** The server's message, in the user's language when it came with a code, ending as a sentence. */
const messageOf = (error: unknown) => {
  const text = errorText(error);
  return /[.!?։]$/.test(text) ? text : `${text}.`;
};

/**
 * A failed read, said as such (decision 0018). `what` is the object of "Could not load …", so the
 * screen translates it in that case (accusative in Russian: "подписки вашей команды").
 */
export function RequestFailed({ what, error, onRetry, compact = false }: { what: string; error: unknown; onRetry: () => void; compact?: boolean }) {
  const requestId = requestIdOf(error);
  const { t } = useTranslation();
  return (
    <div className={`request-failed${compact ? ' request-failed-compact' : ''}`} role="alert" data-testid="request-failed">
      <div className="request-failed-text">
        <strong>{t('common.request.failed', { what })}</strong> <span>{messageOf(error)}</span>
        {compact && <span> {t('common.request.loadedBefore')}</span>}
        {requestId && (
          <span className="request-id" data-testid="request-id">
            {' '}
            {t('common.request.requestId')} <code>{requestId}</code>
          </span>
        )}
      </div>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('common.request.retry')}
      </button>
    </div>
  );
}

/**
 * Never an empty list for a failed read (decision 0018); a read that fails after data was shown keeps
 * that data under a one-line failure. A 401 shows nothing: the login page follows.
 */
export function Loaded<T>({ what, state, children, loading }: { what: string; state: ReadState<T>; children: (data: T) => ReactNode; loading?: ReactNode }) {
  const { data, error } = state;
  const { t } = useTranslation();
  const retry = () => void state.mutate();
  const failed = error !== undefined && error !== null && !isLoggedOut(error);
  if (data === undefined) {
    if (failed) return <RequestFailed what={what} error={error} onRetry={retry} />;
    return <>{loading ?? <Spinner label={t('common.request.loading', { what })} />}</>;
  }
  return (
    <>
      {failed && <RequestFailed what={what} error={error} onRetry={retry} compact />}
      {children(data)}
    </>
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
