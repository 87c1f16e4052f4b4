/**
 * Truckstop's load search (main.truckstop.com/app/search/loads), read from public evidence only:
 * ../shared/truckstop-board.md, whose labels name each selector's source (TB: the TruckBox
 * extension, the one source of the panel's names; FCP, PUP, AIDA and PY corroborate the grid and
 * its field names). Nobody here has seen the live page: every name below waits for confirmation
 * from the field (docs/guides/extension.md). The grid and the side panel live in open shadow roots
 * (TB), so every query goes through them.
 *
 * The rows show no phone, e-mail or MC (TB): a row is flagged by the broker's name (`accountName`);
 * the open load's side panel shows the contacts and the MC, and once a panel has shown them the
 * row of the same load is flagged by MC and contacts too.
 */
import { fullDate } from '../../shared/load';
import { companyKey } from '../../shared/match';
import { type BoardAdapter, deepQuery, deepQueryAll, type FieldPresence, firstLine, type OpenPanel, orNone, type ReadRow, readContact, textOf } from '../read';

/** The results page (§1: PY, TB's isLoadsPage), also found by its grid or search sidenav (TB). */
const RESULTS_PATH = /\/search\/loads/i;
const GRID = 'load-search-grid, load-search-load-search-sidenav';
/** A row: AG Grid's `.ag-row` (FCP) or Truckstop's own `.ts-grid-row` (TB), keyed by `row-id` (TB, FCP). */
const ROW = '.ag-row[row-id], .ts-grid-row[row-id]';
/** A cell by its column id, which is the grid query's field name (§2: TB; field names §6: AIDA, PY). */
const cell = (row: Element, colId: string) => row.querySelector(`.ag-cell[col-id="${colId}"], [role="gridcell"][col-id="${colId}"]`);
/** The side panel's parts (§3, TB): the load's general details tab and the broker block. */
const PANEL = 'load-search-load-details-general-details-tab';
const BROKER = 'shared-broker-details';
const FIELD = (id: string) => `[data-testid="${id}"]`;

/** "Chicago, IL" from the city and state columns (TB joins them so). */
const place = (row: Element, city: string, state: string) => {
  const c = firstLine(cell(row, city));
  const s = firstLine(cell(row, state));
  return c && s ? `${c}, ${s}` : c || s;
};

/** What a panel showed of a load, by the load (company, lane, pick-up day): the row of the same load is flagged with it. */
interface PanelFacts {
  mcNumber: string;
  phone: string;
  email: string;
}
const seenInPanels = new Map<string, PanelFacts>();
const loadKey = (company: string, origin: string, dest: string, pickup: string) =>
  JSON.stringify([companyKey(company), origin.trim().toLowerCase(), dest.trim().toLowerCase(), fullDate(pickup) ?? pickup.trim().toLowerCase()]);

function readGridRow(row: HTMLElement): ReadRow {
  const company = firstLine(cell(row, 'accountName'));
  const origin = place(row, 'originCity', 'originState');
  const dest = place(row, 'destinationCity', 'destinationState');
  const pickupCell = cell(row, 'originEarlyTime');
  const pickup = orNone(firstLine(pickupCell));
  const rateCell = cell(row, 'postedRate');
  const facts = seenInPanels.get(loadKey(company, origin, dest, pickup));
  const found: FieldPresence = {
    company: !!company,
    origin: !!cell(row, 'originCity'),
    destination: !!cell(row, 'destinationCity'),
    pickup: !!pickupCell,
    rate: !!rateCell,
    trip: !!cell(row, 'tripDistance'),
    equipment: !!cell(row, 'equipmentCode'),
  };
  return {
    load: {
      company,
      phone: facts?.phone ?? '',
      email: facts?.email ?? '',
      origin,
      dest,
      pickup,
      rate: orNone(firstLine(rateCell)),
      reference: '',
      mcNumber: facts?.mcNumber ?? '',
    },
    layout: null,
    // the row has its pick-up date; its contact is in the panel only (TB)
    signals: { pickupCell: !!pickupCell, contactCell: false, smallCells: false, wideCells: false },
    hasDetails: false,
    found,
  };
}

/** The panel's value of a labelled date row, "Pickup" → "Nov 28" (TB: BEM title/value pairs). */
function dateRow(panel: ParentNode, title: string): Element | null {
  for (const row of panel.querySelectorAll('.load-date-wrapper__row')) {
    if (firstLine(row.querySelector('.load-date-wrapper__cell-title')).toLowerCase() === title.toLowerCase())
      return row.querySelector('.load-date-wrapper__cell-value');
  }
  return null;
}

/** The MC or DOT as digits: "MC 411443", "411443"; '' for "—" (TB: digits or "—"). */
const digits = (el: Element | null) => /\d{3,8}/.exec(textOf(el))?.[0] ?? '';

function readPanel(panel: Element): ReadRow {
  const root = panel.shadowRoot ?? panel;
  const broker = deepQuery(panel, BROKER);
  const inBroker = (id: string) => (broker ? deepQuery(broker, FIELD(id)) : null);
  const company = firstLine(inBroker('company-name'));
  // the origin holds its deadhead ("75 mi") inside it (TB): left out
  const origin = firstLine(deepQuery(root, FIELD('origin-location')), FIELD('origin-deadhead'));
  const dest = firstLine(deepQuery(root, FIELD('destination-location')));
  const pickupEl = dateRow(root, 'Pickup') ?? deepQuery(panel, '.load-date-wrapper') ?? null;
  const pickup = pickupEl?.classList.contains('load-date-wrapper__cell-value') ? orNone(firstLine(pickupEl)) : '';
  const rateEl = deepQuery(panel, `${FIELD('posted-rate')} .tsx-h6`) ?? deepQuery(panel, FIELD('posted-rate'));
  const phone = readContact(inBroker('contact-phone'));
  const email = readContact(inBroker('contact-email'));
  const mcEl = inBroker('contact-broker-mc');
  const mcNumber = digits(mcEl);
  // the load number is in the notes' free text only (TB)
  const reference = /load\s*(?:number|#)\s*:?\s*([A-Za-z0-9-]{3,30})/i.exec(textOf(deepQuery(panel, '.notes-values')))?.[1] ?? '';
  const filled = !!company;
  const found: FieldPresence = filled
    ? { detailsPickup: !!pickup, detailsContact: !!(phone.phone || email.email), detailsMc: !!mcEl, detailsReference: !!reference }
    : {};
  const load = { company, phone: phone.phone, email: email.email, origin, dest, pickup, rate: orNone(firstLine(rateEl)), reference, mcNumber };
  if (filled) {
    const key = loadKey(company, origin, dest, pickup);
    const before = seenInPanels.get(key);
    if (!before || before.mcNumber !== mcNumber || before.phone !== load.phone || before.email !== load.email)
      seenInPanels.set(key, { mcNumber, phone: load.phone, email: load.email });
  }
  return { load, layout: null, signals: { pickupCell: !!pickup, contactCell: true, smallCells: false, wideCells: false }, hasDetails: true, found };
}

export const truckstop: BoardAdapter = {
  board: 'truckstop',
  label: 'Truckstop',
  matches: (url) => url.hostname === 'main.truckstop.com',
  resultsPage: () => RESULTS_PATH.test(location.pathname) || !!document.querySelector(GRID),
  // no results counter is known (§7)
  resultsCount: () => null,
  loadRows: () =>
    deepQueryAll<HTMLElement>(document, ROW).filter((row) => {
      // a row with no origin or destination is a loading placeholder (TB)
      return !!firstLine(cell(row, 'originCity')) && !!firstLine(cell(row, 'destinationCity'));
    }),
  rowsIn(node) {
    const el = node instanceof Element ? node : node.parentElement;
    if (!el) return [];
    const own = el.closest<HTMLElement>(ROW);
    return own ? [own] : [...el.querySelectorAll<HTMLElement>(ROW)];
  },
  readRow: readGridRow,
  nameHost: (row) => cell(row, 'accountName'),
  rowLine: (row) => row,
  openPanel(): OpenPanel | null {
    const panel = deepQuery(document, PANEL);
    // a closed side panel is hidden with its drawer
    if (!panel || !(panel as HTMLElement).getClientRects?.().length) return null;
    return {
      el: panel,
      read: () => readPanel(panel),
      nameHost: () => {
        const broker = deepQuery(panel, BROKER);
        return broker ? deepQuery(broker, FIELD('company-name')) : null;
      },
    };
  },
  shadowRoots: true,
};
