/**
 * The content script on DAT's load board. It changes nothing of DAT's rows but a badge: the
 * team's flags and one compact control go inline before the company's name (the row keeps its
 * height), the row is tinted, and the control's menu opens outside the row. When a load's details
 * are open, the same actions are full buttons in the details' header. It reads only what the page
 * shows (MutationObserver), re-reads a row DAT recycles for another load, sends nothing until the
 * user clicks (but a small health record, counts only), and never scrolls, clicks, searches or
 * reloads the board itself (README: Extension, "Restraint"; docs/decisions/0126-restraint-on-dat.md).
 */
import { formatBoardPhone, normalizeBoardPhone } from '../../../worker/lib/phone';
import { renderTemplate } from '../../../worker/mc-settings/email-template.schema';
import { dialUrl } from '../../../worker/team/dialer';
import { composeUrl, opensInBrowser } from '../shared/compose';
import { brokerKeys, contactedText, contactsForRow } from '../shared/contacted';
import { type BoardLoad, contactClientId, fullDate, loadClientId, readableDate } from '../shared/load';
import { filtersForRow, filtersInForce, isBlockedLike } from '../shared/match';
import { type ActionOutcome, ask, type McChoice, type RowAction, type StatePush, type ViewState } from '../shared/protocol';
import { assess, noteRow, type PageHealth, report, worthReporting } from './health';
import { companyNameHost, detailsHeader, detailsOf, loadRows, ROW_CELLS, type ReadRow, readRow, rowOf, rowsIn } from './selectors';
import { vettingBadge } from './vetting';

let state: ViewState | null = null;
/** Changes when what rows show changes (user, MC, filters): rows decorated under another version are redone. */
let version = '';
let health: PageHealth = { layout: null, unreadable: false, reason: null };
/** The outcome of each action clicked on this page, by load and action, so a redraw keeps it. */
const feedback = new Map<string, { text: string; tone: 'ok' | 'wait' | 'error' }>();
/** The calls whose number to dial is on screen, by the same key. */
const dialing = new Set<string>();

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) => {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const pickedMc = (): McChoice | null => state?.mcs.find((m) => m._id === state?.pickedMcId) ?? null;
const signedIn = () => !!state?.user && !state.signInAgain;
/** Flags are off while the page cannot be read (the bar says so). */
const decorating = () => signedIn() && !health.unreadable;

/** What a row shows that decides its decoration; with `version`, a row is redone only when this changes. */
const signatureOf = (read: ReadRow) => {
  const l = read.load;
  return JSON.stringify([read.layout, read.hasDetails, l.company, l.phone, l.email, l.origin, l.dest, l.pickup, l.rate, l.reference, l.mcNumber]);
};

function computeVersion(s: ViewState | null): string {
  if (!s) return 'none';
  return JSON.stringify([
    s.user?.userId ?? null,
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
    const badge = el('span', 'fd-badge', filter.typeName || 'Flagged');
    badge.style.setProperty('--fd-color', filter.color || '#6b7280');
    badge.title = [filter.typeName, filter.comment].filter(Boolean).join(': ') || 'Flagged by your team';
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
    bar.setAttribute('aria-label', `FreightDesk actions for ${load.company}`);
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
    more.setAttribute('aria-label', `Also: ${texts.slice(1).join('; ')}`);
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

// ---- actions ----

/** One key per load (broker, lane, pick-up), MC and action: the row's control and its details share it. */
const feedbackKey = (load: BoardLoad, mc: McChoice | null, kind: string) =>
  JSON.stringify([load.company, load.origin, load.dest, fullDate(load.pickup) ?? load.pickup, mc?._id ?? '', kind]);

/** Shows an action's outcome wherever it is on screen now: a redraw meanwhile made new elements. */
function showFeedback(key: string) {
  const shown = feedback.get(key);
  for (const status of document.querySelectorAll<HTMLElement>('.fd-status')) {
    if (status.dataset.fdKey !== key) continue;
    status.textContent = shown?.text ?? '';
    status.dataset.tone = shown?.tone ?? '';
    status.hidden = !shown;
  }
}

function outcomeText(outcome: ActionOutcome, done: string): { text: string; tone: 'ok' | 'wait' | 'error' } {
  switch (outcome.status) {
    case 'sent':
      return { text: done, tone: 'ok' };
    case 'queued':
      return { text: 'Waiting to send', tone: 'wait' };
    case 'refused':
      return { text: outcome.message, tone: 'error' };
    case 'signInAgain':
      return { text: 'Sign in again: it is sent after', tone: 'wait' };
    default:
      return { text: 'Sign in to FreightDesk first', tone: 'error' };
  }
}

async function run(key: string, action: () => Promise<RowAction>, done: string) {
  const built = await action();
  feedback.set(key, { text: 'Sending…', tone: 'wait' });
  showFeedback(key);
  const answer = await ask({ type: 'action', action: built });
  feedback.set(key, answer.ok ? outcomeText(answer.outcome ?? { status: 'sent' }, done) : { text: answer.message, tone: 'error' });
  if (answer.ok) applyState(answer.state);
  showFeedback(key);
}

const webUrl = (path: string) => `${state!.apiUrl}${path}`;

/** The filter form in the web app, pre-filled with this broker and contact (spec: /companyFilters/create/{name}/{contact}). */
function flagUrl(load: BoardLoad) {
  const contact = load.phone || load.email;
  return webUrl(`/companyFilters/create/${encodeURIComponent(load.company)}${contact ? `/${encodeURIComponent(contact)}` : ''}`);
}

function templateValues(load: BoardLoad, mc: McChoice) {
  const date = fullDate(load.pickup);
  return {
    origin: load.origin,
    destination: load.dest,
    pickupDate: date ? readableDate(date) : load.pickup,
    broker: load.company,
    rate: /\d/.test(load.rate) ? load.rate : '',
    reference: load.reference,
    mcName: mc.name,
    userName: state!.user!.name,
  };
}

/** The message E-mail opens in the user's mail client, with the MC's template filled. */
function composeOf(load: BoardLoad, mc: McChoice) {
  const values = templateValues(load, mc);
  return composeUrl(state!.mailClient ?? 'system', load.email, renderTemplate(mc.emailSubject, values), renderTemplate(mc.emailContent, values));
}

function rowAction(load: BoardLoad, mc: McChoice, kind: RowAction['kind'], contact: string, clientId: string, at: number): RowAction {
  return {
    line: kind === 'load' ? null : mc.line,
    kind,
    mcId: mc._id,
    clientId,
    brokerName: load.company,
    contact,
    origin: load.origin,
    dest: load.dest,
    loadDate: fullDate(load.pickup) ?? load.pickup,
    reference: load.reference,
    at,
  };
}

/**
 * The four actions, as menu items of the row's control or as the details' buttons. In the compact
 * layout the row shows no contact and no pick-up date (DAT keeps them in the details), so Call,
 * E-mail and + Active load say to open the load.
 */
function actionItems(read: ReadRow, mc: McChoice | null, variant: 'menu' | 'details'): HTMLElement[] {
  const { load } = read;
  const items: HTMLElement[] = [];
  const inDetails = read.hasDetails || read.layout !== 'compact';
  const noMc = 'Pick the MC you work for in the FreightDesk bar';

  const item = (kind: string, label: string, problem: string | null, onClick: () => void, href?: string) => {
    // a link when it opens something (the mail client, the web app); a disabled action is a disabled button
    const b = href && !problem ? el('a', 'fd-action', label) : el('button', 'fd-action', label);
    b.dataset.kind = kind;
    if (variant === 'menu') b.setAttribute('role', 'menuitem');
    if (b instanceof HTMLButtonElement) b.type = 'button';
    if (b instanceof HTMLAnchorElement) b.href = href!;
    if (problem) {
      b.setAttribute('aria-disabled', 'true');
      b.title = problem;
      (b as HTMLButtonElement).disabled = true;
    }
    b.addEventListener('click', (e) => {
      if (problem) {
        e.preventDefault();
        return;
      }
      onClick();
    });
    const wrap = el('span', 'fd-item');
    wrap.append(b);
    if (problem && variant === 'menu') wrap.append(el('span', 'fd-why', problem));
    const status = el('span', 'fd-status');
    status.dataset.for = kind;
    status.dataset.fdKey = feedbackKey(load, mc, kind);
    const shown = feedback.get(status.dataset.fdKey);
    status.textContent = shown?.text ?? '';
    status.dataset.tone = shown?.tone ?? '';
    status.hidden = !shown;
    status.setAttribute('role', 'status');
    wrap.append(status);
    items.push(wrap);
    return b;
  };

  const line = mc?.line ?? null;
  const callKey = feedbackKey(load, mc, 'call');
  const dial = mc && load.phone ? dialOf(load.phone, line) : null;
  const call = item(
    'call',
    line ? `Call on line ${line}` : 'Call',
    !mc
      ? noMc
      : !load.phone
        ? inDetails
          ? 'No phone number on this load'
          : 'Open the load to see its phone number'
        : !dial
          ? 'This phone number cannot be dialled'
          : null,
    () => {
      dialing.add(callKey);
      for (const shown of document.querySelectorAll<HTMLElement>('.fd-action[data-kind="call"]')) {
        if (shown.closest('.fd-item')?.querySelector('.fd-status')?.getAttribute('data-fd-key') === callKey) showDial(shown, callKey, load.phone, dial!);
      }
      void run(
        callKey,
        async () => {
          const at = Date.now();
          return rowAction(load, mc!, 'call', load.phone, await contactClientId(load, mc!._id, 'call', load.phone, at), at);
        },
        'Call logged',
      );
    },
    // the link opens the team's dialer with the broker's number and the line's; the click logs the call
    dial?.url,
  );
  if (dial && /^https?:/i.test(dial.url)) {
    call.setAttribute('target', '_blank');
    call.setAttribute('rel', 'noopener');
  }
  const email = item(
    'email',
    'E-mail',
    !mc ? noMc : !load.email ? (inDetails ? 'No e-mail address on this load' : 'Open the load to see its e-mail address') : null,
    () => {
      // the link opens the mail client with the MC's template filled; the click logs it
      void run(
        feedbackKey(load, mc, 'email'),
        async () => {
          const at = Date.now();
          return rowAction(load, mc!, 'email', load.email, await contactClientId(load, mc!._id, 'email', load.email, at), at);
        },
        'E-mail logged',
      );
    },
    mc && load.email ? composeOf(load, mc) : undefined,
  );
  // Gmail and Outlook open in a tab of their own, beside the board
  if (email instanceof HTMLAnchorElement && opensInBrowser(state!.mailClient ?? 'system')) {
    email.setAttribute('target', '_blank');
    email.setAttribute('rel', 'noopener');
  }
  item(
    'load',
    '+ Active load',
    !mc
      ? noMc
      : !load.origin || !load.dest
        ? 'This load shows no origin or destination'
        : !inDetails
          ? 'Open the load: its pick-up date is in the details'
          : null,
    () => {
      void run(
        feedbackKey(load, mc, 'load'),
        async () => rowAction(load, mc!, 'load', '', await loadClientId(load, mc!._id), Date.now()),
        'Added to active loads',
      );
    },
  );
  const flag = item('flag', 'Flag broker', null, () => undefined, flagUrl(load));
  flag.setAttribute('target', '_blank');
  flag.setAttribute('rel', 'noopener');
  // a redraw (new filters, another MC, the row opened) keeps the number on screen
  if (dialing.has(callKey) && dial) showDial(call, callKey, load.phone, dial);
  return items;
}

/** How "Call on line N" dials: the team's dialer URL, and the line's caller number when the team set one. */
interface Dial {
  url: string;
  line: number | null;
  from: string;
  label: string;
  system: boolean;
}

function dialOf(phone: string, line: number | null): Dial | null {
  const to = normalizeBoardPhone(phone);
  if (!to) return null;
  const phones = state?.phones;
  const teamLine = line ? phones?.lines.find((l) => l.line === line) : undefined;
  const from = teamLine?.callerNumber ?? '';
  const dialer = phones?.dialer ?? 'tel';
  return { url: dialUrl(dialer, phones?.dialerTemplate ?? '', { to, from, line }), line, from, label: teamLine?.label ?? '', system: dialer === 'tel' };
}

/**
 * "Dial (312) 555-0142 on line 2 · +1 312 555 0102": the number being called, the line and the
 * number it calls from, beside the button until closed. With the system's tel: handler the agent
 * picks the line in the phone app, so the line's number is named for that.
 */
function showDial(button: HTMLElement, key: string, phone: string, dial: Dial) {
  const host = button.closest('.fd-item') ?? button.parentElement;
  host?.querySelector('.fd-dial')?.remove();
  const note = el('span', 'fd-dial');
  note.setAttribute('role', 'note');
  const number = el('a', 'fd-dial-number', phone);
  number.setAttribute('href', dial.url);
  const from = [dial.from && formatBoardPhone(dial.from), dial.label].filter(Boolean).join(' · ');
  note.append(dial.system ? 'Dial ' : 'Calling ', number, dial.line ? ` on line ${dial.line}` : '', from ? ` · ${from}` : '');
  const close = el('button', 'fd-dial-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  close.addEventListener('click', () => {
    dialing.delete(key);
    for (const d of document.querySelectorAll('.fd-dial'))
      if (d.closest('.fd-item')?.querySelector(`.fd-status[data-for="call"]`)?.getAttribute('data-fd-key') === key) d.remove();
    note.remove();
  });
  note.append(close);
  host?.append(note);
}

// ---- the row's control and its menu ----

let openMenu: { row: HTMLElement; button: HTMLElement; menu: HTMLElement; load: string } | null = null;

function menuButton(row: HTMLElement, read: ReadRow, mc: McChoice | null): HTMLElement {
  const button = el('button', 'fd-more');
  button.type = 'button';
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-label', `FreightDesk actions for ${read.load.company}`);
  button.title = 'FreightDesk: call, e-mail, active load, flag';
  button.append(el('span', 'fd-more-mark', 'FD'));
  button.addEventListener('click', (e) => {
    e.preventDefault();
    if (openMenu?.button === button) closeMenu(true);
    // the row as it is now: DAT may have recycled it since it was decorated
    else showMenu(row, button, readRow(row), mc);
  });
  return button;
}

function showMenu(row: HTMLElement, button: HTMLElement, read: ReadRow, mc: McChoice | null) {
  closeMenu(false);
  const menu = el('div', 'fd-menu');
  menu.setAttribute('role', 'menu');
  menu.setAttribute('aria-label', `FreightDesk actions for ${read.load.company}`);
  menu.append(el('div', 'fd-menu-title', read.load.company), ...actionItems(read, mc, 'menu'));
  menu.addEventListener('keydown', (e) => {
    const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])')];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      closeMenu(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length];
      next?.focus();
    } else if (e.key === 'Tab') closeMenu(false);
  });
  document.body.append(menu);
  openMenu = { row, button, menu, load: signatureOf(read) };
  placeMenu();
  button.setAttribute('aria-expanded', 'true');
  menu.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')?.focus();
}

/**
 * Puts the menu outside the row's box: under the row, by the control (over the row near the
 * window's bottom), so the load it is about stays in sight.
 */
function placeMenu() {
  if (!openMenu) return;
  const { row, button, menu } = openMenu;
  const anchor = button.getBoundingClientRect();
  const rowBox = row.querySelector(ROW_CELLS)?.getBoundingClientRect() ?? row.getBoundingClientRect();
  const size = menu.getBoundingClientRect();
  const below = rowBox.bottom + 2 + size.height <= window.innerHeight;
  menu.style.top = `${Math.max(4, below ? rowBox.bottom + 2 : rowBox.top - 2 - size.height)}px`;
  menu.style.left = `${Math.max(4, Math.min(anchor.left, window.innerWidth - size.width - 8))}px`;
}

/**
 * The board scrolled: the menu follows its row while the row shows the same load; once DAT has
 * recycled the row for another load, or scrolled it out of sight, the menu closes (it was about
 * that load).
 */
function followMenu() {
  if (!openMenu) return;
  const { row, button } = openMenu;
  const box = button.getBoundingClientRect();
  const gone = !row.isConnected || !button.isConnected || signatureOf(readRow(row)) !== openMenu.load;
  const hidden = box.bottom < 0 || box.top > window.innerHeight;
  if (gone || hidden) closeMenu(false);
  else placeMenu();
}

function closeMenu(returnFocus: boolean) {
  if (!openMenu) return;
  const { button, menu } = openMenu;
  openMenu = null;
  menu.remove();
  button.setAttribute('aria-expanded', 'false');
  if (returnFocus && button.isConnected) button.focus();
}

document.addEventListener('pointerdown', (e) => {
  if (openMenu && !openMenu.menu.contains(e.target as Node) && !openMenu.button.contains(e.target as Node)) closeMenu(false);
});
// the menu belongs to the load under it: scrolling the board follows the row, or closes the menu
// once the row shows another load (DAT recycles rows as it scrolls)
document.addEventListener(
  'scroll',
  (e) => {
    if (openMenu && !(e.target instanceof Node && openMenu.menu.contains(e.target))) followMenu();
  },
  true,
);
window.addEventListener('resize', () => closeMenu(false));
// Escape closes it wherever the focus is (the menu's own handler also moves focus back)
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && openMenu) closeMenu(openMenu.menu.contains(document.activeElement));
});

// ---- the FreightDesk bar ----

let bar: HTMLElement | null = null;

function timeOf(ms: number) {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

function alarmText(): string | null {
  if (!health.unreadable) return null;
  return health.reason === 'noRows'
    ? 'FreightDesk cannot find the loads on this page, so flags are off. DAT may have changed its board: your admin is told.'
    : 'FreightDesk cannot read this page, so flags are off. DAT may have changed its board: your admin is told.';
}

function renderBar() {
  if (!bar) {
    bar = el('div', 'fd-bar');
    bar.id = 'fd-bar';
    bar.setAttribute('role', 'region');
    bar.setAttribute('aria-label', 'FreightDesk');
    document.body.append(bar);
  }
  bar.replaceChildren(el('strong', 'fd-brand', 'FreightDesk'));
  const alarm = alarmText();
  if (alarm) {
    const alert = el('span', 'fd-bar-alert fd-bar-unreadable', alarm);
    alert.setAttribute('role', 'alert');
    bar.append(alert);
  }
  const s = state;
  if (!s?.user) {
    bar.append(el('span', 'fd-bar-text', 'Sign in with the FreightDesk button in the browser toolbar to see your team’s flags.'));
    return;
  }
  if (s.signInAgain) {
    bar.append(el('span', 'fd-bar-alert', 'Sign in again'), el('span', 'fd-bar-text', 'Your session ended. Open the FreightDesk button to sign in.'));
    if (s.pending.length) bar.append(el('span', 'fd-bar-text', `${s.pending.length} waiting to be sent`));
    return;
  }
  const label = el('label', 'fd-bar-label', 'Working for ');
  const select = el('select', 'fd-mc-picker');
  select.setAttribute('aria-label', 'Working for');
  if (!s.mcs.length) select.append(new Option('No MC shown in DAT', ''));
  else if (!s.pickedMcId) select.append(new Option('Pick an MC…', ''));
  for (const mc of s.mcs) select.append(new Option(mcLabel(mc), mc._id, false, mc._id === s.pickedMcId));
  select.value = s.pickedMcId ?? '';
  select.addEventListener('change', async () => {
    if (!select.value) return;
    const answer = await ask({ type: 'pickMc', mcId: select.value });
    if (answer.ok) applyState(answer.state);
  });
  label.append(select);
  const refresh = el('button', 'fd-bar-button', 'Refresh');
  refresh.type = 'button';
  refresh.title = 'Load the team’s filters again';
  refresh.addEventListener('click', async () => {
    refresh.disabled = true;
    const answer = await ask({ type: 'refresh' });
    refresh.disabled = false;
    if (answer.ok) applyState(answer.state);
  });
  bar.append(label, refresh);
  const status = el('span', 'fd-bar-text fd-bar-status');
  status.setAttribute('role', 'status');
  const parts: string[] = [];
  const count = filtersInForce(s.filters, s.mcs).length;
  if (s.filtersSyncedAt) parts.push(`${count} filter${count === 1 ? '' : 's'} · updated ${timeOf(s.filtersSyncedAt)}`);
  if (s.pending.length) parts.push(`${s.pending.length} waiting to be sent`);
  status.textContent = parts.join(' · ');
  bar.append(status);
  if (s.live === 'off') bar.append(el('span', 'fd-bar-text fd-bar-live', 'Live updates off: syncing every minute'));
  if (s.problem) bar.append(el('span', 'fd-bar-alert', s.problem));
}

/** "L2 · Swift Haul": the MC with its line number. */
export const mcLabel = (mc: McChoice) => (mc.line ? `L${mc.line} · ${mc.name}` : mc.name);

let contactsVersion: string | null = null;

function applyState(next: ViewState) {
  state = next;
  const nextVersion = computeVersion(next);
  renderBar();
  if (nextVersion !== version || next.teamContactsVersion !== contactsVersion) {
    version = nextVersion;
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
  health = next;
  if (changed) {
    renderBar();
    version = computeVersion(state);
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
    renderBar();
    bar?.append(el('span', 'fd-bar-alert', answer.message));
  }
  checkHealth();
  // "no rows" counts once DAT had time to draw them
  setTimeout(checkHealth, 3000);
  setInterval(() => {
    if (!reportTimer && worthReporting(health)) sendReport();
  }, REPORT_EVERY_MS);
}

void start();
