import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { BASE_PATH } from '@/domain/constants';
import { FAMILY_PREFIX } from '@/domain/menus/catalog';
import { setApiNavigator } from '@/lib/api-client';
import { LoginScreen } from '@/features/auth/components/login-screen';
import { catalogRoutes } from './routes/catalog-routes';
import { FamilyIndex } from './routes/family-index';
import { lazyScreen } from './routes/lazy-screen';
import { RouteGuard } from './routes/guard';
import { NotFound } from './routes/not-found';
import { RouteError } from './routes/route-error';
import { ShellRoute } from './routes/shell';

const FAMILIES = ['admin', 'k12', 'gx', 'single'] as const;

// The wall display (issue 4 §2): public by its token, so outside the guard and the shell; a lazy chunk (charts).
const WallRoute = lazyScreen(() => import('./routes/wall/wall-page').then((m) => ({ default: m.WallPage })));

/**
 * Every route of the app under /busi (spec §2). All families are registered; the guard answers
 * 404 for a family other than the session's current type path, and asks for login elsewhere.
 */
export const appRoutes: RouteObject[] = [
  { path: '/', element: <LoginScreen />, errorElement: <RouteError /> },
  { path: '/wall/:token', element: <WallRoute />, errorElement: <RouteError /> },
  {
    element: <RouteGuard />,
    errorElement: <RouteError />,
    children: [
      {
        element: <ShellRoute />,
        children: [
          {
            errorElement: <RouteError />,
            children: [
              { path: '/myInfo', element: <Navigate to="/myInfo/base" replace /> },
              ...catalogRoutes('personal'),
              ...FAMILIES.flatMap((family) => [{ path: FAMILY_PREFIX[family], element: <FamilyIndex /> }, ...catalogRoutes(family)]),
              { path: '*', element: <NotFound /> },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(appRoutes, { basename: BASE_PATH });
  // A 401 anywhere goes back to the login screen inside the SPA (spec §8).
  setApiNavigator((to) => void router.navigate(to, { replace: true }));
  return router;
}
