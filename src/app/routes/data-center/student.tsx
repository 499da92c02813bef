import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { uinfoAtom } from '@/lib/store';
import { StudentDetail } from '@/features/data-center/components/student-detail';
import { StudentList } from '@/features/data-center/components/student-list';
import { reportApiFamily, useReportQuery, type ReportPick } from '@/features/physique-results/api/get-report';
import { StudentReportView } from '@/features/physique-results/components/student-report';

/** /k12/dataCenter/student: the students of the scope, paged. */
export function DataCenterStudentListPage() {
  return <StudentList />;
}

/**
 * /k12/dataCenter/student/detail/:id: the student's history across years and plans (data centre) with the physique
 * report of one school year (physique report feature) below it; features never import each other, so they meet here.
 */
export function DataCenterStudentDetailPage() {
  const { id = '' } = useParams();
  return <StudentDetail key={id} studentId={id} report={<StudentReport studentId={id} />} />;
}

function StudentReport({ studentId }: { studentId: string }) {
  const { t } = useTranslation('dashboard');
  const family = reportApiFamily(useAtomValue(uinfoAtom)?.currentTypePath);
  const [pick, setPick] = useState<ReportPick>({});
  const query = useReportQuery(family, studentId, pick);
  const [printedAt] = useState(() => new Date());
  const report = query.data;
  if (query.isPending) return <Skeleton className="h-[480px] w-full rounded-xl" />;
  if (!report) return null;
  return (
    <section className="grid gap-3" data-testid="dc-student-report" aria-label={t('studentView.report')}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t('studentView.report')}</h2>
        <div className="flex flex-wrap items-center gap-3">
          {report.years.length > 1 ? (
            <div className="flex items-center gap-2">
              <Label className="text-muted-foreground">{t('studentView.reportYear')}</Label>
              <Select
                className="w-36"
                aria-label={t('studentView.reportYear')}
                value={report.schoolYearId ?? ''}
                onValueChange={(schoolYearId) => setPick({ schoolYearId })}
                options={report.years.map((y) => ({ value: y.schoolYearId, label: y.academicYear }))}
              />
            </div>
          ) : null}
          {report.plans.length > 1 ? (
            <div className="flex items-center gap-2">
              <Label className="text-muted-foreground">{t('filter.planId')}</Label>
              <Select
                className="w-64"
                aria-label={t('filter.planId')}
                value={report.result?.planId ?? ''}
                onValueChange={(planId) => setPick({ planId })}
                options={report.plans.map((p) => ({ value: p.planId, label: p.planName }))}
              />
            </div>
          ) : null}
        </div>
      </div>
      <StudentReportView key={report.result?.id ?? report.schoolYearId ?? ''} report={report} printedAt={printedAt} />
    </section>
  );
}
