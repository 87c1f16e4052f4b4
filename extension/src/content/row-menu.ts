/** The row's (or panel's) control and its menu, placed outside the row and following it while it shows the same load. */

import { t } from '../i18n';
import type { McChoice } from '../shared/protocol';
import { el, signatureOf } from './board-state';
import type { ReadRow } from './read';
import { actionItems } from './row-actions';

/** What a menu is about: a row (or the open load's panel), read again when the menu opens, and the line it opens under. */
export interface MenuAnchor {
  el: Element;
  read: () => ReadRow;
  line: () => Element;
}

export let openMenu: { anchor: MenuAnchor; button: HTMLElement; menu: HTMLElement; load: string } | null = null;

export function menuButton(anchor: MenuAnchor, read: ReadRow, mc: McChoice | null): HTMLElement {
  const button = el('button', 'fd-more');
  button.type = 'button';
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-label', t('row.actionsFor', { company: read.load.company }));
  button.title = t('row.menuTitle');
  button.append(el('span', 'fd-more-mark', 'FD'));
  button.addEventListener('click', (e) => {
    e.preventDefault();
    if (openMenu?.button === button) closeMenu(true);
    // the row as it is now: the board may have recycled it since it was decorated
    else showMenu(anchor, button, anchor.read(), mc);
  });
  return button;
}

function showMenu(anchor: MenuAnchor, button: HTMLElement, read: ReadRow, mc: McChoice | null) {
  closeMenu(false);
  const menu = el('div', 'fd-menu');
  menu.setAttribute('role', 'menu');
  menu.setAttribute('aria-label', t('row.actionsFor', { company: read.load.company }));
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
  openMenu = { anchor, button, menu, load: signatureOf(read) };
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
  const { anchor: about, button, menu } = openMenu;
  const anchor = button.getBoundingClientRect();
  const rowBox = about.line().getBoundingClientRect();
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
  const { anchor, button } = openMenu;
  const box = button.getBoundingClientRect();
  const gone = !anchor.el.isConnected || !button.isConnected || signatureOf(anchor.read()) !== openMenu.load;
  const hidden = box.bottom < 0 || box.top > window.innerHeight;
  if (gone || hidden) closeMenu(false);
  else placeMenu();
}

export function closeMenu(returnFocus: boolean) {
  if (!openMenu) return;
  const { button, menu } = openMenu;
  openMenu = null;
  menu.remove();
  button.setAttribute('aria-expanded', 'false');
  if (returnFocus && button.isConnected) button.focus();
}

document.addEventListener('pointerdown', (e) => {
  // the event's path, not its target: inside a shadow root the target is the root's host
  const path = e.composedPath();
  if (openMenu && !path.includes(openMenu.menu) && !path.includes(openMenu.button)) closeMenu(false);
});
/**
 * The menu belongs to the load under it: scrolling the board follows the row, or closes the menu
 * once the row shows another load (the boards recycle rows as they scroll). A scroll inside a
 * shadow root does not reach the document: board.ts watches each of the board's roots too.
 */
export function watchScroll(root: Document | ShadowRoot) {
  root.addEventListener(
    'scroll',
    (e) => {
      if (openMenu && !(e.target instanceof Node && openMenu.menu.contains(e.target))) followMenu();
    },
    true,
  );
}
watchScroll(document);
window.addEventListener('resize', () => closeMenu(false));
// Escape closes it wherever the focus is (the menu's own handler also moves focus back)
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && openMenu) closeMenu(openMenu.menu.contains(document.activeElement));
});
