import { useCallback, useState } from 'react';
import { errorText } from '../i18n/errors';
import { t } from '../i18n/startup';
import { isLoggedOut, requestIdOf } from './api-client';
import { useToast } from './toast';

/** The server's message goes in a toast (spec: most calls show it, then clear it); a 401 shows nothing. */
export function useRequest() {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const run = useCallback(
    async <T>(fn: () => Promise<T>, opts: { success?: string | ((r: T) => string | undefined); silent?: boolean } = {}) => {
      setLoading(true);
      setError(null);
      try {
        const result = await fn();
        const message = typeof opts.success === 'function' ? opts.success(result) : opts.success;
        if (message) toast.show(message, 'success');
        return result;
      } catch (err) {
        if (!isLoggedOut(err)) {
          // in the user's language by the answer's code (docs/decisions/0023-languages.md)
          const message = errorText(err);
          setError(message);
          // the toast also names the request, for a support question; the message beside a form stays the spec's text
          const requestId = requestIdOf(err);
          if (!opts.silent) toast.show(requestId ? `${message} (${t('app.requestId')} ${requestId})` : message, 'error');
        }
        return undefined;
      } finally {
        setLoading(false);
      }
    },
    [toast],
  );
  const clearError = useCallback(() => setError(null), []);
  return { loading, error, clearError, run };
}
