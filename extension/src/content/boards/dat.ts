/**
 * DAT One's load search page, the board's adapter: everything the extension knows of DAT's page is
 * in this one file; when DAT changes its page, this is the file to fix (with the boards in
 * e2e/fixtures/dat-one/). Each selector names its source, with the labels of ../shared/dat-board.md
 * (docs/decisions/0016-dat-board.md lists them): K-msg and K-new are full DOM captures of DAT One's
 * Search Loads page, K-css their styles, TB, TIO, QD, DH, PW and OLD the selectors of public
 * extensions and scrapers.
 *
 * Any cell may be missing (a load without a contact, the compact layout, a DAT release that
 * renamed a cell): reading a missing cell gives ''. Nothing here changes the page.
 */
import type { BoardLoad } from '../../shared/load';
import {
  type BoardAdapter,
  type FieldPresence,
  firstLine,
  isOwn,
  OWN_PREFIX,
  orNone,
  type ReadRow,
  type RowLayout,
  type RowSignals,
  readContact,
  textOf,
} from '../read';

// ---- the results list (dat-board.md §1) ----

/**
 * One result: `div.row-container#table-row-<postingId>` in the CDK viewport (K-msg, K-new, DH).
 * The details' company block has `.row-container`s of its own (K-new): a result is the outermost.
 */
const ROW = '.row-container';
const ROW_OUTERMOST = '.row-container:not(.row-container .row-container)';

/** The result row an element is in (the outermost `.row-container`), or null. */
function rowOf(el: Element | null): Element | null {
  let row = el?.closest(ROW) ?? null;
  for (let outer = row?.parentElement?.closest(ROW); outer; outer = outer.parentElement?.closest(ROW)) row = outer;
  return row;
}
/** The row's own line of cells, without its details (K-msg, K-new). */
const ROW_CELLS = '.row-cells';
/** Rows that are not loads: the "Similar Results" separator (PW) and loading placeholders (EX). */
const NOT_A_LOAD = '#table-row-similar-matches-separator, .dat-table-row-loader, .animated-background';
/** A results page: the table component, its virtual-scroll body, or the results counter (K-msg, PW). */
const RESULTS_PAGE = 'dat-search-table, [data-test="results-table-body"], [data-test="results-counter"]';
/** "5Results": the direct results' count (PW). */
const RESULTS_COUNTER = '[data-test="results-counter"]';

// ---- the cells (dat-board.md §2) ----

const CELLS = {
  /** Wide: `[data-test="load-company-cell"]` (TB, TIO, DH, PW) in `.cell-company`; compact: `.cell-company-small > dat-company` (K-msg). */
  company: '[data-test="load-company-cell"], .cell-company dat-company, .cell-company-small dat-company, .cell-company, .cell-company-small',
  /** The company's name: `span.company-prefer-or-blocked > div.truncate.company` (K-msg, DH, OLD). */
  companyName: '.company-prefer-or-blocked .company, .company-prefer-or-blocked',
  /** Parts of the company cell that are not its name: contact (DH, OLD), equipment line (K-msg), credit. */
  notTheName: '.contact-state, [data-test="load-contact-cell"], .info-container, .cell-container-small > .info-container, mat-menu, .credit, .days-to-pay',
  /** Wide: the contact, as a link, a wrapper of a link or DAT's web component (TB, TIO, DH, OLD). */
  contact: '[data-test="load-contact-cell"], .contact-state',
  /** Wide: `[data-test="load-pick-up-cell"]` (TB, TIO, PW, DH); the other names from older boards. */
  pickup: '[data-test="load-pick-up-cell"], [data-test="load-pickup-cell"], [data-test="load-pickup-date-cell"], [data-test="load-date-cell"]',
  /** `[data-test="load-origin-cell"]` holds the destination's element too in the compact route (K-msg). */
  origin: '[data-test="load-origin-cell"]',
  destination: '[data-test="load-destination-cell"]',
  /** The wide route's variant, also in the DOM (K-msg). */
  originWide: '.route-dh-container-lg .origin .extended-trip-point',
  destinationWide: '.route-dh-container-lg .destination .extended-trip-point',
  /** Rate: `.offer` total and `.calculated-rate` per mile, or `.dash-align` when none is posted (K-msg). */
  rate: '[data-test="load-rate-cell"]',
  trip: '[data-test="load-trip-cell"]',
  deadhead: '[data-test="load-dho-cell"]',
  /** Wide ≥ 1920 px: `load-eq-cell` (TB, TIO); compact: the positional `span.equipment-type` (K-msg). */
  equipment: '[data-test="load-eq-cell"], .equipment-type',
  /** Older boards' reference cell; DAT shows the reference only in the details (K-new, TB). */
  reference: '[data-test="load-reference-cell"], [data-test="load-ref-cell"]',
} as const;

/**
 * What a row shows of DAT's layouts, counted for the health report and never relied on: the
 * compact cells end in `-small` (K-msg), the wide ones are named in code only (TB, TIO, PW); the
 * row's own pick-up cell and contact are what the actions go by, whatever the layout is called.
 */
const LAYOUT_MARKS = {
  smallCells: '.cell-company-small, .cell-route-small',
  wideCells: '.cell-company, .cell-timing, [data-test="load-company-cell"]',
} as const;

// ---- the expanded details (dat-board.md §2 "Expanded details") ----

const DETAILS = {
  /** `div.table-row-detail.expanded-detail-row > dat-load-details` inside the row (K-new) or after it (TIO). */
  root: 'dat-load-details',
  container: '.table-row-detail, .expanded-detail-row',
  /** Where our buttons go: beside DAT's print button (K-new). */
  header: '.details-header_actions, dat-details-header .details-header, dat-details-header',
  /** The Trip column's pick-up date, "May 14" (K-new). */
  pickup: '[data-test="route-details"] .route-origin .date, .route-origin .date',
  /** `dat-contacts > div.contacts` anchors (K-new, QD), or `connected-email-contact-details` (TB). */
  contacts: 'dat-contacts, .contacts, .contact-methods, connected-email-contact-details',
  /** The company block with "MC#766673" in `div.city-spacing` (K-new). */
  company: '[data-test="company-details-container"], dat-company',
  /** Label/value pairs: parallel `.equipment-label`/`.equipment-data` columns (K-new) or `.data-row` pairs (TB). */
  label: '.data-label',
  value: '.data-item',
} as const;

/** The row's company cell, in either layout. */
const companyCell = (row: Element) => row.querySelector(CELLS.company);

/**
 * The element that holds the company's name: DAT's `.company-prefer-or-blocked .company`, else the
 * first element of the company cell with text of its own, outside its contact and equipment parts
 * (older boards). Flags go inside it, before the name.
 */
function companyNameHost(row: Element): Element | null {
  const cell = companyCell(row);
  if (!cell) return null;
  const named = cell.querySelector(CELLS.companyName);
  if (named) return named;
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent?.trim() || isOwn(parent) || parent.closest(`.${OWN_PREFIX}inline`)) continue;
    if (parent.closest(CELLS.notTheName)) continue;
    return parent;
  }
  return null;
}

/** The company's name as the row shows it. */
const companyOf = (row: Element) => {
  const host = companyNameHost(row);
  return host ? firstLine(host, CELLS.notTheName) : '';
};

/** The row's expanded details: inside the row (K-new) or the element right after it (TIO). */
function detailsOf(row: Element): Element | null {
  const inside = row.querySelector(DETAILS.root) ?? row.querySelector(DETAILS.container);
  if (inside) return inside;
  const next = row.nextElementSibling;
  if (next && !next.matches(ROW) && next.matches(`${DETAILS.container}, ${DETAILS.root}`)) return next.querySelector(DETAILS.root) ?? next;
  return null;
}

/**
 * A labelled value in the details ("Reference ID" → "TQL-884213"): the label's value at the same
 * index in the parallel value column (K-new), or the value right after the label (TB).
 */
function labelled(details: Element, label: string): { found: boolean; value: string } {
  const wanted = label.toLowerCase();
  const labels = [...details.querySelectorAll(DETAILS.label)];
  const el = labels.find((l) => textOf(l).replace(/\s+/g, ' ').trim().toLowerCase() === wanted);
  if (!el) return { found: false, value: '' };
  const next = el.nextElementSibling;
  if (next?.matches(DETAILS.value)) return { found: true, value: orNone(firstLine(next)) };
  const column = el.parentElement;
  const index = column ? [...column.querySelectorAll(`:scope > ${DETAILS.label}`)].indexOf(el) : -1;
  const values = column?.parentElement?.querySelectorAll(`:scope > * > ${DETAILS.value}, :scope > ${DETAILS.value}`);
  const value = values && index >= 0 ? values[index] : null;
  return { found: !!value, value: value ? orNone(firstLine(value)) : '' };
}

/** The broker's MC number in the details' company block: "MC#766673" (K-new). */
function mcNumberIn(details: Element): string {
  const block = details.querySelector(DETAILS.company) ?? details;
  return /\bMC\s*#?\s*:?\s*(\d{3,8})\b/i.exec(textOf(block))?.[1] ?? '';
}

/** The layout a row's signals point to, for the report: a row showing a pick-up cell or contact is wide, whatever else it shows. */
const layoutOf = (s: RowSignals): RowLayout | null =>
  s.pickupCell || s.contactCell || (s.wideCells && !s.smallCells) ? 'wide' : s.smallCells ? 'compact' : s.wideCells ? 'wide' : null;

/** The rate: the posted total (`.offer`), else the cell's first line, '' for DAT's dash. */
function rateOf(cell: Element | null): string {
  if (!cell) return '';
  const offer = cell.querySelector('.offer');
  if (offer) return firstLine(offer);
  if (cell.querySelector('.dash-align')) return '';
  return orNone(firstLine(cell));
}

/** What a row shows, with its expanded details when they are open. */
function readRow(row: Element): ReadRow {
  const cell = (selector: string) => row.querySelector(selector);
  const details = detailsOf(row);
  // the row's own cells, not the details' (which repeat some names)
  const inRow = (selector: string) => {
    const found = cell(selector);
    return found && details?.contains(found) ? null : found;
  };
  const contactHost = inRow(CELLS.contact);
  const rowContact = readContact(contactHost);
  const originCell = inRow(CELLS.origin);
  const destCell = inRow(CELLS.destination);
  const pickupCell = inRow(CELLS.pickup);
  const rateCell = inRow(CELLS.rate);
  const tripCell = inRow(CELLS.trip);
  const equipmentCell = inRow(CELLS.equipment);
  const company = companyOf(row);
  const signals: RowSignals = {
    pickupCell: !!pickupCell,
    contactCell: !!contactHost,
    smallCells: !!inRow(LAYOUT_MARKS.smallCells),
    wideCells: !!inRow(LAYOUT_MARKS.wideCells),
  };
  const layout = layoutOf(signals);
  const found: FieldPresence = {
    company: !!company,
    origin: !!(originCell || inRow(CELLS.originWide)),
    destination: !!(destCell || inRow(CELLS.destinationWide)),
    rate: !!rateCell,
    trip: !!tripCell,
    equipment: !!equipmentCell,
  };
  // the compact row has no pick-up date and no contact: they are in the details only (K-msg)
  if (layout !== 'compact') {
    found.pickup = !!pickupCell;
    found.contact = !!contactHost;
  }
  const load: BoardLoad = {
    company,
    phone: rowContact.phone,
    email: rowContact.email,
    origin: firstLine(originCell, CELLS.destination) || firstLine(inRow(CELLS.originWide)),
    dest: firstLine(destCell) || firstLine(inRow(CELLS.destinationWide)),
    pickup: orNone(firstLine(pickupCell)),
    rate: rateOf(rateCell),
    reference: orNone(firstLine(inRow(CELLS.reference))),
    mcNumber: '',
  };
  if (details) {
    const pickup = details.querySelector(DETAILS.pickup);
    const contactBlocks = [...details.querySelectorAll(DETAILS.contacts)];
    const contacts = contactBlocks.map(readContact);
    const reference = labelled(details, 'Reference ID');
    const mc = mcNumberIn(details);
    // DAT draws the details empty and fills them a moment later (QD): only filled ones count
    if (textOf(details).trim()) {
      found.detailsPickup = !!pickup;
      found.detailsContact = contactBlocks.length > 0;
      found.detailsReference = reference.found;
      found.detailsMc = !!mc;
    }
    if (!load.pickup) load.pickup = orNone(firstLine(pickup));
    load.phone ||= contacts.find((c) => c.phone)?.phone ?? '';
    load.email ||= contacts.find((c) => c.email)?.email ?? '';
    load.reference ||= reference.value;
    load.mcNumber = mc;
  }
  return { load, layout, signals, hasDetails: !!details, found };
}

/** The result rows on the page that are loads (not separators or placeholders). */
const loadRows = (root: ParentNode = document): HTMLElement[] =>
  [...root.querySelectorAll<HTMLElement>(ROW_OUTERMOST)].filter((row) => !row.matches(NOT_A_LOAD) && !row.querySelector(NOT_A_LOAD));

/** The number the results counter shows ("37Results" → 37), or null without one. */
function resultsCount(root: ParentNode = document): number | null {
  const counter = root.querySelector(RESULTS_COUNTER);
  const match = counter ? /\d[\d,]*/.exec(counter.textContent ?? '') : null;
  return match ? Number(match[0].replace(/,/g, '')) : null;
}

/** Where the details' buttons go: DAT's header actions, else the details' top. */
const detailsHeader = (details: Element): Element => details.querySelector(DETAILS.header) ?? details;

/** The rows among (or inside) the nodes a mutation touched. */
function rowsIn(node: Node): Element[] {
  if (!(node instanceof Element)) return node.parentElement ? rowsIn(node.parentElement) : [];
  const own = rowOf(node);
  if (own) return [own];
  // details drawn after their row (TIO)
  if (node.matches(`${DETAILS.container}, ${DETAILS.root}`) && node.previousElementSibling?.matches(ROW)) return [node.previousElementSibling];
  return [...node.querySelectorAll(ROW_OUTERMOST)];
}

export const dat: BoardAdapter = {
  board: 'dat',
  label: 'DAT',
  matches: (url) => url.hostname === 'one.dat.com',
  resultsPage: () => !!document.querySelector(RESULTS_PAGE),
  resultsCount: () => resultsCount(),
  loadRows: () => loadRows(),
  rowsIn: (node) => rowsIn(node) as HTMLElement[],
  readRow,
  nameHost: companyNameHost,
  rowLine: (row) => row.querySelector(ROW_CELLS) ?? row,
  details: detailsOf,
  detailsHeader,
};
