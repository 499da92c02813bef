import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import type { Params } from 'react-router-dom';
import type { ChartPart } from './chart-parts';

/** What a screen's data preload gets (src/app/routes/catalog-routes.tsx runs it as the navigation to the screen starts). */
export interface ScreenDataContext {
  /**
   * Starts a query the screen will make, with the options its hook uses (the same key, so the screen's query takes the
   * answer or the call in flight instead of sending its own). A failure before the screen watches the query stays
   * quiet: the screen's query tries again as it mounts and shows it.
   */
  prefetch<TData, TKey extends QueryKey>(options: FetchQueryOptions<TData, Error, TData, TKey>): void;
  /**
   * Starts loading the ECharts parts the screen's charts draw (`ChartPart`s, as `chartParts` reads them off an option),
   * beside its calls: a chart loads its parts only once its option exists, that is after the data (one more round).
   * A failure stays quiet: the chart loads the parts again as it draws.
   */
  charts(parts: readonly ChartPart[]): void;
  /** The route's parameters (`:id` …). */
  params: Readonly<Params>;
  /** The URL's query string (a dashboard's filters). */
  search: URLSearchParams;
}

/**
 * A screen's data preload (docs/decisions/012-lean-first-screen.md): starts the screen's queries with the navigation,
 * beside the loading of its chunk and the shell's first render, instead of when the screen renders. Declared per screen
 * in `SCREEN_DATA` (src/app/routes/screens.ts); run only for a signed-in session the route guard lets in.
 */
export type ScreenData = (context: ScreenDataContext) => void;
