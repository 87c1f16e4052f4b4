/** The queue of the board's actions: kept in storage, sent in order, retried while the server is away. */
import { type ActionOutcome, type QueuedAction, type QueuedBody, type RefusedAction, type RowAction, subjectOf } from '../shared/protocol';
import { RETRY_ALARM, RETRY_MINUTES } from './alarms';
import { type ExtensionApi, isTransient, Refused, SignInAgain } from './api';
import { desk } from './desk';
import { apiFor, patch, read, update } from './store';

const MAX_REFUSED_SHOWN = 20;

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
    board: action.board,
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

const remove = (clientId: string, refused?: Omit<RefusedAction, 'at'>) =>
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
      if (item.kind !== 'load') void desk.syncContacts();
    } catch (err) {
      if (err instanceof SignInAgain) {
        // the session has ended (api.ts): the rest waits for the same user's next sign-in
        outcomes.set(item.clientId, { status: 'signInAgain' });
        return;
      }
      if (isTransient(err)) {
        outcomes.set(item.clientId, { status: 'queued' });
        await patch({ problem: (err as Error).message });
        scheduleRetry();
        return;
      }
      const refusal = err instanceof Refused ? err.refusal : { message: 'Something went wrong' };
      outcomes.set(item.clientId, { status: 'refused', ...refusal });
      await remove(item.clientId, { label: item.label, what: subjectOf(item), ...refusal });
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
export function flush(): Promise<void> {
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
    void desk.pushState();
  });
  return flushing;
}

export async function act(action: RowAction): Promise<ActionOutcome> {
  const s = await read();
  if (!s.user) return { status: 'signedOut' };
  if (!(s.mcs ?? []).some((m) => m._id === action.mcId)) return { status: 'refused', message: 'Pick the MC you work for' };
  await enqueue(s.user.userId, action);
  if (!s.token) {
    await desk.pushState();
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
