import type { RouteObject } from 'react-router-dom';
import { routeEntries, screenIdOf, type CatalogEntry, type CatalogFamily, type ScreenId } from '@/domain/menus/catalog';
import { lazyScreen } from './lazy-screen';
import { NotAvailable } from './not-available';
import { PERSONAL_DATA_SCREENS, SCREENS } from './screens';

export interface RouteHandle {
  /** Catalogue key of the screen (breadcrumbs, page title). */
  catalogKey: string;
  /** The screen shows personal data: the shell draws the viewer's watermark over it (PERSONAL_DATA_SCREENS). */
  personalData: boolean;
  /** Starts fetching the screen's chunk (router.tsx: beside the guard's account call on the first signed-in visit). */
  preload?: () => void;
}

function screenRoute(entry: CatalogEntry): RouteObject {
  const id = screenIdOf(entry.key) as ScreenId;
  const load = SCREENS[id];
  const Screen = load ? lazyScreen(load) : null;
  return {
    path: entry.path,
    element: Screen ? <Screen /> : <NotAvailable entry={entry} />,
    handle: { catalogKey: entry.key, personalData: PERSONAL_DATA_SCREENS.has(id), preload: Screen?.preload } satisfies RouteHandle,
  };
}

/** Routes of every page and hidden route of a catalogue family (docs/product-rules.md#families). */
export function catalogRoutes(family: CatalogFamily): RouteObject[] {
  return routeEntries(family).map(screenRoute);
}
