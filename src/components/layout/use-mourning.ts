import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MourningState } from '@/domain/shell/mourning';

export const MOURNING_QUERY_KEY = ['shell', 'mourning'] as const;

/**
 * Mourning mode (docs/product-rules.md#mourning-mode): while the public read says today is a mourning day, the whole
 * page renders grey (CSS `filter: grayscale(1)` on the root element, which, unlike any other element's filter, keeps
 * fixed dialogs and menus placed as usual). Used by the console's shell and the login screen.
 */
export function useMourning(): boolean {
  const { data } = useQuery({
    queryKey: MOURNING_QUERY_KEY,
    queryFn: async () => {
      const { get } = await import('@/lib/api-client');
      return get<MourningState>('/api/oper/web/cs/mourning');
    },
    staleTime: 5 * 60_000,
    // Optional decoration: a failed read leaves the colours, without a warning.
    meta: { silent: true },
    retry: false,
  });
  const active = data?.active === true;
  useEffect(() => {
    const root = document.documentElement;
    if (!active) return;
    root.dataset.mourning = 'true';
    root.style.filter = 'grayscale(1)';
    return () => {
      delete root.dataset.mourning;
      root.style.removeProperty('filter');
    };
  }, [active]);
  return active;
}
