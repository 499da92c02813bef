import { useCallback, useState } from 'react';
import { useAtomValue } from 'jotai';
import { History, Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { canDo, pageAccess } from '@/domain/menus/access';
import { permissionsAtom } from '@/lib/permissions';
import { EmptyState } from '@/components/empty-state/empty-state';
import { PageHeader } from '@/components/page-header/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { uinfoAtom } from '@/lib/store';
import { reportApiFamily, useReportQuery } from '../api/get-report';
import { StudentReportView } from './student-report';

/**
 * The student report screen (/scoreReport, /scoreReportK12 with ?studentId=&planId=&schoolYearId=, docs/product-rules.md#physique-results: student report): a year
 * selector, a plan selector when the year has several, a Print button, and the report. The session's family decides which API answers.
 */
export function ReportScreen() {
  const { t } = useTranslation(['physiqueResultsReport', 'graduation']);
  const [search, setSearch] = useSearchParams();
  const studentId = search.get('studentId');
  const schoolYearId = search.get('schoolYearId') ?? undefined;
  const planId = search.get('planId') ?? undefined;
  const family = reportApiFamily(useAtomValue(uinfoAtom)?.currentTypePath);
  const query = useReportQuery(family, studentId, { planId, schoolYearId });
  const [printedAt] = useState(() => new Date());
  const [chartsReady, setChartsReady] = useState(false);
  const onChartsReady = useCallback(() => setChartsReady(true), []);
  const report = query.data;
  // The student's history across school years (physiqueManage/graduation's sub-route), for a school that may open it.
  const held = useAtomValue(permissionsAtom);
  const historyKey = family === 'k12' || family === 'gx' ? `${family}.test.graduation` : null;
  const historyPath = historyKey && studentId && canDo(held, historyKey, 'detail') ? pageAccess(historyKey).paths.route('history', studentId) : null;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="report-screen" data-charts-ready={chartsReady || undefined}>
      <PageHeader
        title={t('screenTitle')}
        description={
          report ? t(report.result ? 'screenDescriptionPlan' : 'screenDescription', { name: report.student.name, plan: report.result?.planName }) : undefined
        }
        back={{ safe: true }}
        className="pb-0"
        actions={
          report ? (
            <div className="flex flex-wrap items-end gap-2" data-report-controls>
              {report.years.length > 0 ? (
                <div className="flex items-center gap-2">
                  <Label className="text-muted-foreground">{t('year')}</Label>
                  <Select
                    className="w-36"
                    aria-label={t('year')}
                    value={report.schoolYearId ?? ''}
                    onValueChange={(v) => {
                      setChartsReady(false);
                      setSearch((s) => {
                        const next = new URLSearchParams(s);
                        next.set('schoolYearId', v);
                        next.delete('planId');
                        return next;
                      });
                    }}
                    options={report.years.map((y) => ({ value: y.schoolYearId, label: y.academicYear }))}
                  />
                </div>
              ) : null}
              {report.plans.length > 1 ? (
                <div className="flex items-center gap-2">
                  <Label className="text-muted-foreground">{t('student.plan')}</Label>
                  <Select
                    className="w-64"
                    aria-label={t('student.plan')}
                    value={report.result?.planId ?? ''}
                    onValueChange={(v) => {
                      setChartsReady(false);
                      setSearch((s) => {
                        const next = new URLSearchParams(s);
                        next.set('planId', v);
                        return next;
                      });
                    }}
                    options={report.plans.map((p) => ({ value: p.planId, label: p.planName }))}
                  />
                </div>
              ) : null}
              {historyPath ? (
                <Button variant="outline" asChild data-testid="report-history">
                  <Link to={historyPath}>
                    <History aria-hidden />
                    {t('graduation:list.history')}
                  </Link>
                </Button>
              ) : null}
              <Button onClick={() => window.print()} data-testid="report-print">
                <Printer aria-hidden />
                {t('print')}
              </Button>
            </div>
          ) : null
        }
      />
      {!studentId ? (
        <Card>
          <EmptyState title={t('noStudent')} description={t('noStudentHint')} />
        </Card>
      ) : query.isPending && family ? (
        <Skeleton className="h-[600px] w-full" />
      ) : report ? (
        <StudentReportView key={report.result?.id ?? report.schoolYearId ?? ''} report={report} printedAt={printedAt} onChartsReady={onChartsReady} />
      ) : (
        <Card>
          <EmptyState title={t('notFound')} />
        </Card>
      )}
    </div>
  );
}
