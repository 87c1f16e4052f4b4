/**
 * The board's FMCSA warning (docs/rules/extension.md#0169-board-fmcsa-warning): a small badge on a row
 * matched to a filter whose broker (by the filter's DOT or MC number, or the MC the load's details
 * show) has no active broker authority or no bond on file at FMCSA. It informs; it never blocks,
 * hides or tints anything.
 */
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import { isWarning, VETTING_LABELS } from '../../../worker/vetting/vetting.states';
import { formatLocale, t } from '../i18n';

const day = (ms: number) => new Date(ms).toLocaleDateString(formatLocale(), { day: 'numeric', month: 'short', year: 'numeric' });

/** The warning states' labels in the catalogue (the badge shows only these two). */
const WARNING_KEYS: Partial<Record<keyof typeof VETTING_LABELS, string>> = { inactive: 'actions.vettingInactive', no_bond: 'actions.vettingNoBond' };

/** The badge for the row's matched filters, or null when none of their brokers warrants one. */
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
