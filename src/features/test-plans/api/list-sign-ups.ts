import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import type { SignUpRow, SignUpStatus } from '@/domain/test-plans/types';
import { get } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { plansKey } from './plans';

export interface SignUpListQuery {
  current: number;
  size: number;
  classId?: string;
  status?: SignUpStatus;
  keyword?: string;
}

/** GET …/testManage/signUp/:id: students in the plan's scope with their result status. */
export function listSignUps(family: Family, planId: string, query: SignUpListQuery): Promise<Page<SignUpRow>> {
  return get<Page<SignUpRow>>(`${planApi(family)}/signUp/${encodeURIComponent(planId)}`, { ...query });
}

export function useSignUpsQuery(family: Family, planId: string, query: SignUpListQuery) {
  return useQuery({
    queryKey: [...plansKey(family), 'signUp', planId, query],
    queryFn: () => listSignUps(family, planId, query),
    placeholderData: keepPreviousData,
  });
}
