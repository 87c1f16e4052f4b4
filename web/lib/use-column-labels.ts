import { useCallback, useRef } from 'react';

/** For a hand-written table: the narrow-screen cards (`table.cards-narrow`) show each cell's `data-label`; DataTable writes its own. */
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
