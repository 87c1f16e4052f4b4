/** What the popup, the options page and the board tabs are shown, and telling them when it changes. */
import { type StatePush, subjectOf, type ViewState } from '../shared/protocol';
import { desk } from './desk';
import { apiUrlOf, read, type Stored } from './store';

export function viewOf(s: Stored): ViewState {
  const user = s.user ?? null;
  return {
    apiUrl: apiUrlOf(s),
    user,
    language: user ? (s.language ?? null) : null,
    signInAgain: !!s.signInAgain,
    subscription: s.subscription ?? null,
    mcs: s.mcs ?? [],
    pickedMcId: s.pickedMcId ?? null,
    filters: s.filters ?? [],
    filtersSyncedAt: s.filtersSyncedAt ?? null,
    filtersVersion: s.filtersEtag ?? (s.filtersSyncedAt ? String(s.filtersSyncedAt) : null),
    phones: s.phones ?? null,
    mailClient: s.mailClient ?? 'system',
    teamContacts: s.teamContacts ?? null,
    teamContactsVersion: s.teamContactsEtag ?? null,
    pending: (s.queue ?? []).filter((q) => q.userId === user?.userId).map((q) => ({ label: q.label, what: subjectOf(q), queuedAt: q.queuedAt })),
    refused: s.refused ?? [],
    problem: s.problem ?? null,
    live: desk.liveState(),
  };
}

// the board's tabs: told when the state changes

export async function boardTabs(): Promise<number[]> {
  const { boardTabs } = (await chrome.storage.session.get('boardTabs')) as { boardTabs?: number[] };
  return boardTabs ?? [];
}

export async function rememberTab(tabId: number | undefined) {
  if (tabId === undefined) return;
  const tabs = await boardTabs();
  if (!tabs.includes(tabId)) await chrome.storage.session.set({ boardTabs: [...tabs, tabId] });
}

export async function pushState() {
  const state = viewOf(await read());
  const message: StatePush = { type: 'statePush', state };
  // the popup and the options page, when open
  await chrome.runtime.sendMessage(message).catch(() => undefined);
  const gone: number[] = [];
  for (const tabId of await boardTabs()) {
    await chrome.tabs.sendMessage(tabId, message).catch(() => gone.push(tabId));
  }
  if (gone.length) {
    await chrome.storage.session.set({ boardTabs: (await boardTabs()).filter((t) => !gone.includes(t)) });
    void desk.updateLive();
  }
}
