import { useEffect, useMemo, useRef } from 'react';
import { useTableUrlState } from '../../components/ui/table-url-state';
import { type UsersPageQuery, useUsersPage } from './api';

/** The columns the server sorts the Users List by (GET /api/user/page). */
export const SERVER_SORTS = ['email', 'name', 'registrationDate', 'userType', 'parent', 'country', 'phone', 'subscriptionEnd'] as const;
const DEFAULT_SIZE = 10;

/**
 * The admin's Users List a page at a time (docs/decisions/0187-paged-fan-out.md): the table's view
 * (search, sort, filters, page, size: the query string, rule 0133) as a page call. A page is asked
 * for with the cursor the page before answered; a page whose cursor is not known (a link to page 3
 * opened afresh) starts again at page 1.
 */
export function useUsersPageView(enabled: boolean) {
  const view = useTableUrlState(undefined, DEFAULT_SIZE);
  const { pageIndex, pageSize, sorting, columnFilters, globalFilter, setPagination } = view;
  const sorted = sorting[0];
  const sort = sorted && (SERVER_SORTS as readonly string[]).includes(sorted.id) ? (sorted.id as (typeof SERVER_SORTS)[number]) : undefined;
  const filter = (id: string) => columnFilters.find((f) => f.id === id)?.value as string | undefined;
  const type = filter('userType') as UsersPageQuery['type'];
  const parent = filter('parent');
  const base = useMemo<UsersPageQuery>(
    () => ({
      limit: String(pageSize),
      ...(globalFilter.trim() ? { q: globalFilter.trim() } : {}),
      ...(sort ? { sort, dir: sorted?.desc ? 'desc' : 'asc' } : {}),
      ...(type ? { type } : {}),
      ...(parent ? { parent } : {}),
    }),
    [pageSize, globalFilter, sort, sorted?.desc, type, parent],
  );
  const viewKey = JSON.stringify(base);
  // page n's cursor, learnt from page n-1's answer, per view
  const cursors = useRef(new Map<string, string>());
  const cursor = pageIndex > 0 ? cursors.current.get(`${viewKey}#${pageIndex}`) : undefined;
  const lost = enabled && pageIndex > 0 && cursor === undefined;
  useEffect(() => {
    if (lost) setPagination({ pageIndex: 0, pageSize });
  }, [lost, pageSize, setPagination]);
  const read = useUsersPage(enabled && !lost ? { ...base, ...(cursor ? { cursor } : {}) } : null);
  const current = read.data && read.data.key === read.key ? read.data.page : undefined;
  useEffect(() => {
    if (current?.next) cursors.current.set(`${viewKey}#${pageIndex + 1}`, current.next);
  }, [current, viewKey, pageIndex]);
  // the page before stays shown while this one comes; after a failure of this one, only the failure
  const shown = read.error ? current : read.data?.page;
  return {
    page: shown,
    busy: shown !== undefined && current === undefined,
    state: { data: shown, error: read.error, isLoading: read.isLoading, mutate: () => read.mutate() },
  };
}
