import { createContext, type ReactNode, useCallback, useContext, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { Button } from './ui/button';
import { Modal } from './ui/dialog';

/**
 * Unsaved edits are never lost silently (rule 0130). While `dirty`, leaving the screen
 * in the app (a menu item, a link, Back, Logout) opens a Save / Discard / Stay dialog, and
 * closing or reloading the tab asks the browser's own question (`beforeunload`).
 * `save` answers whether it saved; a refused save keeps the person on the screen.
 * Render the returned `dialog` once in the screen.
 * `stays` names in-screen paths that are not leaving (a modal opened from a URL closes to its
 * screen's path): moving there is not blocked.
 */
export function useUnsavedChanges(dirty: boolean, save: () => Promise<boolean>, stays?: (pathname: string) => boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname && !stays?.(nextLocation.pathname),
  );
  const [saving, setSaving] = useState(false);
  const { t } = useTranslation();

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
      title={t('common.unsaved.title')}
      initialFocus={stay}
      footer={
        <>
          <Button onClick={onSave} disabled={saving}>
            {t('common.unsaved.save')}
          </Button>
          <Button variant="danger" onClick={() => blocker.state === 'blocked' && blocker.proceed()} disabled={saving}>
            {t('common.unsaved.discard')}
          </Button>
          <Button ref={stay} variant="ghost" onClick={() => blocker.state === 'blocked' && blocker.reset()} disabled={saving}>
            {t('common.unsaved.stay')}
          </Button>
        </>
      }
    >
      <p>{t('common.unsaved.text')}</p>
    </Modal>
  );
  return { dialog, blocked: open };
}

type Section = { dirty: boolean; save: () => Promise<boolean> };
const ScopeContext = createContext<((key: string, section: Section | null) => void) | null>(null);

/**
 * One guard for a screen of several forms (Profile's sections): each form reports itself with
 * `useUnsavedSection`; leaving while any is dirty asks once, and Save saves every dirty form.
 * (A router blocks with one blocker at a time, so a screen has one guard.)
 */
export function UnsavedChangesScope({ children }: { children: ReactNode }) {
  const [sections, setSections] = useState<Record<string, Section>>({});
  const register = useCallback(
    (key: string, section: Section | null) => setSections(({ [key]: _old, ...rest }) => (section ? { ...rest, [key]: section } : rest)),
    [],
  );
  const dirty = Object.values(sections).some((s) => s.dirty);
  const saveAll = async () => {
    for (const s of Object.values(sections)) if (s.dirty && !(await s.save())) return false;
    return true;
  };
  const unsaved = useUnsavedChanges(dirty, saveAll);
  return (
    <ScopeContext.Provider value={register}>
      {children}
      {unsaved.dialog}
    </ScopeContext.Provider>
  );
}

/** A form inside an UnsavedChangesScope: whether it holds edits, and how to save them (true when saved). */
export function useUnsavedSection(dirty: boolean, save: () => Promise<boolean>) {
  const register = useContext(ScopeContext);
  const key = useId();
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    register?.(key, { dirty, save: () => saveRef.current() });
  }, [register, key, dirty]);
  useEffect(() => () => register?.(key, null), [register, key]);
}
