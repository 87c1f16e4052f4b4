import { Toast } from 'radix-ui';
import type { ToastKind } from '../../lib/toast';

export interface ToastItem {
  id: number;
  message: string;
  kind: ToastKind;
}

/** The toasts and their viewport (the "Notifications" region, F8), loaded lazily by ToastProvider. */
export default function ToastList({ items, onClose }: { items: ToastItem[]; onClose: (id: number) => void }) {
  return (
    <Toast.Provider swipeDirection="right" duration={5000}>
      {items.map((item) => (
        <Toast.Root key={item.id} className={`toast toast-${item.kind}`} data-testid="toast" onOpenChange={(open) => !open && onClose(item.id)}>
          <Toast.Description>{item.message}</Toast.Description>
          <Toast.Close className="toast-close" aria-label="Close">
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" />
    </Toast.Provider>
  );
}
