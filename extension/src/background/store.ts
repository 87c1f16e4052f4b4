/**
 * The extension's state in `chrome.storage.local` (kept across browser restarts): the session, the
 * synced MCs and filters, the picked MC and the queue of actions. Only the service worker writes
 * it, one change at a time (`update`), and content scripts cannot read it (TRUSTED_CONTEXTS).
 */

import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import type { LoadBoard } from '../../../worker/history/boards';
import type { Language } from '../../../worker/lib/languages';
import type { TeamContactsDto } from '../../../worker/team/team.schema';
import type { MailClient } from '../shared/compose';
import type { McChoice, QueuedAction, RefusedAction, SignedInUser, SubscriptionState, TeamPhones } from '../shared/protocol';
import { type ExtensionApi, extensionApi } from './api';

export interface Stored {
  /** Set in the options; the build's address when unset. */
  apiUrl?: string;
  token?: string | null;
  user?: SignedInUser | null;
  /** The signed-in user's language (docs/decisions/0025-extension-languages.md); null when signed out. */
  language?: Language | null;
  signInAgain?: boolean;
  /** Device tokens by e-mail (docs/decisions/0034-device-tokens.md): kept on sign-out, they name this browser. */
  deviceTokens?: Record<string, string>;
  subscription?: SubscriptionState | null;
  mcs?: McChoice[];
  pickedMcId?: string | null;
  filters?: MinifiedFilterDto[];
  /** The server's ETag of `filters`: the next sync sends it as If-None-Match (304: keep them). */
  filtersEtag?: string | null;
  filtersSyncedAt?: number | null;
  /** Where E-mail writes the message (options; kept on sign-out: it is this browser's). */
  mailClient?: MailClient;
  /** The team's recent contacts for the markers, and their ETag (If-None-Match: 304 keeps them). */
  teamContacts?: TeamContactsDto | null;
  teamContactsEtag?: string | null;
  /** The team's dialer and caller numbers, synced with the MCs. */
  phones?: TeamPhones | null;
  queue?: QueuedAction[];
  refused?: RefusedAction[];
  problem?: string | null;
  /** When this browser last sent each board's health report (at most one an hour per board). */
  healthSentAt?: number | Partial<Record<LoadBoard, number>>;
}

/** Roles that work a load board: the ingestion calls take only them. */
export const BOARD_ROLES = new Set(['agent', 'manager']);

export const defaultApiUrl = () => __API_URL__.replace(/\/+$/, '');

/** The server this browser talks to: the options page's choice, else the build's. */
export const apiUrlOf = (s: Stored) => s.apiUrl || defaultApiUrl();

/** The API as the stored session calls it. */
export const apiFor = (s: Stored): ExtensionApi => extensionApi(apiUrlOf(s), s.token ?? null);

export async function read(): Promise<Stored> {
  return (await chrome.storage.local.get(null)) as Stored;
}

let chain: Promise<unknown> = Promise.resolve();

/** Reads, changes and writes the state as one step: changes never interleave, so none is lost. */
export function update<T>(change: (current: Stored) => { patch: Partial<Stored>; result: T } | Promise<{ patch: Partial<Stored>; result: T }>): Promise<T> {
  const run = chain.then(async () => {
    const current = await read();
    const { patch, result } = await change(current);
    if (Object.keys(patch).length) await chrome.storage.local.set(patch);
    return result;
  });
  chain = run.catch(() => undefined);
  return run;
}

export const patch = (values: Partial<Stored>) => update(() => ({ patch: values, result: undefined }));
