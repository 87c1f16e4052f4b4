/**
 * Everything the extension knows about DAT's markup, in one file: when DAT changes its load search
 * page, this is the one file to fix (and e2e/fixtures/dat/ the page to change with it).
 *
 * DAT's load search results (https://one.dat.com/search-loads, 2026): each result is a
 * `.row-container`; its cells carry `data-test` attributes. Any cell may be missing (a load
 * without a contact e-mail, a board layout with fewer columns): reading a missing cell gives ''.
 */
import type { BoardLoad } from '../shared/load';

export const ROW = '.row-container';

/** The cells, by what they hold; several selectors where DAT has used more than one name. */
export const CELLS = {
  company: '[data-test="load-company-cell"]',
  contact: '[data-test="load-contact-cell"]',
  origin: '[data-test="load-origin-cell"]',
  destination: '[data-test="load-destination-cell"]',
  pickup: '[data-test="load-pickup-cell"], [data-test="load-pickup-date-cell"], [data-test="load-date-cell"]',
  rate: '[data-test="load-rate-cell"]',
  reference: '[data-test="load-reference-cell"], [data-test="load-ref-cell"]',
} as const;

/** Our own elements carry this class prefix; reading a row skips them. */
export const OWN_PREFIX = 'fd-';

const isOwn = (node: Node) => node instanceof Element && [...node.classList].some((c) => c.startsWith(OWN_PREFIX));

/** A cell's text without our badges and buttons, its lines joined by newlines. */
function textOf(el: Element | null): string {
  if (!el) return '';
  let out = '';
  const walk = (node: Node) => {
    if (isOwn(node)) return;
    if (node.nodeType === Node.TEXT_NODE) out += node.textContent ?? '';
    else if (node instanceof HTMLBRElement) out += '\n';
    else {
      const block = node instanceof HTMLElement && /^(DIV|P|LI|SECTION)$/.test(node.tagName);
      if (block && out && !out.endsWith('\n')) out += '\n';
      node.childNodes.forEach(walk);
      if (block && !out.endsWith('\n')) out += '\n';
    }
  };
  walk(el);
  return out;
}

/** The first non-empty line of a cell: the company's name without its credit score line, the city without the deadhead. */
const firstLine = (el: Element | null) =>
  textOf(el)
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find(Boolean) ?? '';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
// digits with the separators boards use, and an optional extension
const PHONE = /(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}(?:\s*(?:ext\.?|extension|x|#)\s*\d{1,6})?/i;

/** What a row shows. */
export function readRow(row: Element): BoardLoad {
  const cell = (selector: string) => row.querySelector(selector);
  const contactCell = cell(CELLS.contact);
  const contactText = textOf(contactCell);
  const mailto = contactCell?.querySelector('a[href^="mailto:"]')?.getAttribute('href')?.slice('mailto:'.length);
  const tel = contactCell?.querySelector('a[href^="tel:"]')?.textContent;
  return {
    company: firstLine(cell(CELLS.company)),
    phone: (tel?.trim() || PHONE.exec(contactText)?.[0] || '').trim(),
    email: (mailto ? decodeURIComponent(mailto.split('?')[0]!) : EMAIL.exec(contactText)?.[0]) ?? '',
    origin: firstLine(cell(CELLS.origin)),
    dest: firstLine(cell(CELLS.destination)),
    pickup: firstLine(cell(CELLS.pickup)),
    rate: firstLine(cell(CELLS.rate)),
    reference: firstLine(cell(CELLS.reference)),
  };
}

/** Where a row's badges go: after the company's name, or at the row's start when the cell is missing. */
export const badgeHost = (row: Element): Element => row.querySelector(CELLS.company) ?? row;

/** The rows among (or inside) the nodes a mutation touched. */
export function rowsIn(node: Node): Element[] {
  if (!(node instanceof Element)) return node.parentElement ? rowsIn(node.parentElement) : [];
  const own = node.closest(ROW);
  if (own) return [own];
  return [...node.querySelectorAll(ROW)];
}
