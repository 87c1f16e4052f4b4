import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import type { Role } from '../../worker/lib/permissions';
import { Spinner } from '../components/ui/spinner';
// the login screen is in the entry: a logged-out visitor sees it without waiting for a second chunk
import Landing from '../features/auth/landing';
import { loadLibrary, useText } from '../i18n/startup';
import { nextParam } from '../lib/next-path';
import { useSession } from '../lib/session';
import { useDocumentTitle } from '../lib/use-document-title';
import { AREA_ROUTES, LOGOUT_PATH, PUBLIC_ROUTES } from './paths';
import { RouteError } from './route-error';

// the signed-in part loads after sign-in, with i18next: the login page carries neither
const signedIn = () => Promise.all([import('./signed-in'), loadLibrary()]).then(([module]) => module);
const SignedInLayout = lazy(() => signedIn().then((m) => ({ default: m.SignedInLayout })));
const Guard = lazy(() => signedIn().then((m) => ({ default: m.Guard })));
const DefaultRedirect = lazy(() => signedIn().then((m) => ({ default: m.DefaultRedirect })));
const Logout = lazy(() => signedIn().then((m) => ({ default: m.Logout })));

/**
 * A data router (createBrowserRouter), so screens can block leaving with unsaved edits
 * (`useBlocker`, web/components/unsaved-changes.tsx). Screens stay lazily loaded (React.lazy).
 * Logged-in areas sit under one route that shows the login page when nobody is logged in.
 */
const router = createBrowserRouter([
  ...PUBLIC_ROUTES.map(({ path, title, load }) => {
    // public pages get the app's SWR options and i18next with their own code, not in the entry
    const Component = lazy(() =>
      Promise.all([load(), import('./swr'), loadLibrary()]).then(([page, { AppSwr }]) => ({
        default: () => (
          <AppSwr>
            <page.default />
          </AppSwr>
        ),
      })),
    );
    return {
      path,
      errorElement: (
        <div className="public-page">
          <RouteError />
        </div>
      ),
      element: (
        <div className="public-page">
          <ScreenTitle titleKey={title} />
          <Suspense fallback={<Spinner />}>
            <Component />
          </Suspense>
        </div>
      ),
    };
  }),
  {
    element: <SessionGate />,
    // the login page's own code failing, or the layout itself
    errorElement: <RouteError />,
    children: [
      { index: true, element: <DefaultRedirect /> },
      // a route, so leaving a screen with unsaved edits by Logout asks first like any other link
      { path: LOGOUT_PATH, element: <Logout /> },
      ...AREA_ROUTES.map(({ path, area, title }) => {
        // the screen's code is named by the signed-in part (web/app/screens.ts), loaded by now
        const Component = lazy(() => signedIn().then((m) => m.AREA_SCREENS[path]()));
        return {
          path,
          // inside the layout: the menu stays, so the person can go elsewhere
          errorElement: <RouteError />,
          element: (
            <Guard area={area}>
              <ScreenTitle titleKey={title} />
              <Component />
            </Guard>
          ),
        };
      }),
      { path: '*', element: <DefaultRedirect /> },
    ],
  },
]);

/** Sets the tab's title from the route's catalogue key (a role may name its screen differently). */
function ScreenTitle({ titleKey }: { titleKey: string | ((role: Role) => string) }) {
  const session = useSession();
  const { t } = useText();
  const key = typeof titleKey === 'function' ? (session ? titleKey(session.userType) : null) : titleKey;
  useDocumentTitle(key ? t(key) : null);
  return null;
}

export function AppRouter() {
  return <RouterProvider router={router} />;
}

/**
 * Logged in: the layout and the screen. Logged out: the login page at "/", and any other in-app
 * link goes to "/?next=<link>", which the app opens after login (DefaultRedirect).
 */
function SessionGate() {
  const session = useSession();
  const location = useLocation();
  if (session)
    return (
      <Suspense fallback={<Spinner />}>
        <SignedInLayout />
      </Suspense>
    );
  const next = nextParam(location);
  if (location.pathname === LOGOUT_PATH) return <Navigate to="/" replace />;
  if (location.pathname !== '/') return <Navigate to={`/?next=${encodeURIComponent(next ?? '/')}`} replace />;
  return (
    <>
      <ScreenTitle titleKey="titles.login" />
      <Landing />
    </>
  );
}
