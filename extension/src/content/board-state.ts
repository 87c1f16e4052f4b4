/** What the board's script knows: the service worker's state, the version rows were drawn under, and whether the page can be read. */
import type { McChoice, ViewState } from '../shared/protocol';
import type { PageHealth } from './health';
import type { ReadRow } from './selectors';

export let state: ViewState | null = null;
/** Changes when what rows show changes (user, MC, filters): rows decorated under another version are redone. */
export let version = '';
export let health: PageHealth = { layout: null, unreadable: false, reason: null };

export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) => {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

export const pickedMc = (): McChoice | null => state?.mcs.find((m) => m._id === state?.pickedMcId) ?? null;
export const signedIn = () => !!state?.user && !state.signInAgain;
/** Flags are off while the page cannot be read (the bar says so). */
export const decorating = () => signedIn() && !health.unreadable;

/** What a row shows that decides its decoration; with `version`, a row is redone only when this changes. */
export const signatureOf = (read: ReadRow) => {
  const l = read.load;
  return JSON.stringify([read.signals, read.hasDetails, l.company, l.phone, l.email, l.origin, l.dest, l.pickup, l.rate, l.reference, l.mcNumber]);
};

export function computeVersion(s: ViewState | null): string {
  if (!s) return 'none';
  return JSON.stringify([
    s.user?.userId ?? null,
    // the rows' texts are in the user's language
    s.language,
    s.signInAgain,
    s.pickedMcId,
    // not the sync's time: a live signal's or the minute's sync that found nothing new keeps an open menu open
    s.filtersVersion,
    s.mcs.map((m) => [m._id, m.line, m.emailSubject, m.emailContent]),
    s.phones,
    s.mailClient,
    s.apiUrl,
    health.unreadable,
  ]);
}

/** The setters: board.ts takes in a new state from the service worker and a new reading of the page. */
export const setState = (next: ViewState) => {
  state = next;
};
export const setVersion = (next: string) => {
  version = next;
};
export const setHealth = (next: PageHealth) => {
  health = next;
};
