import { useMatches } from 'react-router-dom';
import { getCatalogEntry } from '@/domain/menus/catalog';
import type { RouteHandle } from '../catalog-routes';

/** The route family (admin, k12, gx) of the catalogue screen being shown: one component serves every family. */
export function useScreenFamily(): 'admin' | 'k12' | 'gx' {
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  const family = handle ? getCatalogEntry(handle.catalogKey)?.family : undefined;
  return family === 'admin' || family === 'gx' ? family : 'k12';
}
