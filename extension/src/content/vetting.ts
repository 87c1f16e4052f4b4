/** docs/rules/extension.md#0169-board-fmcsa-warning: the badge informs; it never blocks, hides or tints anything. */
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import { isWarning, VETTING_LABELS } from '../../../worker/vetting/vetting.states';
import { formatLocale, t } from '../i18n';

const day = (ms: number) => new Date(ms).toLocaleDateString(formatLocale(), { day: 'numeric', month: 'short', year: 'numeric' });

const WARNING_KEYS: Partial<Record<keyof typeof VETTING_LABELS, string>> = { inactive: 'actions.vettingInactive', no_bond: 'actions.vettingNoBond' };

export function vettingBadge(flags: readonly MinifiedFilterDto[]): HTMLElement | null {
  const warned = flags.find((f) => isWarning(f.vetting?.state));
  if (!warned?.vetting?.state) return null;
  const { state, checkedAt } = warned.vetting;
  const badge = document.createElement('span');
  badge.className = 'fd-vetting';
  badge.textContent = '⚠ FMCSA';
  badge.dataset.fdVetting = state;
  const label = WARNING_KEYS[state] ? t(WARNING_KEYS[state]) : VETTING_LABELS[state];
  const text = checkedAt
    ? t('actions.vettingChecked', { state: label, date: day(checkedAt), name: warned.name })
    : t('actions.vetting', { state: label, name: warned.name });
  badge.title = text;
  badge.setAttribute('aria-label', text);
  badge.setAttribute('role', 'img');
  // inline: the board's stylesheet stays as it is; one line, no taller than the type badges
  Object.assign(badge.style, {
    display: 'inline-block',
    marginLeft: '4px',
    padding: '0 4px',
    borderRadius: '3px',
    font: '600 10px/14px system-ui, sans-serif',
    color: '#7f1d1d',
    background: '#fef2f2',
    border: '1px solid #b91c1c',
    whiteSpace: 'nowrap',
    verticalAlign: 'middle',
  });
  return badge;
}
