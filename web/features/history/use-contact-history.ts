import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOAD_BOARDS, type LoadBoard } from '../../../worker/history/boards';
import { HISTORY_SORT_COLUMNS, type HistorySortColumn, MAX_HISTORY_DAYS, pickedRangeError, rangeToQuery } from '../../../worker/history/history.schema';
import { PAGE_SIZES } from '../../components/ui/data-table';
import { isLoggedOut } from '../../lib/api-client';
import { dayValue, parseDay } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { useUrlParams } from '../../lib/use-url-state';

/** The board a URL names, or null (every board). */
const boardOf = (value: string | null): LoadBoard | null => ((LOAD_BOARDS as readonly string[]).includes(value ?? '') ? (value as LoadBoard) : null);

import { exportHistory, type HistoryQuery, picksManager, useHistoryMcs, useHistoryPage, useManagers, useTeamUsers } from './api';

export interface Range {
  from?: Date;
  to?: Date;
}
/** What Load fixed: the load's body (range, users, MCs, kinds) and when, so Load again reads anew. */
interface Loaded {
  query: HistoryQuery;
  from: Date;
  to: Date;
  stamp: number;
}

/** The browser's time zone, for the chart's days. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A value that follows `value` once it has stayed `ms` (the search box's words). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export const startOfToday = () => {
  const d = new Date();
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
};
export const daysAgo = (n: number) => {
  const d = startOfToday();
  d.setDate(d.getDate() - n);
  return d;
};

/**
 * Contact History's data and state: the range, the manager a director or the admin picks, the
 * user and MC checklists (the unchecked ids, so new members start checked), the two kinds, what
 * stops Load, and the loaded rows with their range.
 */
export function useContactHistory() {
  const { t } = useTranslation();
  const session = useSession();
  const role = session?.userType;
  const isAgent = role === 'agent';
  const picks = picksManager(role);

  // The screen's choices live in the query string (rule 0133): from, to, manager, the
  // unchecked users and MCs (xu, xm, comma-separated), calls=0 / emails=0, and shown=1 once
  // loaded, so a reload, Back or a shared link loads the same view again.
  const [params, update] = useUrlParams();
  const dayParam = (key: string, fallback: () => Date) => {
    const value = params.get(key);
    return value === null ? fallback() : parseDay(value);
  };
  const idsParam = (key: string) => new Set((params.get(key) ?? '').split(',').filter(Boolean));
  // the screen's own state, started from the URL and written back to it on every change
  const [range, setRange] = useState<Range>(() => ({ from: dayParam('from', () => daysAgo(6)), to: dayParam('to', startOfToday) }));
  const [pickedManager, setPickedManager] = useState<string | null>(() => params.get('manager'));
  const [excludedUsers, setExcludedUsers] = useState<Set<string>>(() => idsParam('xu'));
  const [excludedMcs, setExcludedMcs] = useState<Set<string>>(() => idsParam('xm'));
  const [phoneLogs, setPhoneLogs] = useState(() => params.get('calls') !== '0');
  const [emailLogs, setEmailLogs] = useState(() => params.get('emails') !== '0');
  // one board's contacts, or every board's (null)
  const [board, setBoard] = useState<LoadBoard | null>(() => boardOf(params.get('board')));
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: writes the URL when a choice changes
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    update((p) => {
      const put = (key: string, value: string | null) => (value === null ? p.delete(key) : p.set(key, value));
      put('from', range.from ? dayValue(range.from) : '');
      put('to', range.to ? dayValue(range.to) : '');
      put('manager', pickedManager);
      put('xu', excludedUsers.size ? [...excludedUsers].join(',') : null);
      put('xm', excludedMcs.size ? [...excludedMcs].join(',') : null);
      put('calls', phoneLogs ? null : '0');
      put('emails', emailLogs ? null : '0');
      put('board', board);
      // a changed choice is not what was loaded: the view waits for Load again
      p.delete('shown');
    });
  }, [range, pickedManager, excludedUsers, excludedMcs, phoneLogs, emailLogs, board]);
  const markShown = () => update((p) => p.set('shown', '1'));
  const managers = useManagers(picks);
  const managerId = role === 'manager' ? (session?.userId ?? null) : picks ? (pickedManager ?? managers.data?.[0]?._id ?? null) : null;
  const team = useTeamUsers(role, managerId);
  const mcs = useHistoryMcs(role, session?.userId, managerId);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const exporting = useRequest();

  // the table's view, in the DataTable's own URL keys: q, sort (column or -column), page, size, f.brokerName
  const search = useDebounced((params.get('q') ?? '').trim(), 250);
  const sortParam = params.get('sort');
  const sortColumn = sortParam?.replace(/^-/, '') as HistorySortColumn | undefined;
  const sort =
    sortColumn && HISTORY_SORT_COLUMNS.includes(sortColumn)
      ? { column: sortColumn, dir: sortParam!.startsWith('-') ? ('desc' as const) : ('asc' as const) }
      : null;
  const sizeParam = Number(params.get('size'));
  const pageSize = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : PAGE_SIZES[0];
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1;
  const company = params.get('f.brokerName') || null;
  const view = { search, company, sort };
  const pageQuery = loaded ? { ...loaded.query, ...view, page, pageSize, timeZone: timeZone() } : null;
  // a failed page is said on the screen (pageFailure), with Retry, not in a toast that goes away
  const result = useHistoryPage(pageQuery, loaded?.stamp ?? 0, () => undefined);
  const loading = !!loaded && !result.data && result.isLoading;

  // another manager picked: its users and MCs all checked, and nothing loaded yet (not on the
  // first pick, which is the URL's or the default)
  const shownManager = useRef(managerId);
  useEffect(() => {
    const before = shownManager.current;
    shownManager.current = managerId;
    if (before === null || before === managerId) return;
    setExcludedUsers(new Set());
    setExcludedMcs(new Set());
    setLoaded(null);
  }, [managerId]);

  const userItems = useMemo(
    () => (team.data ?? []).map((u) => ({ id: u._id, label: u.userType === 'manager' ? t('contactHistory.manager', { name: u.name }) : u.name })),
    [team.data, t],
  );
  const mcItems = useMemo(() => (mcs.data ?? []).map((mc) => ({ id: mc._id, label: mc.name })), [mcs.data]);

  // the shared check (the API's rule and message), said in the user's language
  const rangeError = pickedRangeError(range.from, range.to) ? t('contactHistory.range', { days: MAX_HISTORY_DAYS }) : null;
  const noUsers = !isAgent && userItems.length > 0 && excludedUsers.size >= userItems.length;
  const noMcs = mcItems.length > 0 && excludedMcs.size >= mcItems.length;
  const noKinds = !phoneLogs && !emailLogs;
  const waitingForManager = picks && !managerId;
  // a list that did not load is said with Retry (decision 0018); Load waits for it, since an
  // unchecked id it cannot show would otherwise be sent as "all"
  const failed = (read: { error?: unknown }) => (read.error != null && !isLoggedOut(read.error) ? read.error : null);
  const failures = { managers: picks ? failed(managers) : null, users: isAgent ? null : failed(team), mcs: failed(mcs) };
  const listsFailed = !!(failures.managers ?? failures.users ?? failures.mcs);
  const canLoad = !rangeError && !noUsers && !noMcs && !noKinds && !waitingForManager && !listsFailed && !loading;
  const hint = noUsers ? t('contactHistory.pickUser') : noMcs ? t('contactHistory.pickMc') : noKinds ? t('contactHistory.pickKind') : '';

  const load = async () => {
    if (!canLoad || !range.from || !range.to) return;
    const { from, to } = range;
    // everything checked is sent as "all" (empty list): rows of former members and removed MCs stay in
    const usersList = isAgent || excludedUsers.size === 0 ? [] : userItems.filter((u) => !excludedUsers.has(u.id)).map((u) => u.id);
    const mcList = excludedMcs.size === 0 ? [] : mcItems.filter((m) => !excludedMcs.has(m.id)).map((m) => m.id);
    setLoaded({ query: { usersList, mcList, phoneLogs, emailLogs, managerId, board, ...rangeToQuery(from, to) }, from, to, stamp: Date.now() });
    markShown();
  };

  // a reload, Back or shared link of a loaded view loads it again once the lists it needs are in
  const restored = useRef(false);
  const listsReady = !team.isLoading && !mcs.isLoading && !(picks && managers.isLoading) && !listsFailed;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, when the lists are in
  useEffect(() => {
    if (restored.current || !listsReady) return;
    restored.current = true;
    if (params.get('shown') === '1' && !loaded && canLoad) void load();
  }, [listsReady]);

  // the whole view (search, Company, sort), streamed by the server
  const exportCsv = () => {
    if (!loaded) return;
    void exporting.run(() => exportHistory({ ...loaded.query, ...view }, `contact-history-${dayValue(loaded.from)}-to-${dayValue(loaded.to)}.csv`));
  };

  return {
    role,
    isAgent,
    picks,
    range,
    setRange,
    rangeError,
    managers: {
      list: managers.data,
      isLoading: managers.isLoading,
      error: failures.managers,
      retry: () => void managers.mutate(),
      current: managerId,
      pick: setPickedManager,
    },
    users: {
      items: userItems,
      excluded: excludedUsers,
      setExcluded: setExcludedUsers,
      isLoading: team.isLoading,
      error: failures.users,
      retry: () => void team.mutate(),
    },
    mcs: { items: mcItems, excluded: excludedMcs, setExcluded: setExcludedMcs, isLoading: mcs.isLoading, error: failures.mcs, retry: () => void mcs.mutate() },
    /** A director's or the admin's lists wait for a manager that could not be loaded. */
    waitingForManagers: picks && !managerId && failures.managers !== null,
    kinds: { phoneLogs, setPhoneLogs, emailLogs, setEmailLogs },
    board: { value: board, set: setBoard },
    hint,
    canLoad,
    loading,
    load,
    loaded,
    page: loaded ? (result.data ?? null) : null,
    // the last view's rows stay shown while this view's page comes (keepPreviousData)
    pageBusy: !!loaded && result.isLoading,
    pageFailure: loaded && result.error && !isLoggedOut(result.error) ? (result.error as unknown) : null,
    retryPage: () => void result.mutate(),
    // a restored month: the same load read again, its counts and days too
    reload: () => setLoaded((l) => (l ? { ...l, stamp: Date.now() } : l)),
    exportCsv,
    exportingCsv: exporting.loading,
  };
}
