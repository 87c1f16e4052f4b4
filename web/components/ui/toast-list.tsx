import { Toast } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-common.json';
import type { ToastKind } from '../../lib/toast';

// the shared components' English: this chunk loads with the first toast, on public pages too
addEnglish(english);

export interface ToastItem {
  id: number;
  message: string;
  kind: ToastKind;
}

/** The toasts and their viewport (the "Notifications" region, F8), loaded lazily by ToastProvider. */
export default function ToastList({ items, onClose }: { items: ToastItem[]; onClose: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <Toast.Provider swipeDirection="right" duration={5000} label={t('common.toast.label')}>
      {items.map((item) => (
        <Toast.Root key={item.id} className={`toast toast-${item.kind}`} data-testid="toast" onOpenChange={(open) => !open && onClose(item.id)}>
          <Toast.Description>{item.message}</Toast.Description>
          <Toast.Close className="toast-close" aria-label={t('common.close')}>
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      {/* radix's label is a template: it puts the hotkey where {hotkey} is */}
      <Toast.Viewport className="toast-viewport" label={t('common.toast.region')} />
    </Toast.Provider>
  );
}
