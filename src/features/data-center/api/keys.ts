import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { Family } from '@/domain/menus/access';
import { filtersToParams } from '../filters';

/** Query keys of the data centre: one per view and filter set, so a filter change is one new request per view. */
export const dataCenterKeys = {
  all: (family: Family) => ['dataCenter', family] as const,
  view: (family: Family, view: string, filters: DataCenterFilter, extra?: Record<string, unknown>) =>
    ['dataCenter', family, view, filtersToParams(filters), extra ?? {}] as const,
  screenLinks: (family: Family) => ['dataCenter', family, 'screenLinks'] as const,
};
