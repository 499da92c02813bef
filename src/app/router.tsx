import { lazy, Suspense } from 'react';
import { createBrowserRouter, type DOMRouterOpts, type RouteObject } from 'react-router-dom';
import { BASE_PATH } from '@/domain/constants';
import { setApiNavigator } from '@/lib/api-navigator';
import { loadAllNamespaces } from '@/lib/i18n';
import { LoginScreen } from '@/features/auth/components/login-screen';
import { lazyScreen } from './routes/lazy-screen';

// The wall display (docs/product-rules.md#wall-display): public by its token, so outside the guard and the shell; a lazy chunk (charts).
const WallRoute = lazyScreen(() =>
  Promise.all([import('./routes/wall/wall-page'), loadAllNamespaces()]).then(([m]) => ({ default: m.WallPage })),
);

// Reports parents read (docs/product-rules.md#physique-year): signed in with an app account, not the console's, so
// outside the guard and the shell too.
const ParentReportRoute = lazyScreen(() =>
  Promise.all([import('./routes/parent-reports/parent-report-page'), loadAllNamespaces()]).then(([m]) => ({ default: m.ParentReportPage })),
);

// The error page (and its 404 with the menu catalogue) is not needed to show the login screen.
const LazyRouteError = lazy(() => import('./routes/route-error').then((m) => ({ default: m.RouteError })));
const routeError = (
  <Suspense>
    <LazyRouteError />
  </Suspense>
);

/**
 * Starts loading the signed-in routes, every namespace and, when the login page was opened for one (rt), the
 * destination screen as a sign-in starts: they load beside the sign-in and account calls instead of after them
 * (docs/decisions/012-lean-first-screen.md). The navigation that follows finds them loaded or on their way.
 */
export function preloadSignedIn(redirectTo: string | null): void {
  void import('./routes/signed-in').then((m) => redirectTo && m.preloadScreen(BASE_PATH + redirectTo)).catch(() => undefined);
  void loadAllNamespaces().catch(() => undefined);
}

/** The routes known at start: the login screen and the wall. The signed-in ones join on the first visit. */
export const appRoutes: RouteObject[] = [
  { path: '/', element: <LoginScreen onSigningIn={preloadSignedIn} />, errorElement: routeError },
  { path: '/wall/:token', element: <WallRoute />, errorElement: routeError },
  { path: '/m/report', element: <ParentReportRoute />, errorElement: routeError },
];

/**
 * Adds the signed-in routes (guard, shell, catalogue, screen registry: one lazy chunk) the first time a path outside
 * the login screen and the wall is opened, with every namespace of the current language, so the shell's first paint
 * is translated.
 */
export const patchRoutesOnNavigation: NonNullable<DOMRouterOpts['patchRoutesOnNavigation']> = async ({ path, matches, patch }) => {
  if (path.startsWith('/wall/') || path.startsWith('/m/')) return;
  const [{ signedInRoutes, SIGNED_IN_ROUTE_ID }] = await Promise.all([
    import('./routes/signed-in').then((m) => {
      m.preloadScreen(path);
      return m;
    }),
    loadAllNamespaces(),
  ]);
  if (matches.some((m) => m.route.id === SIGNED_IN_ROUTE_ID)) return;
  patch(null, signedInRoutes);
};

export function createAppRouter() {
  const router = createBrowserRouter(appRoutes, { basename: BASE_PATH, patchRoutesOnNavigation });
  // A 401 anywhere goes back to the login screen inside the SPA (docs/product-rules.md#error-messages).
  setApiNavigator((to) => void router.navigate(to, { replace: true }));
  return router;
}
