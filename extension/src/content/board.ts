/**
 * The content script on a load board (DAT One, Truckstop: boards/). It changes nothing of the
 * board's rows but a badge: the team's flags and one compact control go inline before the
 * company's name (the row keeps its height), the row is tinted, and the control's menu opens
 * outside the row. When a load's details are open, the same actions are there too (DAT: buttons
 * in the details' header; Truckstop: the control in the side panel's company line). It reads only
 * what the page shows (MutationObserver, through open shadow roots where the board keeps its rows),
 * re-reads a row the board recycles for another load, sends nothing until the user clicks (but a
 * small health record, counts only), and never scrolls, clicks, searches or reloads the board
 * itself (docs/decisions/0126-restraint-on-dat.md).
 */

import { followLanguage, messageText, t } from '../i18n';
import { brokerKeys, contactedText, contactsForRow } from '../shared/contacted';
import type { BoardLoad } from '../shared/load';
import { filtersForRow, isBlockedLike } from '../shared/match';
import { ask, type StatePush, type ViewState } from '../shared/protocol';
import { bar, renderBar } from './bar';
import {
  computeVersion,
  decorating,
  el,
  ensureStyles,
  health,
  onState,
  pickedMc,
  setAdapter,
  setHealth,
  setState,
  setVersion,
  signatureOf,
  state,
  version,
} from './board-state';
import { adapterFor } from './boards';
import { assess, notePanel, noteRow, report, worthReporting } from './health';
import { isOwn, type OpenPanel, type ReadRow, shadowRootsIn } from './read';
import { actionItems } from './row-actions';
import { closeMenu, type MenuAnchor, menuButton, openMenu, watchScroll } from './row-menu';
import { vettingBadge } from './vetting';

const adapter = adapterFor(new URL(location.href));

// ---- rows ----

/** Our nodes in a row: the inline group, and the details' buttons when the details are in the row. */
const OWN_IN_ROW = ':scope .fd-inline, :scope .fd-details-actions';

function clearRow(row: HTMLElement) {
  for (const own of row.querySelectorAll(OWN_IN_ROW)) own.remove();
  // details drawn after the row (DAT, TIO) carry their own buttons
  const details = adapter?.details?.(row);
  if (details && !row.contains(details)) for (const own of details.querySelectorAll('.fd-details-actions')) own.remove();
  row.classList.remove('fd-row-blocked', 'fd-row-flagged');
  if (openMenu?.anchor.el === row) closeMenu(false);
}

/** Our nodes a decorated row should have: the inline group, and the details' buttons when open. */
const expectedOwn = (read: ReadRow, row: HTMLElement) => (read.hasDetails && adapter?.details?.(row) ? 2 : 1);
function ownCount(row: HTMLElement) {
  const details = adapter?.details?.(row);
  const outside = details && !row.contains(details) ? details.querySelectorAll('.fd-details-actions').length : 0;
  return row.querySelectorAll(OWN_IN_ROW).length + outside;
}

const stopOwnClicks = (node: HTMLElement) => {
  // our clicks are ours: the board's row would expand, collapse or open its panel under them
  for (const type of ['click', 'mousedown', 'pointerdown', 'keydown']) node.addEventListener(type, (e) => e.stopPropagation());
};

/** The FD control, the flags, the FMCSA warning and the markers, inline before the company's name. */
function drawInline(host: Element, anchor: MenuAnchor, read: ReadRow) {
  const { load } = read;
  const mc = pickedMc();
  const flags = filtersForRow(state!.filters, mc, load);
  const inline = el('span', 'fd-inline');
  stopOwnClicks(inline);
  inline.append(menuButton(anchor, read, mc));
  for (const filter of flags) {
    const badge = el('span', 'fd-badge', filter.typeName || t('row.flagged'));
    badge.style.setProperty('--fd-color', filter.color || '#6b7280');
    badge.title = [filter.typeName, filter.comment].filter(Boolean).join(': ') || t('row.flaggedByTeam');
    badge.dataset.fdFilter = filter._id;
    inline.append(badge);
  }
  const fmcsa = vettingBadge(flags);
  if (fmcsa) inline.append(fmcsa);
  ensureStyles(host);
  host.prepend(inline);
  drawContacted(inline, load);
  return flags;
}

/** Decorates a row: again only when what it shows, the user, the MC or the filters changed (or the board redrew our nodes away). */
function decorate(row: HTMLElement) {
  if (!adapter) return;
  const read = adapter.readRow(row);
  noteRow(row, read);
  const signature = `${version}|${signatureOf(read)}`;
  const host = adapter.nameHost(row);
  const want = decorating() && read.load.company && host ? expectedOwn(read, row) : 0;
  if (row.dataset.fdSignature === signature && ownCount(row) === want) {
    // the team's contacts change often: only the markers are redrawn, so an open menu stays open
    const inline = row.querySelector<HTMLElement>('.fd-inline');
    if (want && inline) drawContacted(inline, read.load);
    return;
  }
  clearRow(row);
  row.dataset.fdSignature = signature;
  if (!want || !host) return;
  const anchor: MenuAnchor = { el: row, read: () => adapter.readRow(row), line: () => adapter.rowLine(row) };
  const flags = drawInline(host, anchor, read);
  if (flags.length) row.classList.add('fd-row-flagged');
  if (flags.some((f) => isBlockedLike(f.typeName))) row.classList.add('fd-row-blocked');
  ensureStyles(row);
  const details = adapter.details?.(row);
  if (details && read.hasDetails) {
    const group = el('div', 'fd-details-actions');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', t('row.actionsFor', { company: read.load.company }));
    stopOwnClicks(group);
    group.append(el('span', 'fd-details-brand', 'FreightDesk'), ...actionItems(read, pickedMc(), 'details'));
    const header = adapter.detailsHeader?.(details) ?? details;
    ensureStyles(header);
    header.prepend(group);
  }
}

// ---- the open load's side panel (Truckstop) ----

let panelSignature = '';
let panelEl: Element | null = null;

function clearPanel(panel: Element | null) {
  if (!panel) return;
  for (const own of [panel, ...shadowRootsIn(panel)].flatMap((r) => [...r.querySelectorAll('.fd-inline')])) own.remove();
  if (openMenu?.anchor.el === panel) closeMenu(false);
}

/** Decorates the open panel: its control (the four actions), flags by name and MC, and markers; redrawn when the board recycles it for another load. */
function decoratePanel() {
  const open: OpenPanel | null = adapter?.openPanel?.() ?? null;
  if (!open) {
    if (panelEl) clearPanel(panelEl);
    panelEl = null;
    panelSignature = '';
    return;
  }
  const read = open.read();
  notePanel(read);
  const signature = `${version}|${signatureOf(read)}`;
  const host = open.nameHost();
  const want = decorating() && !!read.load.company && !!host;
  const drawn = host?.querySelector<HTMLElement>(':scope > .fd-inline') ?? null;
  if (panelEl === open.el && panelSignature === signature && !!drawn === want) {
    if (drawn) drawContacted(drawn, read.load);
    return;
  }
  const mcBefore = panelSignature;
  clearPanel(panelEl);
  clearPanel(open.el);
  panelEl = open.el;
  panelSignature = signature;
  if (want && host) drawInline(host, { el: open.el, read: open.read, line: () => host }, read);
  // what the panel showed (the MC, the contacts) flags the row of the same load
  if (mcBefore !== signature) decorateAll();
}

/**
 * "Called by Anna · 14:02 · L2" and "+2" in the inline group, after the flags: redrawn only when
 * the markers change, in place (the rest of the decoration, and an open menu, stay).
 */
function drawContacted(inline: HTMLElement, load: BoardLoad) {
  const contacted = contactsForRow(state?.teamContacts ?? null, contactKeys(), load, state?.user?.userId ?? null);
  const texts = contacted.map((c) => contactedText(c, true, adapter?.board));
  const key = JSON.stringify([contacted[0] ? contactedText(contacted[0]) : '', texts]);
  if (inline.dataset.fdContacted === key) return;
  inline.dataset.fdContacted = key;
  for (const old of inline.querySelectorAll('.fd-contacted, .fd-contacted-more')) old.remove();
  const first = contacted[0];
  if (!first) return;
  const marker = el('span', 'fd-contacted', contactedText(first));
  marker.dataset.thisLoad = String(first.thisLoad);
  marker.title = texts.join('\n');
  inline.append(marker);
  if (contacted.length > 1) {
    const more = el('span', 'fd-contacted-more', `+${contacted.length - 1}`);
    more.title = marker.title;
    more.setAttribute('aria-label', t('row.also', { list: texts.slice(1).join('; ') }));
    inline.append(more);
  }
}

/** The filters' names and aliases by broker, for the markers (rebuilt when the filters change). */
let keysFor: { filters: unknown; keys: Map<string, string> } | null = null;
function contactKeys() {
  if (!keysFor || keysFor.filters !== state?.filters) keysFor = { filters: state?.filters, keys: brokerKeys(state?.filters ?? []) };
  return keysFor.keys;
}

function decorateAll() {
  if (!adapter) return;
  for (const row of adapter.loadRows()) decorate(row);
}

let contactsVersion: string | null = null;

/** A new state from the service worker: the bar, and the rows when what they show changed. */
function stateChanged(next: ViewState) {
  // the signed-in user's language (a change in Profile arrives with a sync); before sign-in the browser's
  followLanguage(next.language);
  setState(next);
  const nextVersion = computeVersion(next);
  renderBar();
  if (nextVersion !== version || next.teamContactsVersion !== contactsVersion) {
    setVersion(nextVersion);
    contactsVersion = next.teamContactsVersion;
    decorateAll();
    decoratePanel();
  }
}

// ---- can this page be read? (the alarm and the health report) ----

/** The first report goes this long after the page shows loads (or the alarm), so it counts more than the first row. */
const REPORT_AFTER_MS = 4000;
/** A board left open all day reports again (the service worker sends at most one an hour). */
const REPORT_EVERY_MS = 3_600_000;
let reportTimer: ReturnType<typeof setTimeout> | null = null;

function sendReport() {
  reportTimer = null;
  void ask({ type: 'health', report: report(chrome.runtime.getManifest().version, health) });
}

function checkHealth() {
  if (!adapter) return;
  watchShadowRoots(document);
  const next = assess();
  const changed = next.unreadable !== health.unreadable || next.reason !== health.reason;
  setHealth(next);
  if (changed) {
    renderBar();
    setVersion(computeVersion(state));
    decorateAll();
    decoratePanel();
  }
  if (!reportTimer && worthReporting(health)) reportTimer = setTimeout(sendReport, next.unreadable ? 500 : REPORT_AFTER_MS);
}

let healthTimer: ReturnType<typeof setTimeout> | null = null;
/** Looks again shortly after the page stops changing. */
function checkHealthSoon() {
  if (healthTimer) clearTimeout(healthTimer);
  healthTimer = setTimeout(checkHealth, 600);
}

// ---- start ----

const observer = new MutationObserver((mutations) => {
  if (!adapter) return;
  const rows = new Set<HTMLElement>();
  let added = false;
  for (const m of mutations) {
    // our own nodes coming and going change nothing of the load
    if (m.type === 'childList' && [...m.addedNodes, ...m.removedNodes].every(isOwn)) continue;
    if (m.type === 'childList') {
      added ||= m.addedNodes.length > 0;
      for (const node of m.addedNodes) for (const row of adapter.rowsIn(node)) rows.add(row);
    }
    // a cell's text or nodes replaced, or the row given another load (its id), inside a row
    const [row] = adapter.rowsIn(m.target);
    if (row) rows.add(row);
  }
  for (const row of rows) if (row.isConnected) decorate(row);
  if (adapter.openPanel) decoratePanel();
  if (added && adapter.shadowRoots) watchShadowRoots(document);
  if (rows.size || mutations.some((m) => m.type === 'childList')) checkHealthSoon();
});

const OBSERVED: MutationObserverInit = {
  childList: true,
  subtree: true,
  characterData: true,
  attributes: true,
  attributeFilter: ['id', 'row-id', 'href', 'href-value', 'recipient-email', 'class', 'hidden'],
};
const watched = new WeakSet<ShadowRoot>();
/** The board's open shadow roots are observed one by one: a document observer does not see into them. */
function watchShadowRoots(root: ParentNode) {
  if (!adapter?.shadowRoots) return;
  for (const shadow of shadowRootsIn(root)) {
    if (watched.has(shadow)) continue;
    watched.add(shadow);
    observer.observe(shadow, OBSERVED);
    // a scroll inside a shadow root never reaches the document
    watchScroll(shadow);
  }
}

chrome.runtime.onMessage.addListener((message: StatePush) => {
  if (message?.type === 'statePush') stateChanged(message.state);
  return false;
});

async function start() {
  if (!adapter) return;
  setAdapter(adapter);
  onState(stateChanged);
  // rows are decorated as soon as they appear, from the first render on; the boards recycle a row
  // for another load by changing its text, its nodes and its id
  observer.observe(document.body, { ...OBSERVED, attributeFilter: ['id', 'row-id', 'href', 'href-value', 'recipient-email'] });
  watchShadowRoots(document);
  const answer = await ask({ type: 'boardHello' });
  if (answer.ok) stateChanged(answer.state);
  else {
    followLanguage(null);
    renderBar();
    bar?.append(el('span', 'fd-bar-alert', messageText(answer)));
  }
  checkHealth();
  // "no rows" counts once the board had time to draw them
  setTimeout(checkHealth, 3000);
  setInterval(() => {
    if (!reportTimer && worthReporting(health)) sendReport();
  }, REPORT_EVERY_MS);
}

void start();
