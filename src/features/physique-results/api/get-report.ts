import { useQuery } from '@tanstack/react-query';
import type { TypePath } from '@/domain/constants';
import type { StudentReport } from '@/domain/physique-results/types';
import { get } from '@/lib/api-client';
import type { Family } from '@/domain/menus/access';

/** The API family of the signed-in account: the report screens sit outside the families, so the session decides. */
export function reportApiFamily(typePath: TypePath | null | undefined): Family | null {
  if (typePath === '/admin') return 'admin';
  if (typePath === '/k12') return 'k12';
  if (typePath === '/gx') return 'gx';
  return null;
}

/** Which result a report shows: a plan's, else a school year's (its latest), else the latest year's. */
export interface ReportPick {
  planId?: string;
  schoolYearId?: string;
}

/** GET /api/busi/web/{family}/physique/report/:studentId?planId=&schoolYearId=: the student physique report of one plan or year. */
export function getReport(family: Family, studentId: string, pick: ReportPick = {}): Promise<StudentReport> {
  return get<StudentReport>(`/api/busi/web/${family}/physique/report/${encodeURIComponent(studentId)}`, { planId: pick.planId, schoolYearId: pick.schoolYearId });
}

export function useReportQuery(family: Family | null, studentId: string | null, pick: ReportPick = {}) {
  return useQuery({
    queryKey: ['physiqueReport', family, studentId, pick.planId ?? '', pick.schoolYearId ?? ''],
    queryFn: () => getReport(family!, studentId!, pick),
    enabled: Boolean(family && studentId),
  });
}
