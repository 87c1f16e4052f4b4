/** The dial note: the number being called, on which line and from which number, beside Call until closed. */
import { formatBoardPhone, normalizeBoardPhone } from '../../../worker/lib/phone';
import { dialUrl } from '../../../worker/team/dialer';
import { t } from '../i18n';
import { el, state } from './board-state';

/** The calls whose number to dial is on screen, by the same key. */
export const dialing = new Set<string>();

/** How "Call on line N" dials: the team's dialer URL, and the line's caller number when the team set one. */
interface Dial {
  url: string;
  line: number | null;
  from: string;
  label: string;
  system: boolean;
}

export function dialOf(phone: string, line: number | null): Dial | null {
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
export function showDial(button: HTMLElement, key: string, phone: string, dial: Dial) {
  const host = button.closest('.fd-item') ?? button.parentElement;
  host?.querySelector('.fd-dial')?.remove();
  const note = el('span', 'fd-dial');
  note.setAttribute('role', 'note');
  const number = el('a', 'fd-dial-number', phone);
  number.setAttribute('href', dial.url);
  const from = [dial.from && formatBoardPhone(dial.from), dial.label].filter(Boolean).join(' · ');
  note.append(
    dial.system ? t('actions.dial') : t('actions.calling'),
    number,
    dial.line ? t('actions.onLine', { line: dial.line }) : '',
    from ? ` · ${from}` : '',
  );
  const close = el('button', 'fd-dial-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', t('actions.close'));
  close.addEventListener('click', () => {
    dialing.delete(key);
    for (const d of document.querySelectorAll('.fd-dial'))
      if (d.closest('.fd-item')?.querySelector(`.fd-status[data-for="call"]`)?.getAttribute('data-fd-key') === key) d.remove();
    note.remove();
  });
  note.append(close);
  host?.append(note);
}
