import { Toast } from 'radix-ui';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { ToastContext, type ToastKind } from '../../lib/toast';

interface Item {
  id: number;
  message: string;
  kind: ToastKind;
}

/** Toasts for server messages (radix Toast: announced to screen readers, swipe to dismiss). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Item[]>([]);
  const show = useCallback((message: string, kind: ToastKind = 'info') => {
    setItems((list) => [...list.slice(-3), { id: Date.now() + Math.random(), message, kind }]);
  }, []);
  const value = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={value}>
      <Toast.Provider swipeDirection="right" duration={5000}>
        {children}
        {items.map((item) => (
          <Toast.Root
            key={item.id}
            className={`toast toast-${item.kind}`}
            data-testid="toast"
            onOpenChange={(open) => !open && setItems((list) => list.filter((i) => i.id !== item.id))}
          >
            <Toast.Description>{item.message}</Toast.Description>
            <Toast.Close className="toast-close" aria-label="Close">
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}
