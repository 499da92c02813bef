import { useQuery } from '@tanstack/react-query';
import type { TypePath } from '@/domain/constants';
import type { StudentReport } from '@/domain/physique-results/types';
import { get } from '@/lib/api-client';

/** The API family of the signed-in account: the report screens sit outside the families, so the session decides. */
export function reportApiFamily(typePath: TypePath | null | undefined): 'admin' | 'k12' | 'gx' | null {
  if (typePath === '/admin') return 'admin';
  if (typePath === '/k12') return 'k12';
  if (typePath === '/gx') return 'gx';
  return null;
}

/** GET /api/busi/web/{family}/physique/report/:studentId?schoolYearId=: the student physique report of one school year. */
export function getReport(family: 'admin' | 'k12' | 'gx', studentId: string, schoolYearId?: string): Promise<StudentReport> {
  return get<StudentReport>(`/api/busi/web/${family}/physique/report/${encodeURIComponent(studentId)}`, { schoolYearId });
}

export function useReportQuery(family: 'admin' | 'k12' | 'gx' | null, studentId: string | null, schoolYearId?: string) {
  return useQuery({
    queryKey: ['physiqueReport', family, studentId, schoolYearId ?? ''],
    queryFn: () => getReport(family!, studentId!, schoolYearId),
    enabled: Boolean(family && studentId),
  });
}
