import type { UInfo } from '@/domain/auth/types';
import { isForeignFamily } from '@/features/auth/redirect';

export type Access = 'allow' | 'login' | 'notFound';

/** Personal-centre paths: always allowed (spec §2 route guard). */
export function isPersonalPath(pathname: string): boolean {
  return pathname === '/myInfo' || pathname.startsWith('/myInfo/');
}

/**
 * The route guard of spec §2: the login screen and the personal centre are always allowed; any
 * other path needs a stored account with a current type path; a path of another role family is
 * not found.
 */
export function decideAccess(pathname: string, uinfo: UInfo | null, hasToken: boolean): Access {
  if (pathname === '/' || isPersonalPath(pathname)) return 'allow';
  const signedIn = hasToken && Boolean(uinfo?.currentTypePath) && Boolean(uinfo?.accounts.some((a) => a.presentFlag));
  if (!signedIn || !uinfo) return 'login';
  return isForeignFamily(pathname, uinfo.currentTypePath) ? 'notFound' : 'allow';
}
