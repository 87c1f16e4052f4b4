import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

/**
 * State kept in the query string (rule 0133), so a reload, Back and a shared link show the
 * same view. Writes replace the current history entry (typing a search adds no Back steps) and
 * several writes in one tick land together: each starts from the URL as the others left it.
 */
let pending: URLSearchParams | null = null;

export function useUrlParams() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const update = useCallback(
    (change: (params: URLSearchParams) => void) => {
      if (!pending) {
        pending = new URLSearchParams(window.location.search);
        queueMicrotask(() => {
          const next = pending;
          pending = null;
          if (!next) return;
          const search = next.toString();
          if (search === window.location.search.replace(/^\?/, '')) return;
          navigate(
            { pathname: window.location.pathname, search: search ? `?${search}` : '', hash: window.location.hash },
            { replace: true, preventScrollReset: true },
          );
        });
      }
      change(pending);
    },
    [navigate],
  );
  return [params, update] as const;
}

/** One text value in the query string under `key`; empty (or the fallback) removes it. */
export function useUrlState(key: string, fallback = ''): [string, (value: string) => void] {
  const [params, update] = useUrlParams();
  const value = params.get(key) ?? fallback;
  const set = useCallback(
    (next: string) =>
      update((p) => {
        if (next === '' || next === fallback) p.delete(key);
        else p.set(key, next);
      }),
    [update, key, fallback],
  );
  return [value, set];
}
