import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

/**
 * A failed call shows its Retry (web/components/ui/request-state.tsx), never retried behind the
 * person's back. Not in the entry, so the login page loads no SWR (docs/decisions/0024-login-bundle.md).
 */
export function AppSwr({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ shouldRetryOnError: false }}>{children}</SWRConfig>;
}
