import { useCallback, useRef } from 'react';

/**
 * For a hand-written table: writes each header's text into its column's cells as `data-label`,
 * which the narrow-screen card layout (`table.cards-narrow` in styles.css) shows before the
 * value, and keeps it so as rows change. DataTable writes its labels itself.
 */
export function useColumnLabels<T extends HTMLTableElement>() {
  const observer = useRef<MutationObserver | null>(null);
  return useCallback((table: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!table) return;
    const label = () => {
      const heads = [...table.querySelectorAll('thead tr:first-child th')].map((th) => (th.textContent ?? '').trim());
      for (const row of table.querySelectorAll('tbody tr')) {
        [...row.children].forEach((cell, i) => {
          const text = heads[i] ?? '';
          if (cell.getAttribute('data-label') !== text) cell.setAttribute('data-label', text);
        });
      }
    };
    label();
    observer.current = new MutationObserver(label);
    observer.current.observe(table, { childList: true, subtree: true });
  }, []);
}
