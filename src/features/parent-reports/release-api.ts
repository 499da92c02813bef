import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi, type Family } from '@/domain/menus/access';
import type { ReportRelease } from '@/domain/parent-reports/parent-reports';
import { get, post } from '@/lib/api-client';

const base = (family: Family) => pageApi(`${family}.test.testManage`);
export const releasesKey = (family: Family) => ['parentReports', 'releases', family] as const;

/** GET …/testManage/releases: the plans whose reports are released (docs/product-rules.md#physique-year, "Reports parents read"). */
export function useReleasesQuery(family: Family) {
  return useQuery({ queryKey: releasesKey(family), queryFn: () => get<ReportRelease[]>(`${base(family)}/releases`) });
}

/** POST …/release/:id and …/withdraw/:id. */
export function useReleaseMutations(family: Family) {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: releasesKey(family) });
  return {
    release: useMutation({ mutationFn: (id: string) => post<ReportRelease>(`${base(family)}/release/${encodeURIComponent(id)}`), onSuccess }),
    withdraw: useMutation({ mutationFn: (id: string) => post<null>(`${base(family)}/withdraw/${encodeURIComponent(id)}`), onSuccess }),
  };
}
