import { useEffect, useMemo, useState } from 'react';
import { pickedRangeError, rangeToQuery } from '../../../worker/history/history.schema';
import { download } from '../../lib/download';
import { dayValue } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { type HistoryRowDto, loadHistory, picksManager, useHistoryMcs, useManagers, useTeamUsers } from './api';
import { historyCsv } from './csv';

export interface Range {
  from?: Date;
  to?: Date;
}
interface Loaded {
  rows: HistoryRowDto[];
  from: Date;
  to: Date;
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
  const session = useSession();
  const role = session?.userType;
  const isAgent = role === 'agent';
  const picks = picksManager(role);

  const [range, setRange] = useState<Range>({ from: daysAgo(6), to: startOfToday() });
  const [pickedManager, setPickedManager] = useState<string | null>(null);
  const managers = useManagers(picks);
  const managerId = role === 'manager' ? (session?.userId ?? null) : picks ? (pickedManager ?? managers.data?.[0]?._id ?? null) : null;
  const team = useTeamUsers(role, managerId);
  const mcs = useHistoryMcs(role, session?.userId, managerId);
  const [excludedUsers, setExcludedUsers] = useState<Set<string>>(new Set());
  const [excludedMcs, setExcludedMcs] = useState<Set<string>>(new Set());
  const [phoneLogs, setPhoneLogs] = useState(true);
  const [emailLogs, setEmailLogs] = useState(true);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const { loading, run } = useRequest();

  // another manager's team: its users and MCs, and nothing loaded yet
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset runs when the picked manager changes
  useEffect(() => {
    setExcludedUsers(new Set());
    setExcludedMcs(new Set());
    setLoaded(null);
  }, [managerId]);

  const userItems = useMemo(() => (team.data ?? []).map((u) => ({ id: u._id, label: u.userType === 'manager' ? `${u.name} (manager)` : u.name })), [team.data]);
  const mcItems = useMemo(() => (mcs.data ?? []).map((mc) => ({ id: mc._id, label: mc.name })), [mcs.data]);

  const rangeError = pickedRangeError(range.from, range.to);
  const noUsers = !isAgent && userItems.length > 0 && excludedUsers.size >= userItems.length;
  const noMcs = mcItems.length > 0 && excludedMcs.size >= mcItems.length;
  const noKinds = !phoneLogs && !emailLogs;
  const waitingForManager = picks && !managerId;
  const canLoad = !rangeError && !noUsers && !noMcs && !noKinds && !waitingForManager && !loading;
  const hint = noUsers ? 'Select at least one user' : noMcs ? 'Select at least one MC' : noKinds ? 'Turn on Phone Calls or Emails' : '';

  const load = async () => {
    if (!canLoad || !range.from || !range.to) return;
    const { from, to } = range;
    // everything checked is sent as "all" (empty list): rows of former members and removed MCs stay in
    const usersList = isAgent || excludedUsers.size === 0 ? [] : userItems.filter((u) => !excludedUsers.has(u.id)).map((u) => u.id);
    const mcList = excludedMcs.size === 0 ? [] : mcItems.filter((m) => !excludedMcs.has(m.id)).map((m) => m.id);
    const rows = await run(() => loadHistory({ usersList, mcList, phoneLogs, emailLogs, managerId, ...rangeToQuery(from, to) }));
    if (rows) setLoaded({ rows, from, to });
  };

  const exportCsv = () => {
    if (!loaded) return;
    download(`contact-history-${dayValue(loaded.from)}-to-${dayValue(loaded.to)}.csv`, historyCsv(loaded.rows));
  };

  return {
    role,
    isAgent,
    picks,
    range,
    setRange,
    rangeError,
    managers: { list: managers.data, isLoading: managers.isLoading, current: managerId, pick: setPickedManager },
    users: { items: userItems, excluded: excludedUsers, setExcluded: setExcludedUsers, isLoading: team.isLoading },
    mcs: { items: mcItems, excluded: excludedMcs, setExcluded: setExcludedMcs, isLoading: mcs.isLoading },
    kinds: { phoneLogs, setPhoneLogs, emailLogs, setEmailLogs },
    hint,
    canLoad,
    loading,
    load,
    loaded,
    exportCsv,
  };
}
