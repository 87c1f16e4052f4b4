/**
 * What every board's adapter shares: the shape of a read row, reading text as a person sees it
 * (open shadow roots included), contacts in their many forms, and finding elements through open
 * shadow roots. Nothing here knows a board's markup (boards/<board>.ts does) or changes the page.
 */
import type { LoadBoard } from '../../../worker/history/history.schema';
import type { BoardLoad } from '../shared/load';

/** Our own elements carry this class prefix; reading a row skips them. */
export const OWN_PREFIX = 'fd-';
/** The classes we put on the board's own rows (the tint): such a row is still the board's. */
const ROW_MARKS = new Set(['fd-row-blocked', 'fd-row-flagged']);
/**
 * Whether a node is one of ours. Not by the first class: a board that rewrites a row's classes
 * (Truckstop's grid does, recycling rows) leaves our tint class first on its own row.
 */
export const isOwn = (node: Node) => node instanceof Element && [...node.classList].some((c) => c.startsWith(OWN_PREFIX) && !ROW_MARKS.has(c));

/** What of a row was found, field by field: the health report's counts (no content). */
export type FieldPresence = Partial<Record<string, boolean>>;

/** What a row shows: the cells its actions need, and the marks of a board's layouts (for the report). */
export interface RowSignals {
  /** The row's own pick-up date: + Active load needs no details. */
  pickupCell: boolean;
  /** The row's own contact: Call and E-mail need no details (an empty one means there is none). */
  contactCell: boolean;
  smallCells: boolean;
  wideCells: boolean;
}
export type LayoutSignal = keyof RowSignals;
export type RowLayout = 'wide' | 'compact';

export interface ReadRow {
  load: BoardLoad;
  /** The layout the row's marks point to, for the health report only. */
  layout: RowLayout | null;
  signals: RowSignals;
  /** The load's details are open and read with it (DAT's details in the row, Truckstop's side panel). */
  hasDetails: boolean;
  /** Per field: whether its element was found (only the fields this layout shows). */
  found: FieldPresence;
}

/** The open load's details where the board shows them apart from the rows (Truckstop's side panel): read, and where our control goes. */
export interface OpenPanel {
  /** The panel's element (kept while the board recycles it for another load). */
  el: Element;
  read: () => ReadRow;
  /** Where the panel's badges and control go: inside the company's name, before it. */
  nameHost: () => Element | null;
}

/**
 * A load board as the extension reads it: everything but reading the page is shared (the badges,
 * tint, FD menu, actions, markers, queue and live signals). A third board is one file like
 * boards/dat.ts and its fixture in e2e/fixtures/.
 */
export interface BoardAdapter {
  board: LoadBoard;
  /** The board's name as the screens show it. */
  label: string;
  /** Whether the page at this address is this board's (the content script runs where the manifest says). */
  matches: (url: URL) => boolean;
  /** Whether the page looks like a results page (the alarm counts only there). */
  resultsPage: () => boolean;
  /** The number of results the page says it has, or null without a counter. */
  resultsCount: () => number | null;
  /** The result rows that are loads. */
  loadRows: () => HTMLElement[];
  /** The rows a changed node is in or holds. */
  rowsIn: (node: Node) => HTMLElement[];
  readRow: (row: HTMLElement) => ReadRow;
  /** Where the row's badges and control go: inside the company's name, before it. */
  nameHost: (row: HTMLElement) => Element | null;
  /** The row's own line (without details): the menu opens under it. */
  rowLine: (row: HTMLElement) => Element;
  /** A row's open details, in the row or right after it (DAT), else null: they get the actions as buttons. */
  details?: (row: HTMLElement) => Element | null;
  /** Where in the details the buttons go. */
  detailsHeader?: (details: Element) => Element;
  /** The open load's panel apart from the rows, if the board has one and it is open. */
  openPanel?: () => OpenPanel | null;
  /** Whether the board keeps its rows in open shadow roots (they are observed and styled one by one). */
  shadowRoots?: boolean;
}

/**
 * An element's text as a person sees it, lines joined by newlines: our own elements left out,
 * open shadow roots read (DAT's `connected-email-*` components keep their text there, TB), and
 * `skip` elements left out (the destination inside DAT's compact origin).
 */
export function textOf(el: Element | null, skip?: string): string {
  if (!el) return '';
  let out = '';
  const walk = (node: Node) => {
    if (isOwn(node)) return;
    if (node.nodeType === Node.TEXT_NODE) {
      out += node.textContent ?? '';
      return;
    }
    if (!(node instanceof Element)) return;
    if (node !== el && skip && node.matches(skip)) return;
    if (/^(STYLE|SCRIPT|TEMPLATE|LINK)$/.test(node.tagName)) return;
    if (node instanceof HTMLBRElement) {
      out += '\n';
      return;
    }
    const block = /^(DIV|P|LI|SECTION)$/.test(node.tagName);
    if (block && out && !out.endsWith('\n')) out += '\n';
    if (node.shadowRoot) node.shadowRoot.childNodes.forEach(walk);
    node.childNodes.forEach(walk);
    if (block && !out.endsWith('\n')) out += '\n';
  };
  walk(el);
  return out;
}

export const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
export const firstLine = (el: Element | null, skip?: string) => lines(textOf(el, skip))[0] ?? '';
/** "–", "—" and "-" are the boards' "none". */
export const orNone = (text: string) => (/^[–—-]*$/.test(text.trim()) ? '' : text.trim());

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
// digits with the separators boards use, and an optional extension ("x1", "ext 12")
const PHONE = /(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}(?:\s*(?:ext\.?|extension|x|#)\s*\d{1,6})?/i;
const digitCount = (text: string) => text.replace(/\D/g, '').length;

/**
 * A contact as a board shows it, in any of its forms: an `<a href="tel:|mailto:">` (the element
 * itself or inside a wrapper), or a web component with the address in `recipient-email` and
 * `href-value` and its text in an open shadow root (DAT's `connected-email-*`, TB). The phone keeps
 * the text shown ("(224) 222-0100 x1") when it has the number.
 */
export function readContact(host: Element | null): { phone: string; email: string; found: boolean } {
  if (!host) return { phone: '', email: '', found: false };
  let phone = '';
  let email = '';
  const candidates = [host, ...host.querySelectorAll('a[href], [href-value], [recipient-email]')];
  for (const el of candidates) {
    if (isOwn(el)) continue;
    const recipient = el.getAttribute('recipient-email');
    if (!email && recipient && EMAIL.test(recipient)) email = recipient.trim();
    const href = el.getAttribute('href-value') ?? (el instanceof HTMLAnchorElement ? el.getAttribute('href') : null);
    if (!href) continue;
    if (!email && /^mailto:/i.test(href)) email = decodeURIComponent(href.slice('mailto:'.length).split('?')[0] ?? '').trim();
    if (!phone && /^tel:/i.test(href)) {
      const shown = PHONE.exec(textOf(el))?.[0] ?? '';
      phone = digitCount(shown) >= 7 ? shown.trim() : decodeURIComponent(href.slice('tel:'.length)).trim();
    }
  }
  const text = textOf(host);
  if (!phone) phone = PHONE.exec(text)?.[0]?.trim() ?? '';
  if (!email) email = EMAIL.exec(text)?.[0] ?? '';
  return { phone, email, found: true };
}

/** Every open shadow root under `root`, nested ones included. */
export function shadowRootsIn(root: ParentNode): ShadowRoot[] {
  const found: ShadowRoot[] = [];
  const visit = (node: ParentNode) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.currentNode as Element | null; el; el = walker.nextNode() as Element | null) {
      if (el instanceof Element && el.shadowRoot) {
        found.push(el.shadowRoot);
        visit(el.shadowRoot);
      }
    }
  };
  visit(root);
  return found;
}

/** `querySelectorAll` that also looks inside open shadow roots (the page's, never a closed one). */
export function deepQueryAll<T extends Element = Element>(root: ParentNode, selector: string): T[] {
  return [root, ...shadowRootsIn(root)].flatMap((r) => [...r.querySelectorAll<T>(selector)]);
}
export const deepQuery = <T extends Element = Element>(root: ParentNode, selector: string): T | null => deepQueryAll<T>(root, selector)[0] ?? null;
