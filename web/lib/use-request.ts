import { useCallback, useState } from 'react';
import { isLoggedOut } from './api-client';
import { useToast } from '../components/ui/toast';

/**
 * Request state for a mutation: `loading` while it runs; the server's message is shown in a
 * toast (spec: most calls show the server message, then clear it). A 401 shows nothing.
 */
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
          const message = err instanceof Error && err.message ? err.message : 'Something went wrong';
          setError(message);
          if (!opts.silent) toast.show(message, 'error');
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
