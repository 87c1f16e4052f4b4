import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTableUrlState } from '../../components/ui/table-url-state';
import { type LinksPageQuery, useLinksPage } from './api';

const DEFAULT_SIZE = 10;
/** The server's sort of each sortable column: # is the creation order, the short link its code. */
const SERVER_SORTS: Record<string, LinksPageQuery['sort']> = { number: 'date', from: 'from', to: 'code' };

/**
 * The admin's every-user links a page at a time (docs/decisions/0187-paged-fan-out.md), as the
 * Users List: the table's search, sort, page and size (the query string) as a page call, page n asked
 * for with the cursor page n-1 answered; a page whose cursor is not known starts again at page 1.
 * Each column but the owner's sorts on the server.
 */
export function useLinksPageView(enabled: boolean) {
  const { pageIndex, pageSize, sorting, globalFilter, setPagination } = useTableUrlState(undefined, DEFAULT_SIZE);
  const sorted = sorting[0];
  const sort = sorted ? SERVER_SORTS[sorted.id] : undefined;
  const descending = sorted?.desc === true;
  const base = useMemo<LinksPageQuery>(
    () => ({
      all: '1',
      limit: String(pageSize),
      ...(globalFilter.trim() ? { q: globalFilter.trim() } : {}),
      ...(sort ? { sort, dir: descending ? 'desc' : 'asc' } : {}),
    }),
    [pageSize, globalFilter, sort, descending],
  );
  const viewKey = JSON.stringify(base);
  const cursors = useRef(new Map<string, string>());
  const cursor = pageIndex > 0 ? cursors.current.get(`${viewKey}#${pageIndex}`) : undefined;
  const lost = enabled && pageIndex > 0 && cursor === undefined;
  useEffect(() => {
    if (lost) setPagination({ pageIndex: 0, pageSize });
  }, [lost, pageSize, setPagination]);
  const read = useLinksPage(enabled && !lost ? { ...base, ...(cursor ? { cursor } : {}) } : null);
  const current = read.data && read.data.key === read.key ? read.data.page : undefined;
  useEffect(() => {
    if (current?.next) cursors.current.set(`${viewKey}#${pageIndex + 1}`, current.next);
  }, [current, viewKey, pageIndex]);
  // the page before stays shown while this one comes; after a failure of this one, only the failure
  const shown = read.error ? current : read.data?.page;
  const total = shown?.total;
  const numberOf = useCallback(
    (i: number) => (sort === 'date' && descending && total !== undefined ? total - pageIndex * pageSize - i : pageIndex * pageSize + i + 1),
    [sort, descending, total, pageIndex, pageSize],
  );
  return {
    page: shown,
    /** The shown page's `i`-th row's number: its place in creation order, counted down when that order is reversed; else its place in the view. */
    numberOf,
    busy: shown !== undefined && current === undefined,
    /** Back to page 1 (the switch between own and every user's links is another list). */
    toFirstPage: () => setPagination({ pageIndex: 0, pageSize }),
    state: { data: shown, error: read.error, isLoading: read.isLoading, mutate: () => read.mutate() },
  };
}
