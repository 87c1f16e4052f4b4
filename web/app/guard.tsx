import type { ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { type Area, canReach, DEFAULT_PATH, roleHasArea } from '../../worker/lib/permissions';
import { safeNextPath } from '../lib/next-path';
import { useSession } from '../lib/session';
import { useSubscription } from '../lib/subscription';

/** A role with the area but no active subscription goes to /payment/; any other role to its default. */
export function Guard({ area, children }: { area: Area; children: ReactNode }) {
  const session = useSession();
  const { isActive } = useSubscription();
  if (!session) return <Navigate to="/" replace />;
  if (canReach(session.userType, area, isActive)) return <>{children}</>;
  return <Navigate to={roleHasArea(session.userType, area) ? '/payment/' : DEFAULT_PATH[session.userType].path} replace />;
}

/** `?next=` (an in-app path only: its own Guard turns away a role that may not see it), else the role's first screen. */
export function DefaultRedirect() {
  const session = useSession();
  const { isActive } = useSubscription();
  const [params] = useSearchParams();
  if (!session) return <Navigate to="/" replace />;
  const next = safeNextPath(params.get('next'));
  if (next && next !== '/' && !next.startsWith('/?')) return <Navigate to={next} replace />;
  const { path, area } = DEFAULT_PATH[session.userType];
  return <Navigate to={canReach(session.userType, area, isActive) ? path : '/payment/'} replace />;
}
