import { useAtomValue } from 'jotai';
import { familyOfTypePath, type SchoolFamily } from '@/domain/menus/access';
import { meetFamily } from '@/features/meets/api';
import { uinfoAtom } from '@/lib/store';
import { useScreenFamily } from '../screen-family';

/** The family of a meet screen: its own for k12/gx pages, the signed-in organisation's for the shared /single pages. */
export function useMeetFamily(): SchoolFamily {
  const screen = useScreenFamily();
  const uinfo = useAtomValue(uinfoAtom);
  return meetFamily(screen === 'k12' ? familyOfTypePath(uinfo?.currentTypePath) : screen);
}
