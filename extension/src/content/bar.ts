/** The FreightDesk bar: the MC picker, Refresh, the filters' count, and what is wrong. */
import { filtersInForce } from '../shared/match';
import { ask, mcLabel } from '../shared/protocol';
import { state, health, el } from './board-state';
import { applyState } from './board';
import { makeFormat } from '../../../web/lib/format-dates';

export let bar: HTMLElement | null = null;

/** "7:39 PM", as the popup and the web app write a time (docs/decisions/0158-one-format.md). */
const timeOf = makeFormat().time;

function alarmText(): string | null {
  if (!health.unreadable) return null;
  return health.reason === 'noRows'
    ? 'FreightDesk cannot find the loads on this page, so flags are off. DAT may have changed its board: your admin is told.'
    : 'FreightDesk cannot read this page, so flags are off. DAT may have changed its board: your admin is told.';
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
