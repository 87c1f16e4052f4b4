import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from 'react';
import { loadLibrary } from '../../i18n/startup';
import { useSession } from '../../lib/session';
import { ToastContext, type ToastKind } from '../../lib/toast';
import type { ToastItem } from './toast-list';

// radix Toast (and i18next) load with the first toast, or with sign-in: the login page carries neither
const ToastList = lazy(() => Promise.all([import('./toast-list'), loadLibrary()]).then(([module]) => module));

/** Toasts for server messages (radix Toast: announced to screen readers, swipe to dismiss). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const signedIn = useSession() !== null;
  const show = useCallback((message: string, kind: ToastKind = 'info') => {
    setItems((list) => [...list.slice(-3), { id: Date.now() + Math.random(), message, kind }]);
  }, []);
  const close = useCallback((id: number) => setItems((list) => list.filter((i) => i.id !== id)), []);
  const value = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {(signedIn || items.length > 0) && (
        <Suspense fallback={null}>
          <ToastList items={items} onClose={close} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}
