import { useEffect, useMemo, useRef, useState } from 'react';
import type { DailyLogins } from '../../../worker/analytics/analytics.schema';
import { useTableUrlState } from '../../components/ui/table-url-state';
import { type LoginHistoryPageQuery, useLoginHistoryPage } from './api';

const DEFAULT_SIZE = 10;
/** The columns the server sorts Login History by (their ids in the table). */
const SERVER_SORTS = ['email', 'totalUsers', 'loggedInUsers', 'managerLoggedIn'] as const;

/**
 * Login History a page at a time (docs/decisions/0187-paged-fan-out.md), as the Users List: the
 * table's search, page and size (the query string) and the From date as a page call; page n is
 * asked for with the cursor page n-1 answered, and a page whose cursor is not known starts again
 * at page 1. The chart's days come with the first page only: kept for the date they answer.
 */
export function useLoginHistoryPageView(dateFrom: number) {
  const { pageIndex, pageSize, sorting, globalFilter, setPagination } = useTableUrlState(undefined, DEFAULT_SIZE);
  const sorted = sorting[0];
  const sort = sorted && (SERVER_SORTS as readonly string[]).includes(sorted.id) ? (sorted.id as (typeof SERVER_SORTS)[number]) : undefined;
  const base = useMemo<LoginHistoryPageQuery>(
    () => ({
      dateFrom,
      timezoneOffset: new Date().getTimezoneOffset(),
      limit: pageSize,
      ...(globalFilter.trim() ? { q: globalFilter.trim() } : {}),
      ...(sort ? { sort, dir: sorted?.desc ? 'desc' : 'asc' } : {}),
    }),
    [dateFrom, pageSize, globalFilter, sort, sorted?.desc],
  );
  const viewKey = JSON.stringify(base);
  const cursors = useRef(new Map<string, string>());
  const cursor = pageIndex > 0 ? cursors.current.get(`${viewKey}#${pageIndex}`) : undefined;
  const lost = pageIndex > 0 && cursor === undefined;
  useEffect(() => {
    if (lost) setPagination({ pageIndex: 0, pageSize });
  }, [lost, pageSize, setPagination]);
  const read = useLoginHistoryPage(lost ? null : { ...base, ...(cursor ? { cursor } : {}) });
  const current = read.data && read.data.key === read.key ? read.data.page : undefined;
  useEffect(() => {
    if (current?.next) cursors.current.set(`${viewKey}#${pageIndex + 1}`, current.next);
  }, [current, viewKey, pageIndex]);
  const [chart, setChart] = useState<{ dateFrom: string; daily: DailyLogins[] } | null>(null);
  useEffect(() => {
    if (current?.daily) setChart({ dateFrom: current.dateFrom, daily: current.daily });
  }, [current]);
  // the page before stays shown while this one comes; after a failure of this one, only the failure
  const shown = read.error ? current : read.data?.page;
  const daily = shown && chart?.dateFrom === shown.dateFrom ? chart.daily : (shown?.daily ?? null);
  return {
    page: shown,
    daily,
    busy: shown !== undefined && current === undefined,
    /** Load again from page 1 (the chart and the totals come with it). */
    reload: () => (pageIndex > 0 ? setPagination({ pageIndex: 0, pageSize }) : void read.mutate()),
    state: { data: shown, error: read.error, isLoading: read.isLoading, mutate: () => read.mutate() },
  };
}
