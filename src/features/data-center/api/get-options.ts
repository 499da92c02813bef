import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DataCenterOptions } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/filters: school years, plans, grades, classes (and schools, colleges, majors) the filter bar offers. */
export function getOptions(family: Family, orgId?: string): Promise<DataCenterOptions> {
  return get<DataCenterOptions>(`${dataCenterApi(family)}/filters`, { orgId });
}

/** The filter bar's choices: its hook and the dashboards' data preload (screen-data.ts) share the options, so one key. */
export function optionsQuery(family: Family, orgId?: string) {
  return queryOptions({ queryKey: dataCenterKeys.view(family, 'filters', { orgId }), queryFn: () => getOptions(family, orgId), staleTime: 5 * 60_000 });
}

export function useOptionsQuery(family: Family, orgId?: string) {
  return useQuery(optionsQuery(family, orgId));
}
