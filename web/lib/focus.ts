/**
 * Focus that never falls to <body> (rule 0155): after a navigation the screen's heading
 * takes it; when the focused control disappears or is disabled (a saved form, a deleted row, a
 * closed dialog whose opener is gone) the heading takes it too, so a keyboard or screen-reader
 * user stays in the page.
 */

/** The screen's heading: the first h1 in <main> (made focusable by script, not by Tab). */
export function mainHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('main');
}

export function focusMainHeading(): boolean {
  const target = mainHeading();
  if (!target) return false;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: false });
  return document.activeElement === target;
}

/** An element focus could go back to: still in the page, enabled, shown. */
export function canTakeFocus(el: Element | null): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected) return false;
  if ((el as HTMLButtonElement).disabled) return false;
  if (el.closest('[inert],[aria-hidden="true"]')) return false;
  return el.getClientRects().length > 0;
}

/**
 * Watches the whole document so focus never stays on <body> after a change the person did not
 * make: a focused control that is removed (a deleted row, a closed dialog's opener) gives the
 * focus to the screen's heading; one that is disabled while it works (Save while saving) gets
 * it back when it is enabled again, or gives it to the heading if it goes away. A click on
 * empty space (the element still there and enabled) is left alone. Returns the clean-up.
 */
export function installFocusGuard(): () => void {
  let waiting: HTMLElement | null = null;
  let waitingSince = 0;
  const wait = (el: HTMLElement) => {
    if (waiting !== el) waitingSince = Date.now();
    waiting = el;
  };
  // the control that had the focus last, unless the person moved it away (a click elsewhere)
  let lastFocused: HTMLElement | null = null;
  let pointerAt = 0;
  const onFocusIn = (e: FocusEvent) => {
    lastFocused = e.target instanceof HTMLElement ? e.target : null;
  };
  const onPointerDown = () => {
    pointerAt = Date.now();
  };
  const onBody = () => document.activeElement === document.body || document.activeElement === null;
  const settle = () => {
    if (!waiting) return;
    if (!onBody()) {
      waiting = null;
      return;
    }
    if (!waiting.isConnected) {
      waiting = null;
      focusMainHeading();
    } else if (!(waiting as HTMLButtonElement).disabled) {
      const back = waiting;
      waiting = null;
      back.focus();
    } else if (Date.now() - waitingSince > 1500) {
      // still disabled (Save after a save: nothing left to save): the heading, not <body>
      waiting = null;
      focusMainHeading();
    }
  };
  const onFocusOut = (e: FocusEvent) => {
    if (e.relatedTarget || !(e.target instanceof HTMLElement)) return;
    // a press on empty space just now: the person moved the focus away, unless the control goes
    const byPointer = Date.now() - pointerAt < 100;
    if (byPointer) lastFocused = null;
    const el = e.target;
    // after React has finished this change (the element removed, a dialog's own focus return).
    // A removed control hands the focus to the heading even right after a press: a confirmed
    // delete whose call and reload answer within 100 ms of the press removes the row's button
    // then, and that left the focus on <body> (one CI run in several).
    setTimeout(() => {
      if (!onBody()) return;
      if (!el.isConnected) focusMainHeading();
      else if (!byPointer && (el as HTMLButtonElement).disabled) wait(el);
    }, 50);
  };
  // Chromium drops the focus of a control that becomes disabled, without a focusout
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target as HTMLElement;
      if ((el as HTMLButtonElement).disabled && (el === document.activeElement || (onBody() && el === lastFocused))) wait(el);
    }
    settle();
  });
  document.addEventListener('focusout', onFocusOut);
  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('pointerdown', onPointerDown, true);
  observer.observe(document.body, { attributes: true, attributeFilter: ['disabled'], subtree: true });
  const poll = window.setInterval(settle, 150);
  return () => {
    document.removeEventListener('focusout', onFocusOut);
    document.removeEventListener('focusin', onFocusIn);
    document.removeEventListener('pointerdown', onPointerDown, true);
    observer.disconnect();
    window.clearInterval(poll);
  };
}
