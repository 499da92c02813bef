import { useMatches } from 'react-router-dom';
import { familyOfKey, servedBy, type Family, type RoleScreenId, type ServedBy } from '@/domain/menus/access';
import type { RouteHandle } from './catalog-routes';

/**
 * The role family of the catalogue screen being shown: one component serves every family whose catalogue has its
 * screen (k12 outside a catalogue route). Naming the screens narrows the type to the families the catalogue serves
 * them in — `useScreenFamily('org.class')` is `'k12' | 'gx'` — and a route of another family is a programming error.
 */
export function useScreenFamily(): Family;
export function useScreenFamily<const Id extends RoleScreenId>(...screens: Id[]): ServedBy<Id>;
export function useScreenFamily(...screens: RoleScreenId[]): Family {
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const family = (handle && familyOfKey(handle.catalogKey)) ?? 'k12';
  if (screens.length > 0 && !(servedBy(...screens) as Family[]).includes(family)) {
    throw new Error(`The catalogue serves ${screens.join(', ')} in no '${family}' screen`);
  }
  return family;
}
