import { useEffect } from 'react';
import { useAtomValue } from 'jotai';
import { saveUInfo } from '@/lib/store';
import { useUInfoQuery } from '@/lib/uinfo';
import { hasTokenAtom } from '../atoms';

/** Refreshes the stored user info from the server once per visit, so menus and permissions follow changes. */
export function useSessionSync(): void {
  const hasToken = useAtomValue(hasTokenAtom);
  const { data } = useUInfoQuery(hasToken);
  useEffect(() => {
    if (data) saveUInfo(data);
  }, [data]);
}
