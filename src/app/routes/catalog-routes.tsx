import type { LoaderFunction, RouteObject } from 'react-router-dom';
import { BASE_PATH } from '@/domain/constants';
import { routeEntries, screenIdOf, type CatalogEntry, type CatalogFamily, type ScreenId } from '@/domain/menus/catalog';
import { loadParts } from '@/lib/chart-parts';
import { queryClient, showFailure } from '@/lib/query-client';
import type { ScreenData } from '@/lib/screen-data';
import { store, uinfoAtom } from '@/lib/store';
import { hasTokenAtom } from '@/features/auth/atoms';
import { decideAccess } from './access';
import { lazyScreen } from './lazy-screen';
import { NotAvailable } from './not-available';
import { PERSONAL_DATA_SCREENS, SCREEN_DATA, SCREENS } from './screens';

export interface RouteHandle {
  /** Catalogue key of the screen (breadcrumbs, page title). */
  catalogKey: string;
  /** The screen shows personal data: the shell draws the viewer's watermark over it (PERSONAL_DATA_SCREENS). */
  personalData: boolean;
  /** Starts fetching the screen's chunk (router.tsx: beside the guard's account call on the first signed-in visit). */
  preload?: () => void;
}

/**
 * A screen's data preload as a route loader: the router runs it as the navigation starts (on the first visit, as the
 * account call returns), before the guard, the shell and the screen render, so it checks what the guard checks: a
 * signed-in session that may open the path (the account and its tenant are known, the calls carry them). It answers at
 * once; the calls go on beside the render, and the screen's queries take them (docs/decisions/012-lean-first-screen.md).
 */
function screenDataLoader(data: ScreenData): LoaderFunction {
  return ({ request, params }) => {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(BASE_PATH) ? url.pathname.slice(BASE_PATH.length) || '/' : url.pathname;
    if (decideAccess(path, store.get(uinfoAtom), store.get(hasTokenAtom)) !== 'allow') return null;
    try {
      data({
        // Quiet while no screen watches the query: the screen's own query asks again as it mounts and shows its
        // failure. A screen that mounted meanwhile waited on this call, so its failure is shown as the screen's.
        prefetch: (options) =>
          void queryClient.fetchQuery({ ...options, meta: { ...options.meta, silent: true } }).catch((error: unknown) => {
            if (queryClient.getQueryCache().find({ queryKey: options.queryKey, exact: true })?.getObserversCount()) showFailure(error);
          }),
        charts: (parts) => void loadParts(parts)?.catch(() => undefined),
        params,
        search: url.searchParams,
      });
    } catch {
      // A preload that cannot start leaves the calls to the screen.
    }
    return null;
  };
}

function NoFallback() {
  return null;
}

function screenRoute(entry: CatalogEntry): RouteObject {
  const id = screenIdOf(entry.key) as ScreenId;
  const load = SCREENS[id];
  const Screen = load ? lazyScreen(load) : null;
  const data = Screen ? SCREEN_DATA[id] : undefined;
  return {
    path: entry.path,
    element: Screen ? <Screen /> : <NotAvailable entry={entry} />,
    // Until the router's first navigation (a reload on the screen) is done, a route with a loader shows its fallback:
    // nothing, for the moment the loader takes (it answers at once), then the screen's own loading view.
    ...(data ? { loader: screenDataLoader(data), HydrateFallback: NoFallback } : {}),
    handle: { catalogKey: entry.key, personalData: PERSONAL_DATA_SCREENS.has(id), preload: Screen?.preload } satisfies RouteHandle,
  };
}

/** Routes of every page and hidden route of a catalogue family (docs/product-rules.md#families). */
export function catalogRoutes(family: CatalogFamily): RouteObject[] {
  return routeEntries(family).map(screenRoute);
}
