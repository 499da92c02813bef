import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { DataCenterFamily } from '../family';
import { filtersToParams } from '../filters';

/** Query keys of the data centre: one per view and filter set, so a filter change is one new request per view. */
export const dataCenterKeys = {
  all: (family: DataCenterFamily) => ['dataCenter', family] as const,
  view: (family: DataCenterFamily, view: string, filters: DataCenterFilter, extra?: Record<string, unknown>) =>
    ['dataCenter', family, view, filtersToParams(filters), extra ?? {}] as const,
  screenLinks: (family: DataCenterFamily) => ['dataCenter', family, 'screenLinks'] as const,
};
