import { useEffect } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { ERR } from '@/domain/errors';
import { toast } from '@/lib/toast';
import { recentlyUnauthorized } from '@/lib/api-client';
import { lastPathAtom, uinfoAtom } from '@/lib/store';
import { hasTokenAtom } from '@/features/auth/atoms';
import { recentlySignedOut } from '@/features/auth/session';
import { decideAccess } from './access';
import { NotFound } from './not-found';
import { ShellRoute } from './shell';

/** Applies the route guard to every route below it and remembers the last visited path. */
export function RouteGuard() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const uinfo = useAtomValue(uinfoAtom);
  const hasToken = useAtomValue(hasTokenAtom);
  const setLastPath = useSetAtom(lastPathAtom);
  const access = decideAccess(pathname, uinfo, hasToken);
  const here = pathname + search;

  useEffect(() => {
    // After a 401 the client has already said the session expired.
    if (access === 'login' && !recentlyUnauthorized() && !recentlySignedOut()) toast.warning(t(ERR.notLoggedIn), { id: 'not-logged-in' });
    if (access === 'allow') setLastPath(here);
  }, [access, here, setLastPath, t]);

  if (access === 'login') {
    // After a logout the login screen opens plainly: no return target.
    return <Navigate to={recentlySignedOut() ? '/' : `/?rt=${encodeURIComponent(here)}`} replace />;
  }
  if (access === 'notFound') {
    return (
      <ShellRoute noCrumbs>
        <NotFound />
      </ShellRoute>
    );
  }
  return <Outlet />;
}
