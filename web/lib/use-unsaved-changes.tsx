import { useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { Button } from '../components/ui/button';
import { Modal } from '../components/ui/dialog';

/**
 * Unsaved edits are never lost silently (issue 16 item 2). While `dirty`, leaving the screen
 * in the app (a menu item, a link, Back, Logout) opens a Save / Discard / Stay dialog, and
 * closing or reloading the tab asks the browser's own question (`beforeunload`).
 * `save` answers whether it saved; a refused save keeps the person on the screen.
 * Render the returned `dialog` once in the screen.
 */
export function useUnsavedChanges(dirty: boolean, save: () => Promise<boolean>) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // older browsers show the dialog only when a value is set
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const stay = useRef<HTMLButtonElement>(null);
  const open = blocker.state === 'blocked';
  const onSave = async () => {
    setSaving(true);
    const ok = await save().catch(() => false);
    setSaving(false);
    if (blocker.state !== 'blocked') return;
    if (ok) blocker.proceed();
    else blocker.reset();
  };

  const dialog = (
    <Modal
      open={open}
      onOpenChange={(o) => !o && blocker.state === 'blocked' && blocker.reset()}
      title="Unsaved changes"
      initialFocus={stay}
      footer={
        <>
          <Button onClick={onSave} disabled={saving}>
            Save
          </Button>
          <Button variant="danger" onClick={() => blocker.state === 'blocked' && blocker.proceed()} disabled={saving}>
            Discard
          </Button>
          <Button ref={stay} variant="ghost" onClick={() => blocker.state === 'blocked' && blocker.reset()} disabled={saving}>
            Stay
          </Button>
        </>
      }
    >
      <p>You have changes on this screen that are not saved yet. Save them before you leave?</p>
    </Modal>
  );
  return { dialog, blocked: open };
}
