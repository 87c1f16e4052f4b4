/**
 * What the board's script knows, and the one module its parts call: the service worker's state,
 * the board's adapter, the version rows were drawn under, whether the page can be read, and the
 * styles our elements need inside the board's shadow roots.
 */
import type { McChoice, ViewState } from '../shared/protocol';
import boardCss from './board.css?inline';
import type { PageHealth } from './health';
import type { BoardAdapter, ReadRow } from './read';

export let state: ViewState | null = null;
/** The board this page is (boards/), set once at start. */
export let adapter: BoardAdapter | null = null;
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

let stateListener: ((next: ViewState) => void) | null = null;
/** board.ts redraws on every new state; the bar and the actions hand it the state an answer brought. */
export const onState = (listener: (next: ViewState) => void) => {
  stateListener = listener;
};
export const applyState = (next: ViewState) => stateListener?.(next);

export const setAdapter = (next: BoardAdapter) => {
  adapter = next;
};

let sheet: CSSStyleSheet | null = null;
const styled = new WeakSet<ShadowRoot>();
/**
 * Our styles where `node` is: the page's own stylesheet (content.css) does not reach into a shadow
 * root, so the board's shadow roots get ours adopted (or, where adopting fails, a style element).
 */
export function ensureStyles(node: Node) {
  const root = node.getRootNode();
  if (!(root instanceof ShadowRoot) || styled.has(root)) return;
  styled.add(root);
  try {
    sheet ??= new CSSStyleSheet();
    if (!sheet.cssRules.length) sheet.replaceSync(boardCss);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.className = 'fd-style';
    style.textContent = boardCss;
    root.append(style);
  }
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
