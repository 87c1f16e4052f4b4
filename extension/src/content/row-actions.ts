/** The row's four actions (Call, E-mail, + Active load, Flag broker), as menu items or the details' buttons, and what became of each. */
import { renderTemplate } from '../../../worker/mc-settings/email-template.schema';
import { messageText, t } from '../i18n';
import { composeUrl, opensInBrowser } from '../shared/compose';
import { type BoardLoad, contactClientId, fullDate, loadClientId, readableDate } from '../shared/load';
import { type ActionOutcome, ask, type McChoice, type RowAction } from '../shared/protocol';
import { adapter, applyState, el, state } from './board-state';
import { dialing, dialOf, showDial } from './dial-note';
import { deepQueryAll, type ReadRow } from './read';

/** Our elements on the page and inside the board's open shadow roots (Truckstop keeps its panel there). */
const ownAll = <T extends Element>(selector: string) => deepQueryAll<T>(document, selector);

/** The outcome of each action clicked on this page, by load and action, so a redraw keeps it. */
const feedback = new Map<string, { text: string; tone: 'ok' | 'wait' | 'error' }>();

/** One key per load (broker, lane, pick-up), MC and action: the row's control and its details share it. */
const feedbackKey = (load: BoardLoad, mc: McChoice | null, kind: string) =>
  JSON.stringify([load.company, load.origin, load.dest, fullDate(load.pickup) ?? load.pickup, mc?._id ?? '', kind]);

/** Shows an action's outcome wherever it is on screen now: a redraw meanwhile made new elements. */
function showFeedback(key: string) {
  const shown = feedback.get(key);
  for (const status of ownAll<HTMLElement>('.fd-status')) {
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
      return { text: t('actions.waitingToSend'), tone: 'wait' };
    case 'refused':
      return { text: messageText(outcome), tone: 'error' };
    case 'signInAgain':
      return { text: t('actions.signInAgainAfter'), tone: 'wait' };
    default:
      return { text: t('actions.signInFirst'), tone: 'error' };
  }
}

async function run(key: string, action: () => Promise<RowAction>, done: string) {
  const built = await action();
  feedback.set(key, { text: t('actions.sending'), tone: 'wait' });
  showFeedback(key);
  const answer = await ask({ type: 'action', action: built });
  feedback.set(key, answer.ok ? outcomeText(answer.outcome ?? { status: 'sent' }, done) : { text: messageText(answer), tone: 'error' });
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
    board: adapter?.board ?? 'dat',
    at,
  };
}

/**
 * The four actions, as menu items of the row's control or as the details' buttons, enabled by what
 * the row shows, whatever its layout is called: a row without a contact or a pick-up cell (DAT's
 * compact row keeps them in the details) says to open the load for Call, E-mail and + Active load.
 */
export function actionItems(read: ReadRow, mc: McChoice | null, variant: 'menu' | 'details'): HTMLElement[] {
  const { load } = read;
  const items: HTMLElement[] = [];
  // where the row itself shows none, the load's details may
  const contactShown = read.hasDetails || read.signals.contactCell;
  const dateShown = read.hasDetails || read.signals.pickupCell || !!load.pickup;
  const noMc = t('actions.noMc');

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
    line ? t('actions.callOnLine', { line }) : t('actions.call'),
    !mc ? noMc : !load.phone ? (contactShown ? t('actions.noPhone') : t('actions.openForPhone')) : !dial ? t('actions.cannotDial') : null,
    () => {
      dialing.add(callKey);
      for (const shown of ownAll<HTMLElement>('.fd-action[data-kind="call"]')) {
        if (shown.closest('.fd-item')?.querySelector('.fd-status')?.getAttribute('data-fd-key') === callKey) showDial(shown, callKey, load.phone, dial!);
      }
      void run(
        callKey,
        async () => {
          const at = Date.now();
          return rowAction(load, mc!, 'call', load.phone, await contactClientId(load, mc!._id, 'call', load.phone, at), at);
        },
        t('actions.callLogged'),
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
    t('actions.email'),
    !mc ? noMc : !load.email ? (contactShown ? t('actions.noEmail') : t('actions.openForEmail')) : null,
    () => {
      // the link opens the mail client with the MC's template filled; the click logs it
      void run(
        feedbackKey(load, mc, 'email'),
        async () => {
          const at = Date.now();
          return rowAction(load, mc!, 'email', load.email, await contactClientId(load, mc!._id, 'email', load.email, at), at);
        },
        t('actions.emailLogged'),
      );
    },
    mc && load.email ? composeOf(load, mc) : undefined,
  );
  // Gmail and Outlook open in a tab of their own, beside the board
  if (email instanceof HTMLAnchorElement && opensInBrowser(state!.mailClient ?? 'system')) {
    email.setAttribute('target', '_blank');
    email.setAttribute('rel', 'noopener');
  }
  item('load', t('actions.activeLoad'), !mc ? noMc : !load.origin || !load.dest ? t('actions.noLane') : !dateShown ? t('actions.openForDate') : null, () => {
    void run(
      feedbackKey(load, mc, 'load'),
      async () => rowAction(load, mc!, 'load', '', await loadClientId(load, mc!._id), Date.now()),
      t('actions.loadAdded'),
    );
  });
  const flag = item('flag', t('actions.flagBroker'), null, () => undefined, flagUrl(load));
  flag.setAttribute('target', '_blank');
  flag.setAttribute('rel', 'noopener');
  // a redraw (new filters, another MC, the row opened) keeps the number on screen
  if (dialing.has(callKey) && dial) showDial(call, callKey, load.phone, dial);
  return items;
}
