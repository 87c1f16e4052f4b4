/**
 * The content script on DAT's load board. It changes nothing of DAT's rows but a badge: the
 * team's flags and one compact control go inline before the company's name (the row keeps its
 * height), the row is tinted, and the control's menu opens outside the row. When a load's details
 * are open, the same actions are full buttons in the details' header. It reads only what the page
 * shows (MutationObserver), re-reads a row DAT recycles for another load, sends nothing until the
 * user clicks (but a small health record, counts only), and never scrolls, clicks, searches or
 * reloads the board itself (docs/decisions/0126-restraint-on-dat.md).
 */
import { brokerKeys, contactedText, contactsForRow } from '../shared/contacted';
import type { BoardLoad } from '../shared/load';
import { filtersForRow, isBlockedLike } from '../shared/match';
import { ask, type StatePush, type ViewState } from '../shared/protocol';
import { assess, noteRow, report, worthReporting } from './health';
import { companyNameHost, detailsHeader, detailsOf, loadRows, type ReadRow, readRow, rowOf, rowsIn } from './selectors';
import { vettingBadge } from './vetting';
import { state, version, health, el, pickedMc, decorating, signatureOf, computeVersion, setState, setVersion, setHealth } from './board-state';
import { actionItems } from './row-actions';
import { openMenu, menuButton, closeMenu } from './row-menu';
import { bar, renderBar } from './bar';
import { followLanguage, messageText, t } from '../i18n';

// ---- rows ----

const OWN_IN_ROW = ':scope .fd-inline, :scope .fd-details-actions';

function clearRow(row: HTMLElement) {
  for (const own of row.querySelectorAll(OWN_IN_ROW)) own.remove();
  // details drawn after the row (TIO) carry their own buttons
  const details = detailsOf(row);
  if (details && !row.contains(details)) for (const own of details.querySelectorAll('.fd-details-actions')) own.remove();
  row.classList.remove('fd-row-blocked', 'fd-row-flagged');
  if (openMenu?.row === row) closeMenu(false);
}

/** Our nodes a decorated row should have: the inline badges and control, and the details' buttons when open. */
const expectedOwn = (read: ReadRow) => (read.hasDetails ? 2 : 1);
function ownCount(row: HTMLElement) {
  const details = detailsOf(row);
  const outside = details && !row.contains(details) ? details.querySelectorAll('.fd-details-actions').length : 0;
  return row.querySelectorAll(OWN_IN_ROW).length + outside;
}

/** Decorates a row: again only when what it shows, the user, the MC or the filters changed (or DAT redrew our nodes away). */
function decorate(row: HTMLElement) {
  const read = readRow(row);
  noteRow(row, read);
  const signature = `${version}|${signatureOf(read)}`;
  const want = decorating() && read.load.company && companyNameHost(row) ? expectedOwn(read) : 0;
  if (row.dataset.fdSignature === signature && ownCount(row) === want) {
    // the team's contacts change often: only the markers are redrawn, so an open menu stays open
    if (want) drawContacted(row, read.load);
    return;
  }
  clearRow(row);
  row.dataset.fdSignature = signature;
  if (!want) return;
  const { load } = read;
  const mc = pickedMc();
  const flags = filtersForRow(state!.filters, mc, load);
  const inline = el('span', 'fd-inline');
  // our clicks are ours: DAT's row would expand or collapse under them
  for (const type of ['click', 'mousedown', 'pointerdown', 'keydown']) inline.addEventListener(type, (e) => e.stopPropagation());
  inline.append(menuButton(row, read, mc));
  for (const filter of flags) {
    const badge = el('span', 'fd-badge', filter.typeName || t('row.flagged'));
    badge.style.setProperty('--fd-color', filter.color || '#6b7280');
    badge.title = [filter.typeName, filter.comment].filter(Boolean).join(': ') || t('row.flaggedByTeam');
    badge.dataset.fdFilter = filter._id;
    inline.append(badge);
  }
  const fmcsa = vettingBadge(flags);
  if (fmcsa) inline.append(fmcsa);
  companyNameHost(row)!.prepend(inline);
  drawContacted(row, load);
  if (flags.length) row.classList.add('fd-row-flagged');
  if (flags.some((f) => isBlockedLike(f.typeName))) row.classList.add('fd-row-blocked');
  const details = detailsOf(row);
  if (details) {
    const bar = el('div', 'fd-details-actions');
    bar.setAttribute('role', 'group');
    bar.setAttribute('aria-label', t('row.actionsFor', { company: load.company }));
    for (const type of ['click', 'mousedown', 'pointerdown', 'keydown']) bar.addEventListener(type, (e) => e.stopPropagation());
    bar.append(el('span', 'fd-details-brand', 'FreightDesk'), ...actionItems(read, mc, 'details'));
    detailsHeader(details).prepend(bar);
  }
}

/**
 * "Called by Anna · 14:02 · L2" and "+2" in the row's inline group, after the flags: redrawn only
 * when the row's markers change, in place (the rest of the decoration, and an open menu, stay).
 */
function drawContacted(row: HTMLElement, load: BoardLoad) {
  const inline = row.querySelector<HTMLElement>('.fd-inline');
  if (!inline) return;
  const contacted = contactsForRow(state?.teamContacts ?? null, contactKeys(), load, state?.user?.userId ?? null);
  const texts = contacted.map((c) => contactedText(c, true));
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
  for (const row of loadRows()) decorate(row);
}

let contactsVersion: string | null = null;

export function applyState(next: ViewState) {
  // the signed-in user's language (a change in Profile arrives with a sync); before sign-in the browser's
  followLanguage(next.language);
  setState(next);
  const nextVersion = computeVersion(next);
  renderBar();
  if (nextVersion !== version || next.teamContactsVersion !== contactsVersion) {
    setVersion(nextVersion);
    contactsVersion = next.teamContactsVersion;
    decorateAll();
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
  const next = assess();
  const changed = next.unreadable !== health.unreadable || next.reason !== health.reason;
  setHealth(next);
  if (changed) {
    renderBar();
    setVersion(computeVersion(state));
    decorateAll();
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
  const rows = new Set<Element>();
  for (const m of mutations) {
    // our own nodes coming and going change nothing of the load
    if (m.type === 'childList' && [...m.addedNodes, ...m.removedNodes].every((n) => n instanceof Element && n.className?.toString().startsWith('fd-')))
      continue;
    if (m.type === 'childList') for (const node of m.addedNodes) for (const row of rowsIn(node)) rows.add(row);
    // a cell's text or nodes replaced, or the row given another load (its id), inside a row
    const target = m.target instanceof Element ? m.target : m.target.parentElement;
    const row = rowOf(target) ?? (target ? rowsIn(target)[0] : null);
    if (row) rows.add(row);
  }
  for (const row of rows) if (row.isConnected && row instanceof HTMLElement) decorate(row);
  if (rows.size || mutations.some((m) => m.type === 'childList')) checkHealthSoon();
});

chrome.runtime.onMessage.addListener((message: StatePush) => {
  if (message?.type === 'statePush') applyState(message.state);
  return false;
});

async function start() {
  // rows are decorated as soon as they appear, from the first render on; DAT recycles a row for
  // another load by changing its text, its nodes and its id (CDK virtual scroll)
  observer.observe(document.body, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['id', 'href', 'href-value', 'recipient-email'],
  });
  const answer = await ask({ type: 'boardHello' });
  if (answer.ok) applyState(answer.state);
  else {
    followLanguage(null);
    renderBar();
    bar?.append(el('span', 'fd-bar-alert', messageText(answer)));
  }
  checkHealth();
  // "no rows" counts once DAT had time to draw them
  setTimeout(checkHealth, 3000);
  setInterval(() => {
    if (!reportTimer && worthReporting(health)) sendReport();
  }, REPORT_EVERY_MS);
}

void start();
