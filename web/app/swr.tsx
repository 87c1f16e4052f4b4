import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

/**
 * The app's SWR options: a failed call is shown with its Retry (web/components/ui/request-state.tsx),
 * not retried behind the person's back. Mounted by the signed-in layout and by public pages,
 * not by the entry, so the login page does not load SWR (docs/decisions/0024-login-bundle.md).
 */
export function AppSwr({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ shouldRetryOnError: false }}>{children}</SWRConfig>;
}
