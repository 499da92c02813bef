import { useMatches } from 'react-router-dom';
import { familyOfKey, type Family } from '@/domain/menus/access';
import type { RouteHandle } from '../catalog-routes';

/** The family (admin, k12, gx) of the catalogue screen being shown: one component serves every family; k12 by default. */
export function useScreenFamily(): Family {
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  return (handle && familyOfKey(handle.catalogKey)) ?? 'k12';
}
