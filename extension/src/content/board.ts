/**
 * The content script on DAT's load board: decorates the result rows the page shows with the
 * team's flags and four actions, and a small FreightDesk bar to pick the MC. It reads only rows
 * already on the screen, as the page renders them (MutationObserver), sends nothing until the user
 * clicks, and never scrolls, searches or reloads the board itself (README: Extension, "Restraint").
 */
import { renderTemplate } from '../../../worker/mc-settings/email-template.schema';
import { type BoardLoad, contactClientId, fullDate, loadClientId, readableDate } from '../shared/load';
import { filtersForRow, filtersInForce, isBlockedLike } from '../shared/match';
import { type ActionOutcome, ask, type McChoice, type RowAction, type StatePush, type ViewState } from '../shared/protocol';
import { badgeHost, readRow, ROW, rowsIn } from './selectors';

let state: ViewState | null = null;
/** Changes when what rows show changes (user, MC, filters): rows decorated under another version are redone. */
let version = '';
/** The outcome of each action clicked on this page, by row and action, so a redraw keeps it. */
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

/** What a row shows that decides its decoration; with `version`, a row is redone only when this changes. */
const signatureOf = (load: BoardLoad) => JSON.stringify([load.company, load.phone, load.email, load.origin, load.dest, load.pickup, load.rate, load.reference]);

function computeVersion(s: ViewState | null): string {
  if (!s) return 'none';
  return JSON.stringify([
    s.user?.userId ?? null,
    s.signInAgain,
    s.pickedMcId,
    s.filtersSyncedAt,
    s.mcs.map((m) => [m._id, m.line, m.emailSubject, m.emailContent]),
    s.apiUrl,
  ]);
}

// ---- rows ----

function clearRow(row: HTMLElement) {
  for (const own of row.querySelectorAll(':scope .fd-flags, :scope .fd-actions')) own.remove();
  row.classList.remove('fd-row-blocked', 'fd-row-flagged');
}

/** Decorates a row once: again only when its content, the user, the MC or the filters changed. */
function decorate(row: HTMLElement) {
  const load = readRow(row);
  const signature = `${version}|${signatureOf(load)}`;
  const ownNodes = row.querySelectorAll(':scope .fd-flags, :scope .fd-actions').length;
  if (row.dataset.fdSignature === signature && ownNodes === (signedIn() ? 2 : 0)) return;
  clearRow(row);
  row.dataset.fdSignature = signature;
  if (!signedIn() || !load.company) return;
  const mc = pickedMc();
  const flags = filtersForRow(state!.filters, mc, load);
  const flagBox = el('span', 'fd-flags');
  for (const filter of flags) {
    const badge = el('span', 'fd-badge', filter.typeName || 'Flagged');
    badge.style.setProperty('--fd-color', filter.color || '#6b7280');
    badge.title = [filter.typeName, filter.comment].filter(Boolean).join(': ') || 'Flagged by your team';
    badge.dataset.fdFilter = filter._id;
    flagBox.append(badge);
  }
  badgeHost(row).append(flagBox);
  if (flags.length) row.classList.add('fd-row-flagged');
  if (flags.some((f) => isBlockedLike(f.typeName))) row.classList.add('fd-row-blocked');
  row.append(actionsFor(load, mc));
}

function decorateAll(root: ParentNode = document) {
  for (const row of root.querySelectorAll<HTMLElement>(ROW)) decorate(row);
}

// ---- actions ----

const feedbackKey = (load: BoardLoad, mc: McChoice | null, kind: string) => `${signatureOf(load)}|${mc?._id ?? ''}|${kind}`;

/** Shows an action's outcome on the row as it is now: a redraw meanwhile made new elements. */
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

function webUrl(path: string) {
  return `${state!.apiUrl}${path}`;
}

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

function mailtoOf(load: BoardLoad, mc: McChoice) {
  const values = templateValues(load, mc);
  const subject = renderTemplate(mc.emailSubject, values);
  const body = renderTemplate(mc.emailContent, values);
  const query = [subject && `subject=${encodeURIComponent(subject)}`, body && `body=${encodeURIComponent(body)}`].filter(Boolean).join('&');
  return `mailto:${encodeURIComponent(load.email).replace(/%40/g, '@')}${query ? `?${query}` : ''}`;
}

function rowAction(load: BoardLoad, mc: McChoice, kind: RowAction['kind'], contact: string, clientId: string, at: number): RowAction {
  return {
    kind,
    mcId: mc._id,
    clientId,
    brokerName: load.company,
    contact,
    origin: load.origin,
    dest: load.dest,
    loadDate: fullDate(load.pickup) ?? load.pickup,
    at,
  };
}

function actionsFor(load: BoardLoad, mc: McChoice | null): HTMLElement {
  const box = el('div', 'fd-actions');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', `FreightDesk actions for ${load.company}`);
  const noMc = 'Pick the MC you work for in the FreightDesk bar';

  const button = (kind: string, label: string, problem: string | null, onClick: (b: HTMLElement) => void, href?: string) => {
    // a link when it opens something (the mail client, the web app); a disabled action is a disabled button
    const b = href && !problem ? el('a', 'fd-action', label) : el('button', 'fd-action', label);
    b.dataset.kind = kind;
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
      onClick(b);
    });
    const status = el('span', 'fd-status');
    status.dataset.for = kind;
    status.dataset.fdKey = feedbackKey(load, mc, kind);
    const shown = feedback.get(status.dataset.fdKey);
    status.textContent = shown?.text ?? '';
    status.dataset.tone = shown?.tone ?? '';
    status.hidden = !shown;
    status.setAttribute('role', 'status');
    box.append(b, status);
    return b;
  };

  const line = mc?.line;
  const callKey = feedbackKey(load, mc, 'call');
  const call = button('call', line ? `Call on line ${line}` : 'Call', !mc ? noMc : !load.phone ? 'No phone number on this load' : null, (b) => {
    dialing.add(callKey);
    showDial(b, callKey, load.phone, line ?? null);
    void run(
      callKey,
      async () => {
        const at = Date.now();
        return rowAction(load, mc!, 'call', load.phone, await contactClientId(load, mc!._id, 'call', load.phone, at), at);
      },
      'Call logged',
    );
  });
  button(
    'email',
    'E-mail',
    !mc ? noMc : !load.email ? 'No e-mail address on this load' : null,
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
    mc && load.email ? mailtoOf(load, mc) : undefined,
  );
  button('load', '+ Active load', !mc ? noMc : !load.origin || !load.dest ? 'This load shows no origin or destination' : null, () => {
    void run(
      feedbackKey(load, mc, 'load'),
      async () => rowAction(load, mc!, 'load', '', await loadClientId(load, mc!._id), Date.now()),
      'Added to active loads',
    );
  });
  const flag = button('flag', 'Flag broker', null, () => undefined, flagUrl(load));
  flag.setAttribute('target', '_blank');
  flag.setAttribute('rel', 'noopener');
  // a redraw (new filters, another MC) keeps the number on screen
  if (dialing.has(callKey) && mc && load.phone) showDial(call, callKey, load.phone, line ?? null);
  return box;
}

/** "Dial (312) 555-0142 on line 2": the number to dial, beside the button, until closed. */
function showDial(button: HTMLElement, key: string, phone: string, line: number | null) {
  button.parentElement?.querySelector('.fd-dial')?.remove();
  const dial = el('span', 'fd-dial');
  dial.setAttribute('role', 'note');
  const number = el('a', 'fd-dial-number', phone);
  number.setAttribute('href', `tel:${phone.replace(/[^\d+]/g, '')}`);
  dial.append('Dial ', number, line ? ` on line ${line}` : '');
  const close = el('button', 'fd-dial-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  close.addEventListener('click', () => {
    dialing.delete(key);
    dial.remove();
  });
  dial.append(close);
  button.after(dial);
}

// ---- the FreightDesk bar ----

let bar: HTMLElement | null = null;

function timeOf(ms: number) {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
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
  if (s.problem) bar.append(el('span', 'fd-bar-alert', s.problem));
}

/** "L2 · Swift Haul": the MC with its line number. */
export const mcLabel = (mc: McChoice) => (mc.line ? `L${mc.line} · ${mc.name}` : mc.name);

function applyState(next: ViewState) {
  state = next;
  const nextVersion = computeVersion(next);
  renderBar();
  if (nextVersion !== version) {
    version = nextVersion;
    decorateAll();
  }
}

// ---- start ----

const observer = new MutationObserver((mutations) => {
  const rows = new Set<Element>();
  for (const m of mutations) {
    if (m.type === 'childList') {
      for (const node of m.addedNodes) for (const row of rowsIn(node)) rows.add(row);
      // a cell's content replaced inside a row
      const target = m.target instanceof Element ? m.target.closest(ROW) : null;
      if (target) rows.add(target);
    } else if (m.type === 'characterData') {
      const row = m.target.parentElement?.closest(ROW);
      if (row) rows.add(row);
    }
  }
  for (const row of rows) if (row.isConnected) decorate(row as HTMLElement);
});

chrome.runtime.onMessage.addListener((message: StatePush) => {
  if (message?.type === 'statePush') applyState(message.state);
  return false;
});

async function start() {
  // rows are decorated as soon as they appear, from the first render on
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  const answer = await ask({ type: 'boardHello' });
  if (answer.ok) applyState(answer.state);
  else {
    renderBar();
    bar?.append(el('span', 'fd-bar-alert', answer.message));
  }
}

void start();
