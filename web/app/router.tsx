import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { useSession } from '../lib/session';
import { DefaultRedirect, Guard } from './guard';
import { Layout } from './layout';
import { AREA_ROUTES, PUBLIC_ROUTES } from './paths';

const Landing = lazy(() => import('../features/auth/landing'));
const publicRoutes = PUBLIC_ROUTES.map((r) => ({ ...r, Component: lazy(r.load) }));
const areaRoutes = AREA_ROUTES.map((r) => ({ ...r, Component: lazy(r.load) }));

export function AppRouter() {
  const session = useSession();
  return (
    <BrowserRouter>
      <Suspense fallback={<Spinner />}>
        <Routes>
          {publicRoutes.map(({ path, Component }) => (
            <Route
              key={path}
              path={path}
              element={
                <div className="public-page">
                  <Component />
                </div>
              }
            />
          ))}
          {session ? (
            <Route element={<Layout />}>
              {areaRoutes.map(({ path, area, Component }) => (
                <Route
                  key={path}
                  path={path}
                  element={
                    <Guard area={area}>
                      <Component />
                    </Guard>
                  }
                />
              ))}
              <Route path="*" element={<DefaultRedirect />} />
            </Route>
          ) : (
            <>
              <Route path="/" element={<Landing />} />
              <Route path="*" element={<Navigate to="/" replace />} />
            </>
          )}
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
