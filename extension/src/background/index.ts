/**
 * The service worker: the only part that talks to the server. It signs in (clientType 1), keeps
 * the session, syncs the MCs and filters (at sign-in, every 5 minutes, on Refresh and on the live
 * socket's signals, or every minute while that socket cannot connect), and sends
 * the board's actions through a queue in storage, in order, retrying while the server is away.
 * It never reads the load board: the content script sends it only what the user clicked.
 */
import { CLIENT_TYPES } from '../../../worker/auth/sessions.schema';
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import type { HealthReportInput } from '../../../worker/extension/extension-health.schema';
import type { ActionOutcome, McChoice, QueuedAction, QueuedBody, Request, Response, RowAction, StatePush, ViewState } from '../shared/protocol';
import { MAIL_CLIENTS } from '../shared/compose';
import { type ExtensionApi, extensionApi, isTransient, Refused, SignInAgain } from './api';
import { defaultApiUrl, patch, read, type Stored, update } from './store';

const SYNC_ALARM = 'sync-filters';
const RETRY_ALARM = 'retry-queue';
const CONTACTS_ALARM = 'sync-contacts';
/** The team's contacts are synced this often (an ETag: 304 while nothing changed), and after each own contact. */
const CONTACTS_MINUTES = 1;
/** Filters are synced this often (chrome.alarms; the board itself is never refreshed). */
const SYNC_MINUTES = 5;
/** While actions wait, the queue is retried this often (Chrome's shortest alarm), and sooner from memory. */
const RETRY_MINUTES = 0.5;
const MAX_REFUSED_SHOWN = 20;
/** Roles that work a load board: the ingestion calls take only them. */
const BOARD_ROLES = new Set(['agent', 'manager']);

const apiUrlOf = (s: Stored) => s.apiUrl || defaultApiUrl();
const apiFor = (s: Stored): ExtensionApi => extensionApi(apiUrlOf(s), s.token ?? null);

function viewOf(s: Stored): ViewState {
  const user = s.user ?? null;
  return {
    apiUrl: apiUrlOf(s),
    user,
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
    pending: (s.queue ?? []).filter((q) => q.userId === user?.userId).map((q) => ({ label: q.label, queuedAt: q.queuedAt })),
    refused: s.refused ?? [],
    problem: s.problem ?? null,
    live: liveState,
  };
}

// ---- the board's tabs: told when the state changes ----

async function boardTabs(): Promise<number[]> {
  const { boardTabs } = (await chrome.storage.session.get('boardTabs')) as { boardTabs?: number[] };
  return boardTabs ?? [];
}

async function rememberTab(tabId: number | undefined) {
  if (tabId === undefined) return;
  const tabs = await boardTabs();
  if (!tabs.includes(tabId)) await chrome.storage.session.set({ boardTabs: [...tabs, tabId] });
}

async function pushState() {
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
    void updateLive();
  }
}

// ---- live signals: a socket to the team's live object while a board is open ----

/** The subprotocol the server's /api/live names; the token follows it (a browser cannot set Authorization on a WebSocket). */
const LIVE_PROTOCOL = 'freightdesk.live';
/** The socket's keep-alive: WebSocket activity keeps an MV3 service worker alive (Chrome 116+), and idle sockets are not dropped by proxies. */
const LIVE_PING_MS = 20_000;
/** While the socket cannot connect, the filters are synced this often instead of every SYNC_MINUTES. */
const FALLBACK_MINUTES = 1;
const LIVE_RETRY_MAX_MS = 30_000;
/** The server closes a socket with this code when its session ends: the next call answers 401. */
const SESSION_ENDED_CLOSE = 4401;

let liveSocket: WebSocket | null = null;
let liveState: 'on' | 'off' | null = null;
let livePing: ReturnType<typeof setInterval> | null = null;
let liveRetry: ReturnType<typeof setTimeout> | null = null;
let liveDelay = 1000;

function liveUrl(s: Stored): string {
  const url = new URL('/api/live', apiUrlOf(s));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

async function setLive(next: 'on' | 'off' | null) {
  if (liveState === next) return;
  liveState = next;
  // off: the filters' ETag sync every minute stands in for the signals; on: back to every 5 minutes
  if (next !== null && (await read()).token) await chrome.alarms.create(SYNC_ALARM, { periodInMinutes: next === 'off' ? FALLBACK_MINUTES : SYNC_MINUTES });
  await pushState();
}

/** Closes the socket on purpose (signed out, no board open): no retry. */
function closeLive() {
  if (liveRetry) clearTimeout(liveRetry);
  liveRetry = null;
  if (livePing) clearInterval(livePing);
  livePing = null;
  const ws = liveSocket;
  liveSocket = null;
  if (ws) {
    ws.onclose = null;
    ws.close(1000);
  }
  liveState = null;
}

/** Opens the socket while the user is signed in and a board tab is open; closes it otherwise. */
async function updateLive() {
  const s = await read();
  const wanted = !!s.token && !!s.user && BOARD_ROLES.has(s.user.userType) && (await boardTabs()).length > 0;
  if (!wanted) {
    if (liveSocket || liveState) {
      closeLive();
      await pushState();
    }
    return;
  }
  if (liveSocket || liveRetry) return;
  let ws: WebSocket;
  try {
    ws = new WebSocket(liveUrl(s), [LIVE_PROTOCOL, s.token!]);
  } catch {
    return liveLost(null);
  }
  liveSocket = ws;
  ws.onopen = () => {
    liveDelay = 1000;
    livePing = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('ping'), LIVE_PING_MS);
    void setLive('on');
    // whatever changed while the socket was down
    void sync();
  };
  ws.onmessage = (event) => {
    if (typeof event.data !== 'string' || !event.data.startsWith('{')) return;
    const signal = JSON.parse(event.data) as { type?: string };
    if (signal.type === 'filters') void syncAfter(() => syncing, sync);
    else if (signal.type === 'contacts') void syncAfter(() => syncingContacts, syncContacts);
  };
  ws.onclose = (event) => {
    if (liveSocket === ws) liveLost(event.code);
  };
}

/**
 * Syncs after a change the server just signalled: a sync already under way may have read the
 * server before the change, so it is waited for and a new one runs.
 */
async function syncAfter(running: () => Promise<void> | null, run: () => Promise<void>) {
  const current = running();
  if (current) await current.catch(() => undefined);
  await run();
}

/** The socket closed or could not open: sync every minute, say so, and try again later (1 s, 2 s, 4 s, … 30 s). */
function liveLost(code: number | null) {
  if (livePing) clearInterval(livePing);
  livePing = null;
  liveSocket = null;
  // the session ended: the sync answers 401 and the bar asks to sign in again
  if (code === SESSION_ENDED_CLOSE) {
    void sync();
    return;
  }
  void setLive('off');
  const delay = liveDelay;
  liveDelay = Math.min(liveDelay * 2, LIVE_RETRY_MAX_MS);
  liveRetry = setTimeout(() => {
    liveRetry = null;
    void updateLive();
  }, delay);
}

// ---- session ----

/** A 401: the session ended elsewhere. Calls stop; the queue stays for when the user signs in again. */
async function endedElsewhere() {
  closeLive();
  await patch({ token: null, signInAgain: true, problem: null });
  await chrome.alarms.clear(RETRY_ALARM);
}

async function signIn(email: string, password: string): Promise<void> {
  const s = await read();
  const key = email.trim().toLowerCase();
  const deviceToken = s.deviceTokens?.[key];
  const api = extensionApi(apiUrlOf(s), null);
  const res = await api.auth.login.$post({ json: { email, password, clientType: CLIENT_TYPES.extension, ...(deviceToken ? { deviceToken } : {}) } });
  const login = await res.json();
  const sameUser = s.user?.userId === login.userId;
  await patch({
    token: login.accessToken,
    user: { userId: login.userId, name: login.name, email: login.email, userType: login.userType },
    signInAgain: false,
    problem: null,
    deviceTokens: { ...s.deviceTokens, [key]: login.deviceToken },
    // another user's MCs and filters are not this one's
    ...(sameUser
      ? {}
      : {
          mcs: [],
          pickedMcId: null,
          filters: [],
          filtersEtag: null,
          filtersSyncedAt: null,
          phones: null,
          teamContacts: null,
          teamContactsEtag: null,
          subscription: null,
          refused: [],
        }),
  });
  await chrome.alarms.create(SYNC_ALARM, { periodInMinutes: SYNC_MINUTES });
  await chrome.alarms.create(CONTACTS_ALARM, { periodInMinutes: CONTACTS_MINUTES });
  await sync();
  void updateLive();
}

async function signOut() {
  closeLive();
  const s = await read();
  if (s.token) {
    // this session only: the web app stays signed in (and an unreachable server ends it by expiry)
    await apiFor(s)
      .auth.logout.$post()
      .catch(() => undefined);
  }
  await patch({
    token: null,
    user: null,
    signInAgain: false,
    subscription: null,
    mcs: [],
    pickedMcId: null,
    filters: [],
    filtersEtag: null,
    filtersSyncedAt: null,
    phones: null,
    teamContacts: null,
    teamContactsEtag: null,
    problem: null,
    refused: [],
  });
  await chrome.alarms.clear(SYNC_ALARM);
  await chrome.alarms.clear(CONTACTS_ALARM);
  await chrome.alarms.clear(RETRY_ALARM);
}

// ---- sync: MCs, filters, subscription ----

const toChoice = (m: {
  _id: string;
  name: string;
  lines: number[];
  parentMc: { _id: string } | null;
  emailSubject: string;
  emailContent: string;
}): McChoice => ({
  _id: m._id,
  name: m.name,
  line: m.lines[0] ?? null,
  teamMcId: m.parentMc?._id ?? m._id,
  emailSubject: m.emailSubject,
  emailContent: m.emailContent,
});

/** Handles a failed call the same way everywhere: 401 ends the session, anything else becomes the problem shown. */
async function failed(err: unknown) {
  if (err instanceof SignInAgain) return endedElsewhere();
  await patch({ problem: err instanceof Error ? err.message : 'Something went wrong' });
}

/**
 * The filters in force, or 'unchanged' when the stored list is still current: the stored list's
 * ETag goes as If-None-Match and the server answers 304 after one indexed read (every sync, every
 * 5 minutes per agent), instead of the whole list (hundreds of KB for a big team).
 */
async function filtersSince(api: ExtensionApi, s: Stored): Promise<'unchanged' | { filters: MinifiedFilterDto[]; etag: string | null }> {
  const etag = s.filters?.length && s.filtersEtag ? s.filtersEtag : null;
  const res = await api.broker.minified.$get(undefined, etag ? { headers: { 'if-none-match': etag } } : undefined);
  if ((res.status as number) === 304) return 'unchanged';
  return { filters: await res.json(), etag: res.headers.get('etag') };
}

let syncing: Promise<void> | null = null;

/** Syncs the MCs the user works for (Show in DAT on), the filters in force and the subscription. */
function sync(): Promise<void> {
  syncing ??= (async () => {
    const s = await read();
    if (!s.token || !s.user) return;
    const api = apiFor(s);
    try {
      const subscription = await (await api.subscription.status.$get()).json();
      await patch({ subscription });
      if (!BOARD_ROLES.has(s.user.userType)) {
        await patch({ problem: 'The load-board extension is for agents and managers', mcs: [], filters: [], filtersEtag: null, phones: null });
        return;
      }
      const [settings, listed, team] = await Promise.all([
        api.mcSettings.index.$get().then((r) => r.json()),
        filtersSince(api, s),
        api.team.settings.$get().then((r) => r.json()),
      ]);
      const phones = { dialer: team.dialer, dialerTemplate: team.dialerTemplate, lines: team.lines };
      const mcs = settings.filter((m) => m.isVisible).map(toChoice);
      await update((cur) => {
        const picked = cur.pickedMcId && mcs.some((m) => m._id === cur.pickedMcId) ? cur.pickedMcId : mcs.length === 1 ? mcs[0]!._id : null;
        let filters: Partial<Stored>;
        if (listed !== 'unchanged') filters = { filters: listed.filters, filtersEtag: listed.etag, filtersSyncedAt: Date.now() };
        // 304: the stored list is still the one in force
        else if (cur.filtersEtag === s.filtersEtag) filters = { filtersSyncedAt: Date.now() };
        // the stored list changed meanwhile (another sign-in): the next sync downloads the list
        else filters = { filtersEtag: null };
        return { patch: { mcs, ...filters, phones, pickedMcId: picked, problem: null }, result: undefined };
      });
    } catch (err) {
      await failed(err);
    }
  })().finally(() => {
    syncing = null;
  });
  return syncing.then(async () => {
    await syncContacts();
    await pushState();
    // the server answered: whatever waits may go now
    if ((await read()).token) void flush();
  });
}

// ---- the team's recent contacts (the markers) ----

let syncingContacts: Promise<void> | null = null;

/**
 * Syncs the team's contacts of the markers' window: the stored ETag goes as If-None-Match, and
 * the server answers 304 after reading its per-hour counts while nothing was logged.
 */
function syncContacts(): Promise<void> {
  syncingContacts ??= (async () => {
    const s = await read();
    if (!s.token || !s.user || !BOARD_ROLES.has(s.user.userType)) return;
    const etag = s.teamContacts && s.teamContactsEtag ? s.teamContactsEtag : null;
    try {
      const res = await apiFor(s).team.contacts.$get(undefined, etag ? { headers: { 'if-none-match': etag } } : undefined);
      if ((res.status as number) === 304) return;
      const teamContacts = await res.json();
      await update((cur) => ({
        // another sign-in meanwhile: not this user's team
        patch: cur.user?.userId === s.user?.userId ? { teamContacts, teamContactsEtag: res.headers.get('etag') } : {},
        result: undefined,
      }));
      await pushState();
    } catch (err) {
      if (err instanceof SignInAgain) await endedElsewhere();
    }
  })().finally(() => {
    syncingContacts = null;
  });
  return syncingContacts;
}

// ---- the queue of actions ----

/** Outcomes of the actions sent by the last runs, by client id, for the board's answer. */
const outcomes = new Map<string, ActionOutcome>();
let retryDelay = 2000;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

function bodyOf(action: RowAction): QueuedBody {
  const common = {
    clientId: action.clientId,
    mcSettingId: action.mcId,
    brokerName: action.brokerName,
    origin: action.origin,
    dest: action.dest,
    loadDate: action.loadDate,
  };
  if (action.kind === 'load') return { kind: 'load', body: { ...common, reference: action.reference, date: action.at } };
  return { kind: action.kind, body: { ...common, kind: action.kind, contact: action.contact, callDate: action.at, line: action.line ?? null } };
}

const labelOf = (action: RowAction) =>
  `${action.kind === 'call' ? 'Call to' : action.kind === 'email' ? 'E-mail to' : 'Active load from'} ${action.brokerName}${action.origin ? ` (${action.origin} → ${action.dest})` : ''}`;

/** Puts an action at the end of the queue; the same click twice (same client id) is queued once. */
function enqueue(userId: string, action: RowAction) {
  return update((s) => {
    const queue = s.queue ?? [];
    if (queue.some((q) => q.clientId === action.clientId && q.userId === userId)) return { patch: {}, result: undefined };
    const item: QueuedAction = { clientId: action.clientId, userId, ...bodyOf(action), label: labelOf(action), queuedAt: Date.now() };
    return { patch: { queue: [...queue, item] }, result: undefined };
  });
}

async function send(api: ExtensionApi, item: QueuedAction) {
  if (item.kind === 'load') await api.activeLoad.add.$post({ json: item.body });
  else await api.callHistory.log.$post({ json: item.body });
}

const remove = (clientId: string, refused?: { label: string; message: string }) =>
  update((s) => ({
    patch: {
      queue: (s.queue ?? []).filter((q) => q.clientId !== clientId),
      ...(refused ? { refused: [{ ...refused, at: Date.now() }, ...(s.refused ?? [])].slice(0, MAX_REFUSED_SHOWN) } : {}),
    },
    result: undefined,
  }));

/**
 * Sends the signed-in user's waiting actions, oldest first, one at a time. A refusal (400, 403,
 * 404, 409) drops that action and keeps the reason; a 401 stops and keeps the rest; no answer (or
 * 429, 5xx) stops and retries later. The calls are idempotent on the client id, so an action whose
 * answer was lost is stored once when it is sent again.
 */
async function drain() {
  for (;;) {
    const s = await read();
    if (!s.token || !s.user) return;
    const item = (s.queue ?? []).find((q) => q.userId === s.user!.userId);
    if (!item) {
      retryDelay = 2000;
      await chrome.alarms.clear(RETRY_ALARM);
      return;
    }
    try {
      await send(apiFor(s), item);
      outcomes.set(item.clientId, { status: 'sent' });
      await remove(item.clientId);
      await patch({ problem: null });
      // the user's own contact shows on its board (and the team's) at once
      if (item.kind !== 'load') void syncContacts();
    } catch (err) {
      if (err instanceof SignInAgain) {
        outcomes.set(item.clientId, { status: 'signInAgain' });
        await endedElsewhere();
        return;
      }
      if (isTransient(err)) {
        outcomes.set(item.clientId, { status: 'queued' });
        await patch({ problem: (err as Error).message });
        scheduleRetry();
        return;
      }
      const message = err instanceof Refused ? err.message : 'Something went wrong';
      outcomes.set(item.clientId, { status: 'refused', message });
      await remove(item.clientId, { label: item.label, message });
    }
  }
}

function scheduleRetry() {
  void chrome.alarms.create(RETRY_ALARM, { periodInMinutes: RETRY_MINUTES });
  if (retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void flush();
  }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, 30_000);
}

let flushing: Promise<void> | null = null;
let flushAgain = false;

/** Runs the queue; a call while it runs makes it look once more at the end, so nothing added meanwhile waits. */
function flush(): Promise<void> {
  if (flushing) {
    flushAgain = true;
    return flushing;
  }
  flushing = (async () => {
    do {
      flushAgain = false;
      await drain();
    } while (flushAgain);
  })().finally(() => {
    flushing = null;
    void pushState();
  });
  return flushing;
}

async function act(action: RowAction): Promise<ActionOutcome> {
  const s = await read();
  if (!s.user) return { status: 'signedOut' };
  if (!(s.mcs ?? []).some((m) => m._id === action.mcId)) return { status: 'refused', message: 'Pick the MC you work for' };
  await enqueue(s.user.userId, action);
  if (!s.token) {
    await pushState();
    return { status: 'signInAgain' };
  }
  outcomes.delete(action.clientId);
  await flush();
  const outcome = outcomes.get(action.clientId);
  if (outcome) return outcome;
  // sent by an earlier run (a double click), or waiting behind actions that could not go
  const queued = ((await read()).queue ?? []).some((q) => q.clientId === action.clientId);
  return queued ? { status: 'queued' } : { status: 'sent' };
}

// ---- the board's health report ----

/** At most one report an hour from this browser (docs/decisions/0145-board-alarm.md). */
const HEALTH_EVERY_MS = 3_600_000;

/**
 * Sends what the board could read of DAT's page: counts only, never a row's content. The hour is
 * claimed before the call (two board tabs at once send one), and given back when the server could
 * not be reached.
 */
async function sendHealth(report: HealthReportInput) {
  const claim = await update((s) => {
    const due = !!s.token && (!s.healthSentAt || Date.now() - s.healthSentAt >= HEALTH_EVERY_MS);
    return { patch: due ? { healthSentAt: Date.now() } : {}, result: { due, before: s.healthSentAt } };
  });
  if (!claim.due) return;
  try {
    await apiFor(await read()).extension.health.$post({ json: report });
  } catch (err) {
    if (err instanceof SignInAgain) await endedElsewhere();
    else if (isTransient(err)) await patch({ healthSentAt: claim.before });
  }
}

// ---- messages ----

async function handle(request: Request, sender: chrome.runtime.MessageSender): Promise<Response> {
  switch (request.type) {
    case 'state':
      break;
    case 'boardHello':
      await rememberTab(sender.tab?.id);
      void updateLive();
      break;
    case 'signIn':
      try {
        await signIn(request.email, request.password);
      } catch (err) {
        return { ok: false, message: err instanceof Error ? err.message : 'Something went wrong', state: viewOf(await read()) };
      }
      break;
    case 'signOut':
      await signOut();
      break;
    case 'pickMc':
      await update((s) => ({ patch: (s.mcs ?? []).some((m) => m._id === request.mcId) ? { pickedMcId: request.mcId } : {}, result: undefined }));
      break;
    case 'refresh':
      // a sync already under way may have read the server before the change the user expects
      await syncAfter(() => syncing, sync);
      break;
    case 'flush':
      await flush();
      break;
    case 'action': {
      const outcome = await act(request.action);
      await pushState();
      return { ok: true, state: viewOf(await read()), outcome };
    }
    case 'health':
      await sendHealth(request.report);
      return { ok: true, state: viewOf(await read()) };
    case 'setApiUrl': {
      const url = request.apiUrl.trim().replace(/\/+$/, '');
      if (!/^https?:\/\/[^/\s]+$/i.test(url)) return { ok: false, message: 'Enter the server address, like https://app.freightdesk.example' };
      const s = await read();
      if (apiUrlOf(s) !== url) {
        // a session belongs to its server
        if (s.token) await signOut();
        await patch({ apiUrl: url === defaultApiUrl() ? undefined : url });
      }
      break;
    }
    case 'setMailClient':
      if (!(MAIL_CLIENTS as readonly string[]).includes(request.mailClient)) return { ok: false, message: 'Pick a mail client' };
      await patch({ mailClient: request.mailClient });
      break;
    default:
      return { ok: false, message: 'Unknown request' };
  }
  const state = viewOf(await read());
  if (request.type !== 'state' && request.type !== 'boardHello') await pushState();
  return { ok: true, state };
}

chrome.runtime.onMessage.addListener((request: Request, sender, sendResponse) => {
  // only the extension's own pages and its content script on the board talk to it
  if (sender.id !== chrome.runtime.id) return false;
  handle(request, sender).then(sendResponse, (err) => sendResponse({ ok: false, message: err instanceof Error ? err.message : 'Something went wrong' }));
  return true;
});

chrome.tabs.onRemoved.addListener(async (tabId) => {
  const tabs = await boardTabs();
  if (!tabs.includes(tabId)) return;
  await chrome.storage.session.set({ boardTabs: tabs.filter((t) => t !== tabId) });
  void updateLive();
});

chrome.alarms.onAlarm.addListener((alarm) => {
  // a service worker Chrome stopped meanwhile starts again here: the socket too
  if (alarm.name === SYNC_ALARM || alarm.name === CONTACTS_ALARM) void updateLive();
  if (alarm.name === SYNC_ALARM) void sync();
  if (alarm.name === RETRY_ALARM) void flush();
  if (alarm.name === CONTACTS_ALARM) void syncContacts();
});

async function start() {
  // the token stays in trusted contexts: the board's content script cannot read storage at all
  await chrome.storage.local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' }).catch(() => undefined);
  const s = await read();
  if (s.token && !(await chrome.alarms.get(SYNC_ALARM))) await chrome.alarms.create(SYNC_ALARM, { periodInMinutes: SYNC_MINUTES });
  if (s.token && !(await chrome.alarms.get(CONTACTS_ALARM))) await chrome.alarms.create(CONTACTS_ALARM, { periodInMinutes: CONTACTS_MINUTES });
  if ((s.queue ?? []).length && s.token) void flush();
  void updateLive();
}

chrome.runtime.onInstalled.addListener(() => void start());
chrome.runtime.onStartup.addListener(() => void start());
void start();
