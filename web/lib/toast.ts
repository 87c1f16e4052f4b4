import { createContext, useContext } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

/** Shows a toast (a server's message); the provider and its look are web/components/ui/toast.tsx. */
export const ToastContext = createContext<{ show: (message: string, kind?: ToastKind) => void }>({ show: () => {} });

export const useToast = () => useContext(ToastContext);
