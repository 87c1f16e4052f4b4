import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { menuFor } from '../../worker/lib/permissions';
import { api } from '../lib/api-client';
import { setSession, useSession } from '../lib/session';
import { useSubscription } from '../lib/subscription';
import { Spinner } from '../components/ui/spinner';
import { SubscriptionBanner } from './banner';

/** Header with the user's e-mail, the menu by role and subscription, the banner, the screen. */
export function Layout() {
  const session = useSession();
  const { isActive } = useSubscription();
  if (!session) return null;
  const items = menuFor(session.userType, isActive);
  const logout = async () => {
    await api.auth.logout.$post().catch(() => undefined);
    setSession(null);
  };
  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">FreightDesk</div>
        <nav className="menu" aria-label="Main">
          {items.map((item) => (
            <NavLink key={item.label} to={item.path} className={({ isActive: a }) => `menu-item${a ? ' active' : ''}`}>
              {item.label}
            </NavLink>
          ))}
          <button type="button" className="menu-item menu-logout" onClick={logout}>
            Logout
          </button>
        </nav>
        <div className="user-email" data-testid="user-email">
          {session.userEmail}
        </div>
      </header>
      <SubscriptionBanner />
      <main className="page">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
