/** The FreightDesk bar: the MC picker, Refresh, the filters' count, and what is wrong. */

import { makeFormat } from '../../../web/lib/format-dates';
import { formatLocale, messageText, t } from '../i18n';
import { filtersInForce } from '../shared/match';
import { ask, mcLabel } from '../shared/protocol';
import { applyState, el, health, state } from './board-state';

export let bar: HTMLElement | null = null;

/** "7:39 PM", as the popup and the web app write a time (docs/rules/screens.md#0158-one-format), in the language's locale. */
const timeOf = (ms: number) => makeFormat(formatLocale()).time(ms);

function alarmText(): string | null {
  if (!health.unreadable) return null;
  return health.reason === 'noRows' ? t('bar.noRows') : t('bar.unreadable');
}

export function renderBar() {
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
    bar.append(el('span', 'fd-bar-text', t('bar.signInToolbar')));
    return;
  }
  if (s.signInAgain) {
    bar.append(el('span', 'fd-bar-alert', t('bar.signInAgain')), el('span', 'fd-bar-text', t('bar.sessionEnded')));
    if (s.pending.length) bar.append(el('span', 'fd-bar-text', t('bar.waiting', { count: s.pending.length })));
    return;
  }
  const label = el('label', 'fd-bar-label', t('bar.workingFor'));
  const select = el('select', 'fd-mc-picker');
  select.setAttribute('aria-label', t('bar.workingForLabel'));
  if (!s.mcs.length) select.append(new Option(t('bar.noMc'), ''));
  else if (!s.pickedMcId) select.append(new Option(t('bar.pickMc'), ''));
  for (const mc of s.mcs) select.append(new Option(mcLabel(mc), mc._id, false, mc._id === s.pickedMcId));
  select.value = s.pickedMcId ?? '';
  select.addEventListener('change', async () => {
    if (!select.value) return;
    const answer = await ask({ type: 'pickMc', mcId: select.value });
    if (answer.ok) applyState(answer.state);
  });
  label.append(select);
  const refresh = el('button', 'fd-bar-button', t('bar.refresh'));
  refresh.type = 'button';
  refresh.title = t('bar.refreshTitle');
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
  if (s.filtersSyncedAt) parts.push(t('bar.filters', { count, time: timeOf(s.filtersSyncedAt) }));
  if (s.pending.length) parts.push(t('bar.waiting', { count: s.pending.length }));
  status.textContent = parts.join(' · ');
  bar.append(status);
  if (s.live === 'off') bar.append(el('span', 'fd-bar-text fd-bar-live', t('bar.liveOff')));
  if (s.problem) bar.append(el('span', 'fd-bar-alert', messageText(s.problem)));
}
