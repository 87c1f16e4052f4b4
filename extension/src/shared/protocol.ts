/**
 * What the extension's parts say to each other. The service worker holds the session and makes
 * every API call (host permission for the server; the API opens no CORS); the popup, the options
 * page and the board's content script ask it by `chrome.runtime.sendMessage` and get a `ViewState`
 * back. The access token never leaves the service worker.
 */
import type * as z from 'zod';
import type { LoginAnswer } from '../../../worker/auth/auth.schema';
import type { HealthReportInput } from '../../../worker/extension/extension-health.schema';
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import type { ContactFields, ContactKind, LoadBoard, logContactSchema } from '../../../worker/history/history.schema';
import type { addLoadSchema } from '../../../worker/loads/loads.schema';
import type { Refusal } from './refusal';

export type { Refusal };

import type { Language } from '../../../worker/lib/languages';
import type { SubscriptionStatus } from '../../../worker/subscriptions/subscriptions.schema';
import type { TeamContactsDto, TeamSettingsDto } from '../../../worker/team/team.schema';
import type { MailClient } from './compose';

/** The team's phones: which dialer "Call on line N" opens, and each line's caller number. */
export type TeamPhones = Pick<TeamSettingsDto, 'dialer' | 'dialerTemplate' | 'lines'>;

/** An MC the user may work for on the board: its own setting with Show in DAT on. */
export interface McChoice {
  /** The user's MC setting (what the ingestion calls take as `mcSettingId`). */
  _id: string;
  name: string;
  /** Its line, 1 to 6 (null when none is set). */
  line: number | null;
  /** The team's MC the filters name: the manager's MC an agent's setting points at, or a lead's own. */
  teamMcId: string;
  emailSubject: string;
  emailContent: string;
}

/**
 * A queued action's call and body, typed from the ingestion routes' request schemas: an active
 * load for POST /api/activeLoad/add, a call or an e-mail for POST /api/callHistory/log.
 */
export type QueuedBody = { kind: 'load'; body: z.input<typeof addLoadSchema> } | { kind: ContactKind; body: z.input<typeof logContactSchema> };

/** "L2 · Swift Haul": the MC with its line number. */
export const mcLabel = (mc: McChoice) => (mc.line ? `L${mc.line} · ${mc.name}` : mc.name);

/** A row's action, ready to send, waiting in the queue until the server answers. */
export type QueuedAction = QueuedBody & {
  /** The ingestion call's client id: the same click twice is the same entry. */
  clientId: string;
  /** Whose action it is: sent only while this user is signed in. */
  userId: string;
  /** For the popup: "Call to Total Quality Logistics". */
  label: string;
  queuedAt: number;
};

/** What an action was about, for its label in the user's language ("Call to Total Quality Logistics"). */
export interface ActionSubject {
  kind: ContactKind | 'load';
  brokerName: string;
  origin: string;
  dest: string;
}

/** What a queued action is about. */
export const subjectOf = (item: QueuedBody): ActionSubject => ({
  kind: item.kind,
  brokerName: item.body.brokerName,
  origin: item.body.origin ?? '',
  dest: item.body.dest ?? '',
});

/** An action the server refused (400, 403, 404, 409): kept with the reason, not retried. */
export interface RefusedAction extends Refusal {
  /** The label in English (kept for entries stored before `what`). */
  label: string;
  what?: ActionSubject;
  at: number;
}

export type SignedInUser = Pick<LoginAnswer, 'userId' | 'name' | 'email' | 'userType'>;

export type SubscriptionState = SubscriptionStatus;

/** Everything the popup and the board show. No token in it. */
export interface ViewState {
  apiUrl: string;
  user: SignedInUser | null;
  /**
   * The signed-in user's language (the login answer's, then GET /api/user/:id's at each sync);
   * null when signed out: the screens follow the browser's then.
   */
  language: Language | null;
  /** A call answered 401: the session ended elsewhere; calls stop until the user signs in again. */
  signInAgain: boolean;
  subscription: SubscriptionState | null;
  mcs: McChoice[];
  pickedMcId: string | null;
  filters: MinifiedFilterDto[];
  filtersSyncedAt: number | null;
  /** Changes only when the filters do (their ETag): a sync that found them unchanged redraws nothing, so an open menu stays. */
  filtersVersion: string | null;
  /** The team's dialer and line numbers (null until the first sync). */
  phones: TeamPhones | null;
  /** Where E-mail writes the message (the options page; this browser's choice). */
  mailClient: MailClient;
  /** The team's contacts of the markers' window ("Called by Anna · 14:02 · L2"); null until synced. */
  teamContacts: TeamContactsDto | null;
  /** Changes whenever `teamContacts` does: rows are redrawn then. */
  teamContactsVersion: string | null;
  /** Actions waiting for the server, oldest first. */
  pending: { label: string; what: ActionSubject; queuedAt: number }[];
  refused: RefusedAction[];
  /** The last sync's problem ("The server cannot be reached"), or null. */
  problem: string | null;
  /**
   * The live signals' socket while a board is open: 'on' (changes arrive within seconds), 'off'
   * (it cannot connect: the extension syncs every minute and retries), null (no board open yet).
   */
  live: 'on' | 'off' | null;
}

/**
 * What the board sends for a row's action: the load as the row shows it (the Contact History
 * row's fields; `loadDate` is the pick-up date as a full date, yyyy-mm-dd, or the board's text when
 * it is not a date; `line` the line the board offered the call or e-mail on, null when none), and
 * what was done.
 */
export interface RowAction extends Pick<ContactFields, 'brokerName' | 'contact' | 'origin' | 'dest' | 'loadDate' | 'line'> {
  kind: ContactKind | 'load';
  mcId: string;
  clientId: string;
  /** The load's reference ID from its details ('' when not shown); stored with an active load. */
  reference: string;
  /** The board the load was on. */
  board: LoadBoard;
  /** When the user clicked (ms): a queued action is filed at that time, not when it is sent. */
  at: number;
}

/** The outcome of an action as the board shows it. */
export type ActionOutcome = { status: 'sent' } | { status: 'queued' } | ({ status: 'refused' } & Refusal) | { status: 'signInAgain' } | { status: 'signedOut' };

export type Request =
  | { type: 'state' }
  | { type: 'signIn'; email: string; password: string }
  | { type: 'signOut' }
  | { type: 'pickMc'; mcId: string }
  | { type: 'refresh' }
  | { type: 'flush' }
  | { type: 'boardHello' }
  | { type: 'action'; action: RowAction }
  /** What the board could read of DAT's page (counts only); sent to the server at most once an hour. */
  | { type: 'health'; report: HealthReportInput }
  | { type: 'setApiUrl'; apiUrl: string }
  | { type: 'setMailClient'; mailClient: MailClient };

/** The answers: the state, an action's outcome, or an error message for the screen. */
export type Response = { ok: true; state: ViewState; outcome?: ActionOutcome } | ({ ok: false; state?: ViewState } & Refusal);

/** Pushed by the service worker to the board's tabs when the state changes. */
export interface StatePush {
  type: 'statePush';
  state: ViewState;
}

/** Sends a request to the service worker. */
export async function ask(request: Request): Promise<Response> {
  try {
    const answer = (await chrome.runtime.sendMessage(request)) as Response | undefined;
    return answer ?? { ok: false, message: 'The extension did not answer' };
  } catch {
    // the extension was reloaded or updated under an open page
    return { ok: false, message: 'The extension was updated: reload this page' };
  }
}
