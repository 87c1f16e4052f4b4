/**
 * The toolbar popup: sign in (as the load-board client), who is signed in and the subscription,
 * the MC to work for, the filters' sync, actions waiting to be sent, and Sign out.
 */

import { makeFormat } from '../../../web/lib/format-dates';
import { actionLabel, followLanguage, formatLocale, messageText, t } from '../i18n';
import { filtersInForce } from '../shared/match';
import { ask, mcLabel, type Response, type ViewState } from '../shared/protocol';

/** The web app's one date and time format, in the language's locale (English: the browser's). */
let format = makeFormat(formatLocale());

const app = document.getElementById('app')!;
let busy = false;
let message: { text: string; tone: 'error' | 'ok' } | null = null;

const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {},
  ...children: (Node | string | null | false)[]
) => {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  if (dataset) Object.assign(node.dataset, dataset);
  for (const child of children) if (child) node.append(child);
  return node;
};

const present = (...nodes: (Node | null)[]) => nodes.filter((n): n is Node => n !== null);
const time = (ms: number) => format.time(ms);

function subscriptionLine(s: ViewState) {
  const sub = s.subscription;
  if (!sub) return h('span', { className: 'muted' }, t('popup.subscriptionChecking'));
  if (!sub.isSubscriptionActive) {
    const pay = h('a', { href: `${s.apiUrl}/payment/`, target: '_blank', rel: 'noopener' }, t('popup.payInApp'));
    return h('span', { className: 'error', dataset: { testid: 'subscription' } }, t('popup.subscriptionExpired'), pay);
  }
  const days = sub.subscriptionDaysLeft;
  return h(
    'span',
    { className: days < 7 && sub.subscriptionEndDate ? 'warn' : 'ok', dataset: { testid: 'subscription' } },
    sub.subscriptionEndDate ? t('popup.subscriptionUntil', { count: days, date: format.date(sub.subscriptionEndDate) }) : t('popup.subscriptionActive'),
  );
}

async function call(request: Parameters<typeof ask>[0]): Promise<Response> {
  busy = true;
  message = null;
  const answer = await ask(request);
  busy = false;
  if (!answer.ok) message = { text: messageText(answer), tone: 'error' };
  render(answer.state ?? (await ask({ type: 'state' })).state ?? null);
  return answer;
}

function signInForm(s: ViewState | null) {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true, value: s?.user?.email ?? '' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const submit = h('button', { type: 'submit', disabled: busy }, busy ? t('popup.signingIn') : t('popup.signIn'));
  const form = h(
    'form',
    { className: 'grid', noValidate: true },
    h('label', {}, t('popup.email'), email),
    h('label', {}, t('popup.password'), password),
    message ? h('p', { className: 'error', role: 'alert' }, message.text) : null,
    h('div', { className: 'row' }, submit),
  );
  form.style.display = 'grid';
  form.style.gap = '10px';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!email.value.trim()) return showError(t('popup.emailEmpty'));
    if (!password.value) return showError(t('popup.passwordEmpty'));
    void call({ type: 'signIn', email: email.value.trim(), password: password.value });
  });
  return form;
}

function showError(text: string) {
  message = { text, tone: 'error' };
  void ask({ type: 'state' }).then((a) => render(a.ok ? a.state : null));
}

function render(s: ViewState | null) {
  // the signed-in user's language; before sign-in the browser's (when it is one of the three)
  if (followLanguage(s?.language)) format = makeFormat(formatLocale());
  document.getElementById('options-link')!.textContent = t('popup.options');
  document.getElementById('server')!.textContent = s ? t('popup.server', { host: s.apiUrl.replace(/^https?:\/\//, '') }) : '';
  if (!s?.user || s.signInAgain) {
    app.replaceChildren(
      ...present(
        s?.signInAgain ? h('p', { className: 'notice', role: 'alert' }, t('popup.sessionEnded')) : h('p', { className: 'muted' }, t('popup.signInWith')),
        signInForm(s),
        s?.pending.length ? h('p', { className: 'warn' }, t('popup.waitingSignIn', { count: s.pending.length })) : null,
      ),
    );
    return;
  }
  const who = h(
    'div',
    { className: 'who', dataset: { testid: 'signed-in' } },
    h('strong', {}, s.user.name),
    h('span', { className: 'muted' }, s.user.email),
    subscriptionLine(s),
  );

  const picker = h('select', { name: 'mc', disabled: busy || !s.mcs.length });
  picker.setAttribute('aria-label', t('popup.workingFor'));
  if (!s.mcs.length) picker.append(new Option(t('popup.noMcShown'), ''));
  else if (!s.pickedMcId) picker.append(new Option(t('popup.pickMc'), ''));
  for (const mc of s.mcs) picker.append(new Option(mcLabel(mc), mc._id, false, mc._id === s.pickedMcId));
  picker.value = s.pickedMcId ?? '';
  picker.addEventListener('change', () => picker.value && void call({ type: 'pickMc', mcId: picker.value }));
  const working = h('section', {}, h('h2', {}, t('popup.workingFor')), picker, s.mcs.length ? null : h('p', { className: 'muted' }, t('popup.turnShowInDat')));

  const refresh = h('button', { type: 'button', className: 'secondary', disabled: busy }, busy ? t('popup.refreshing') : t('popup.refreshFlags'));
  refresh.addEventListener('click', () => void call({ type: 'refresh' }));
  const count = filtersInForce(s.filters, s.mcs).length;
  const synced = s.filtersSyncedAt ? t('popup.filtersInForce', { count, time: time(s.filtersSyncedAt) }) : t('popup.filtersNotLoaded');
  const flags = h(
    'section',
    {},
    h('h2', {}, t('popup.flags')),
    h('div', { className: 'row' }, refresh, h('span', { className: 'muted', dataset: { testid: 'synced' } }, synced)),
  );

  const waiting = s.pending.length
    ? h(
        'section',
        { dataset: { testid: 'pending' } },
        h('h2', {}, t('popup.waitingToBeSent', { count: s.pending.length })),
        h('ul', { className: 'plain' }, ...s.pending.slice(0, 5).map((p) => h('li', {}, actionLabel(p)))),
        (() => {
          const retry = h('button', { type: 'button', className: 'secondary', disabled: busy }, t('popup.sendNow'));
          retry.addEventListener('click', () => void call({ type: 'flush' }));
          return retry;
        })(),
      )
    : null;
  const refused = s.refused.length
    ? h(
        'section',
        {},
        h('h2', {}, t('popup.notSaved')),
        h(
          'ul',
          { className: 'plain' },
          ...s.refused.slice(0, 5).map((r) => h('li', {}, `${actionLabel(r)}: `, h('span', { className: 'error' }, messageText(r)))),
        ),
      )
    : null;

  const open = h('a', { className: 'button secondary', href: s.apiUrl, target: '_blank', rel: 'noopener' }, t('popup.openApp'));
  const out = h('button', { type: 'button', disabled: busy }, t('popup.signOut'));
  out.addEventListener('click', () => void call({ type: 'signOut' }));
  app.replaceChildren(
    ...present(
      who,
      s.problem ? h('p', { className: 'notice', role: 'alert' }, messageText(s.problem)) : null,
      message ? h('p', { className: 'error', role: 'alert' }, message.text) : null,
      working,
      flags,
      waiting,
      refused,
      h('div', { className: 'row' }, open, out),
    ),
  );
}

document.getElementById('options-link')!.addEventListener('click', (e) => {
  e.preventDefault();
  void chrome.runtime.openOptionsPage();
});

// the board and other windows change the state too: show it as it is now
chrome.runtime.onMessage.addListener((m: { type?: string; state?: ViewState }) => {
  if (m?.type === 'statePush' && m.state && !busy) render(m.state);
  return false;
});

void ask({ type: 'state' }).then((answer) => {
  render(answer.ok ? answer.state : null);
  // opening the popup is a good moment to send what waits
  if (answer.ok && answer.state.pending.length && !answer.state.signInAgain) void call({ type: 'flush' });
});
