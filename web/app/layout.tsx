import { Dialog } from 'radix-ui';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { menuFor } from '../../worker/lib/permissions';
import { Spinner } from '../components/ui/spinner';
import { api } from '../lib/api-client';
import { focusMainHeading, installFocusGuard } from '../lib/focus';
import { setSession, useSession } from '../lib/session';
import { useSubscription } from '../lib/subscription';
import { useGet } from '../lib/use-api';
import { useLiveSignals } from '../lib/use-live';
import { SubscriptionBanner } from './banner';
import { LOGOUT_PATH } from './paths';

const QUEUE_PATH = '/companyFilters/queue';

/** The verification queue's count in the menu (a manager's; one indexed count, refreshed every minute and on focus). */
function QueueBadge() {
  const { t } = useTranslation();
  const { data } = useGet(api.broker.queue.count, undefined, { refreshInterval: 60_000 });
  if (!data?.count) return null;
  return (
    <span className="menu-badge" data-testid="queue-badge" title={t('shell.waiting', { count: data.count })}>
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
 * After an in-app navigation to another screen, the focus goes to the new screen's heading
 * (rule 0155), so a screen reader announces where the person is and Tab starts in the
 * page, not on the menu link. Not on the first load, nor when something inside the page already
 * has the focus (a dialog a deep link opened). The heading may come with the screen's code or
 * data: it is waited for, up to a few seconds.
 */
function useHeadingFocusOnNavigation(pathname: string) {
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation to another screen
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let tries = 0;
    const timer = window.setInterval(() => {
      tries += 1;
      const active = document.activeElement;
      const inPage = active && active !== document.body && document.querySelector('main')?.contains(active);
      const inDialog = active?.closest('[role="dialog"],[role="alertdialog"]');
      if (inPage || (inDialog && !active?.closest('.menu-sheet')) || tries > 50) {
        window.clearInterval(timer);
        return;
      }
      if (document.querySelector('main h1') && focusMainHeading()) window.clearInterval(timer);
    }, 60);
    return () => window.clearInterval(timer);
  }, [pathname]);
}

/**
 * Header with the user's e-mail, the menu by role and subscription, the banner, the screen.
 * Below 768 px the menu folds into a Menu button that opens it as a sheet (radix Dialog).
 */
/** The menu's items by their English label (the permissions table's), in the user's language. */
const MENU_KEYS: Record<string, string> = {
  Profile: 'menu.profile',
  Payment: 'menu.payment',
  'Promo Codes': 'menu.promoCodes',
  'My Team': 'menu.myTeam',
  'All Users': 'menu.allUsers',
  Analytics: 'menu.analytics',
  Payments: 'menu.payments',
  'Failed Mails': 'menu.failedMails',
  'Broker Filtering': 'menu.brokerFiltering',
  'My Filters': 'menu.myFilters',
  'Verification Queue': 'menu.verificationQueue',
  'Contact History': 'menu.contactHistory',
  'Active Loads': 'menu.activeLoads',
  Lines: 'menu.lines',
  Links: 'menu.links',
};

export function Layout() {
  const { t } = useTranslation();
  const session = useSession();
  const { isActive } = useSubscription();
  const [sheetOpen, setSheetOpen] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // the team's filters on screen (the queue's badge, the lists) follow the live signals
  useLiveSignals(!!session && isActive && (session.userType === 'manager' || session.userType === 'agent'));
  const sheetItems = useRef<HTMLElement>(null);
  const pathAtOpen = useRef('');
  // a menu item picked in the sheet closes it
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation
  useEffect(() => setSheetOpen(false), [pathname]);
  useHeadingFocusOnNavigation(pathname);
  useEffect(() => installFocusGuard(), []);
  if (!session) return null;
  const items = menuFor(session.userType, isActive);
  const links = (
    <>
      {items.map((item) => (
        <NavLink
          key={item.label}
          to={item.path}
          className={({ isActive: a }) => `menu-item${a ? ' active' : ''}`}
          // the current screen's item too: picking it closes the sheet
          onClick={() => setSheetOpen(false)}
        >
          {MENU_KEYS[item.label] ? t(MENU_KEYS[item.label]!) : item.label}
          {item.path === QUEUE_PATH && <QueueBadge />}
        </NavLink>
      ))}
      <button type="button" className="menu-item menu-logout" onClick={() => navigate(LOGOUT_PATH)}>
        {t('shell.logout')}
      </button>
    </>
  );
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('shell.skip')}
      </a>
      <header className="topbar">
        <div className="brand">FreightDesk</div>
        <nav className="menu menu-wide" aria-label={t('shell.mainMenu')}>
          {links}
        </nav>
        <Dialog.Root open={sheetOpen} onOpenChange={setSheetOpen}>
          <Dialog.Trigger className="btn btn-secondary menu-button" aria-label={t('shell.menu')}>
            ☰ {t('shell.menu')}
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content
              className="menu-sheet"
              aria-describedby={undefined}
              onCloseAutoFocus={(e) => {
                // a menu item was picked: the new screen's heading gets the focus, not the Menu button
                if (pathAtOpen.current !== window.location.pathname) e.preventDefault();
              }}
              onOpenAutoFocus={(e) => {
                pathAtOpen.current = window.location.pathname;
                // open on the current screen's item, not on the first control (which was Logout's neighbour, and Enter logged out)
                const current =
                  sheetItems.current?.querySelector<HTMLElement>('.menu-item.active') ?? sheetItems.current?.querySelector<HTMLElement>('.menu-item');
                if (current) {
                  e.preventDefault();
                  current.focus();
                }
              }}
            >
              <Dialog.Title className="menu-sheet-title">{session.userEmail}</Dialog.Title>
              <nav className="menu-sheet-items" aria-label={t('shell.mainMenu')} ref={sheetItems}>
                {links}
              </nav>
              <Dialog.Close className="dialog-x" aria-label={t('shell.closeMenu')}>
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
      <main className="page" id="main" tabIndex={-1}>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
