import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import type { PlanStatus } from '@/domain/test-plans/status';
import type { PlanRow } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';

export interface PlanListQuery {
  current: number;
  size: number;
  name?: string;
  academicYear?: string;
  semesterCode?: number;
  status?: PlanStatus;
  schoolOrgId?: string;
  /** 1 = the recycle bin instead of the live plans. */
  bin?: 1;
}

export const plansKey = (family: Family) => ['testPlans', family] as const;

/** GET …/organizeTest/testManage/page: plans of the organisation (or its schools), filtered and paged. */
export function listPlans(family: Family, query: PlanListQuery): Promise<Page<PlanRow>> {
  return get<Page<PlanRow>>(`${planApi(family)}/page`, { ...query });
}

export function usePlansQuery(family: Family, query: PlanListQuery) {
  return useQuery({
    queryKey: [...plansKey(family), 'page', query],
    queryFn: () => listPlans(family, query),
    placeholderData: keepPreviousData,
  });
}
