/**
 * The service worker's owner module: the one module its parts (session, sync, queue, live,
 * view-state) call for each other's work, so no part imports another and none is in an import
 * circle. index.ts hands it each part's function once, at start (`connect`).
 */
type Work = () => Promise<void>;

interface Desk {
  /** Tells the popup, the options page and the board tabs the state changed (view-state.ts). */
  pushState: Work;
  /** Syncs the MCs, filters and subscription, then the contacts (sync.ts). */
  sync: Work;
  syncContacts: Work;
  /** The sync under way, if any: a signal's sync waits for it (sync.ts). */
  syncing: () => Promise<void> | null;
  syncingContacts: () => Promise<void> | null;
  /** Sends what waits in the queue (queue.ts). */
  flush: Work;
  /** Opens or closes the live socket as the session and board tabs want (live.ts). */
  updateLive: Work;
  closeLive: () => void;
  liveState: () => 'on' | 'off' | null;
  /** The board tabs told of state changes (view-state.ts). */
  boardTabs: () => Promise<number[]>;
}

const unset = (name: string) => () => {
  throw new Error(`desk.${name} is not connected`);
};

export const desk: Desk = {
  pushState: unset('pushState'),
  sync: unset('sync'),
  syncContacts: unset('syncContacts'),
  syncing: unset('syncing'),
  syncingContacts: unset('syncingContacts'),
  flush: unset('flush'),
  updateLive: unset('updateLive'),
  closeLive: unset('closeLive'),
  liveState: unset('liveState'),
  boardTabs: unset('boardTabs'),
};

/** Hands the desk every part's function (index.ts, once, before any message or alarm is handled). */
export function connect(parts: Desk) {
  Object.assign(desk, parts);
}
