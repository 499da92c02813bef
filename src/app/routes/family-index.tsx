import { useAtomValue } from 'jotai';
import { Navigate } from 'react-router-dom';
import { landingPath } from '@/domain/menus/tree';
import { uinfoAtom } from '@/lib/store';

/** '/k12', '/gx' … alone: the first menu's default path (docs/product-rules.md#screens-and-routes), else the personal centre. */
export function FamilyIndex() {
  const uinfo = useAtomValue(uinfoAtom);
  return <Navigate to={landingPath(uinfo?.menuTree ?? []) ?? '/myInfo/base'} replace />;
}
