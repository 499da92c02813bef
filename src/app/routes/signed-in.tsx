import { matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
import { BASE_PATH } from '@/domain/constants';
import { ROUTE_FAMILIES } from '@/domain/menus/access';
import { FAMILY_PREFIX } from '@/domain/menus/catalog';
import { catalogRoutes, type RouteHandle } from './catalog-routes';
import { ChangePasswordPage } from './change-password';
import { EnrolTwoFactorPage } from './enrol-two-factor';
import { FamilyIndex } from './family-index';
import { RouteGuard } from './guard';
import { NotFound } from './not-found';
import { RouteError } from './route-error';
import { ShellRoute } from './shell';

/** Id of the route below which every signed-in route lives (the router adds this tree on the first visit). */
export const SIGNED_IN_ROUTE_ID = 'signed-in';

/**
 * Every signed-in route of the app under /busi (docs/product-rules.md#screens-and-routes): the guard, the shell and the catalogue. A lazy chunk,
 * so the login screen does not load the catalogue, the screen registry or the shell. All families are registered;
 * the guard answers 404 for a family other than the session's current type path, and asks for login elsewhere.
 */
export const signedInRoutes: RouteObject[] = [
  // Before the guard: the session has no account info until the password is changed.
  { path: '/changePassword', element: <ChangePasswordPage />, errorElement: <RouteError /> },
  { path: '/enrolTwoFactor', element: <EnrolTwoFactorPage />, errorElement: <RouteError /> },
  {
    id: SIGNED_IN_ROUTE_ID,
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
              ...ROUTE_FAMILIES.flatMap((family) => [{ path: FAMILY_PREFIX[family], element: <FamilyIndex /> }, ...catalogRoutes(family)]),
              { path: '*', element: <NotFound /> },
            ],
          },
        ],
      },
    ],
  },
];

/**
 * Starts fetching the chunk of the screen at `path` (as the router hands it to patchRoutesOnNavigation: with the base path), so it loads beside the namespaces and the
 * guard's account call instead of after them: on a first visit they were three waits in a row (docs/performance.md,
 * first load).
 */
export function preloadScreen(path: string): void {
  (matchRoutes(signedInRoutes, path, BASE_PATH)?.at(-1)?.route.handle as RouteHandle | undefined)?.preload?.();
}
