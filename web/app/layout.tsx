import { Dialog } from 'radix-ui';
import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { menuFor } from '../../worker/lib/permissions';
import { Spinner } from '../components/ui/spinner';
import { api } from '../lib/api-client';
import { useGet } from '../lib/use-api';
import { setSession, useSession } from '../lib/session';
import { useSubscription } from '../lib/subscription';
import { SubscriptionBanner } from './banner';

export const LOGOUT_PATH = '/logout';
const QUEUE_PATH = '/companyFilters/queue';

/** The verification queue's count in the menu (a manager's; one indexed count, refreshed every minute and on focus). */
function QueueBadge() {
  const { data } = useGet(api.broker.queue.count, undefined, { refreshInterval: 60_000 });
  if (!data?.count) return null;
  return (
    <span className="menu-badge" data-testid="queue-badge" title={`${data.count} waiting`}>
      {data.count}
    </span>
  );
}

/** /logout: ends the session on the server and here; the login page follows. */
export function Logout() {
  useEffect(() => {
    let done = false;
    void api.auth.logout
      .$post()
      .catch(() => undefined)
      .finally(() => {
        if (!done) setSession(null);
      });
    return () => {
      done = true;
    };
  }, []);
  return <Spinner />;
}

/**
 * Header with the user's e-mail, the menu by role and subscription, the banner, the screen.
 * Below 768 px the menu folds into a Menu button that opens it as a sheet (radix Dialog).
 */
export function Layout() {
  const session = useSession();
  const { isActive } = useSubscription();
  const [sheetOpen, setSheetOpen] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // a menu item picked in the sheet closes it
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation
  useEffect(() => setSheetOpen(false), [pathname]);
  if (!session) return null;
  const items = menuFor(session.userType, isActive);
  const links = (
    <>
      {items.map((item) => (
        <NavLink key={item.label} to={item.path} className={({ isActive: a }) => `menu-item${a ? ' active' : ''}`}>
          {item.label}
          {item.path === QUEUE_PATH && <QueueBadge />}
        </NavLink>
      ))}
      <button type="button" className="menu-item menu-logout" onClick={() => navigate(LOGOUT_PATH)}>
        Logout
      </button>
    </>
  );
  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">FreightDesk</div>
        <nav className="menu menu-wide" aria-label="Main">
          {links}
        </nav>
        <Dialog.Root open={sheetOpen} onOpenChange={setSheetOpen}>
          <Dialog.Trigger className="btn btn-secondary menu-button" aria-label="Menu">
            ☰ Menu
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content className="menu-sheet" aria-describedby={undefined}>
              <Dialog.Title className="menu-sheet-title">{session.userEmail}</Dialog.Title>
              <nav className="menu-sheet-items" aria-label="Main">
                {links}
              </nav>
              <Dialog.Close className="dialog-x" aria-label="Close menu">
                ×
              </Dialog.Close>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <div className="user-email" data-testid="user-email" title={session.userEmail}>
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
