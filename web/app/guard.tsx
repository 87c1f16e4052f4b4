import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { AREAS, type Area, canReach, DEFAULT_PATH } from '../../worker/lib/permissions';
import { useSession } from '../lib/session';
import { useSubscription } from '../lib/subscription';

/**
 * Lets the screen render only if the permissions table gives the role the area. A role that
 * has the area but no active subscription goes to /payment/; any other role to its default.
 */
export function Guard({ area, children }: { area: Area; children: ReactNode }) {
  const session = useSession();
  const { isActive } = useSubscription();
  if (!session) return <Navigate to="/" replace />;
  if (canReach(session.userType, area, isActive)) return <>{children}</>;
  const roleHasArea = (AREAS[area].roles as readonly string[]).includes(session.userType);
  return <Navigate to={roleHasArea ? '/payment/' : DEFAULT_PATH[session.userType]} replace />;
}

/** Where "/" and unknown paths lead a logged-in user. */
export function DefaultRedirect() {
  const session = useSession();
  const { isActive } = useSubscription();
  if (!session) return <Navigate to="/" replace />;
  const target = DEFAULT_PATH[session.userType];
  const area = target.startsWith('/users')
    ? 'users'
    : target.startsWith('/companyFilters')
      ? 'filters'
      : target.startsWith('/callHistory')
        ? 'history'
        : 'promo';
  return <Navigate to={canReach(session.userType, area, isActive) ? target : '/payment/'} replace />;
}
