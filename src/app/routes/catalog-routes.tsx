import type { RouteObject } from 'react-router-dom';
import { routeEntries, screenIdOf, type CatalogEntry, type CatalogFamily, type ScreenId } from '@/domain/menus/catalog';
import { lazyScreen } from './lazy-screen';
import { NotAvailable } from './not-available';
import { SCREENS } from './screens';

export interface RouteHandle {
  /** Catalogue key of the screen (breadcrumbs, page title). */
  catalogKey: string;
}

function screenRoute(entry: CatalogEntry): RouteObject {
  const load = SCREENS[screenIdOf(entry.key) as ScreenId];
  const Screen = load ? lazyScreen(load) : null;
  return {
    path: entry.path,
    element: Screen ? <Screen /> : <NotAvailable entry={entry} />,
    handle: { catalogKey: entry.key } satisfies RouteHandle,
  };
}

/** Routes of every page and hidden route of a catalogue family (docs/product-rules.md#families). */
export function catalogRoutes(family: CatalogFamily): RouteObject[] {
  return routeEntries(family).map(screenRoute);
}
