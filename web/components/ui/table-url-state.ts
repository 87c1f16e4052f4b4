import type { ColumnFiltersState, PaginationState, SortingState, Updater } from '@tanstack/react-table';
import { useUrlParams } from '../../lib/use-url-state';

export const PAGE_SIZES = [10, 20, 30, 40, 50] as const;

/**
 * A table's view in the query string (rule 0133): `q` the search, `sort` ("name" or "-name"),
 * `page` (from 1), `size` and `f.<column>`, each prefixed with `urlKey.` when a screen has more
 * than one table. Returns the view as TanStack Table's state, and its setters, which write the URL;
 * a new search, sort or filter starts again at page 1.
 */
export function useTableUrlState(urlKey: string | undefined, defaultSize: number) {
  const [params, update] = useUrlParams();
  const k = (name: string) => (urlKey ? `${urlKey}.${name}` : name);
  const globalFilter = params.get(k('q')) ?? '';
  const sortParam = params.get(k('sort'));
  const sorting: SortingState = sortParam ? [{ id: sortParam.replace(/^-/, ''), desc: sortParam.startsWith('-') }] : [];
  const sizeParam = Number(params.get(k('size')));
  const pageSize = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : defaultSize;
  const pageParam = Number(params.get(k('page')));
  const pageIndex = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam - 1 : 0;
  const filterPrefix = k('f.');
  const columnFilters: ColumnFiltersState = [...params.entries()]
    .filter(([key]) => key.startsWith(filterPrefix))
    .map(([key, value]) => ({ id: key.slice(filterPrefix.length), value }));

  const setSorting = (u: Updater<SortingState>) =>
    update((p) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      const first = next[0];
      if (first) p.set(k('sort'), `${first.desc ? '-' : ''}${first.id}`);
      else p.delete(k('sort'));
      p.delete(k('page'));
    });
  const setGlobalFilter = (u: Updater<string>) =>
    update((p) => {
      const next = String((typeof u === 'function' ? u(globalFilter) : u) ?? '');
      if (next) p.set(k('q'), next);
      else p.delete(k('q'));
      p.delete(k('page'));
    });
  const setColumnFilters = (u: Updater<ColumnFiltersState>) =>
    update((p) => {
      const next = typeof u === 'function' ? u(columnFilters) : u;
      for (const key of [...p.keys()]) if (key.startsWith(filterPrefix)) p.delete(key);
      for (const f of next) if (f.value !== undefined && f.value !== '') p.set(`${filterPrefix}${f.id}`, String(f.value));
      p.delete(k('page'));
    });
  const setPagination = (u: Updater<PaginationState>) =>
    update((p) => {
      const next = typeof u === 'function' ? u({ pageIndex, pageSize }) : u;
      if (next.pageSize !== pageSize) {
        // a new page size keeps the first row shown on screen
        const first = pageIndex * pageSize;
        next.pageIndex = Math.floor(first / next.pageSize);
      }
      if (next.pageSize === defaultSize) p.delete(k('size'));
      else p.set(k('size'), String(next.pageSize));
      if (next.pageIndex > 0) p.set(k('page'), String(next.pageIndex + 1));
      else p.delete(k('page'));
    });

  return { globalFilter, sorting, columnFilters, pageIndex, pageSize, setSorting, setGlobalFilter, setColumnFilters, setPagination };
}
