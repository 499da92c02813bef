import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanDetail } from '@/domain/test-plans/types';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PlanStatusBadge } from './plan-status-badge';
import { useDateTime } from '@/lib/date-time';
import { gradeNameKey } from '@/domain/school/grade-name';

function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium text-foreground">{children}</dd>
    </div>
  );
}

function Meter({ label, value, total }: { label: string; value: number; total: number }) {
  const pct = total === 0 ? 0 : Math.round((value / total) * 1000) / 10;
  return (
    <div className="grid gap-1.5">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-semibold tabular-nums">
          {value} / {total}
          <span className="ml-2 text-xs font-normal text-muted-foreground">{pct}%</span>
        </span>
      </div>
      <div className="h-2 overflow-hidden rounded-full bg-muted" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={value}>
        <div className="h-full rounded-full bg-primary" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

/** Overview tab of a plan: status, term, dates, scope, standard, fee, counts and the items of every grade. */
export function PlanOverview({ plan }: { plan: PlanDetail }) {
  const { t } = useTranslation(['testPlansUi', 'testPlans', 'physique']);
  const dateTime = useDateTime('medium');
  const scopeName = (s: PlanDetail['scope'][number]) =>
    plan.scopeType === 'grade' && s.gradeNo !== null ? t(gradeNameKey(s.gradeNo), { defaultValue: s.name }) : s.name;
  return (
    <div className="grid gap-4 lg:grid-cols-3" data-testid="plan-overview">
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>{t('detail.info')}</CardTitle>
        </CardHeader>
        <CardContent className="min-w-0">
          <dl className="grid gap-4 sm:grid-cols-2">
            <Field label={t('column.status')}>
              <PlanStatusBadge status={plan.status} />
            </Field>
            {plan.orgName ? <Field label={t('column.school')}>{plan.orgName}</Field> : null}
            <Field label={t('column.term')}>{`${plan.academicYear} ${t(`semester.${plan.semesterCode}`)}`}</Field>
            <Field label={t('column.dates')}>{t('dateRange', { start: plan.startDate, end: plan.endDate })}</Field>
            <Field label={t('form.standardVersion')}>{t('physique:standard.version', { version: plan.standardVersion })}</Field>
            <Field label={t('form.feeAmount')}>
              {plan.feeAmount === null
                ? t('detail.noFee')
                : t('detail.fee', {
                    amount: plan.feeAmount.toFixed(plan.feePrecision),
                    rounding: t(`testPlans:feeRounding.${plan.feeRounding}`),
                  })}
            </Field>
            <Field label={t(`testPlans:scopeType.${plan.scopeType}`)}>
              <span className="flex flex-wrap gap-1.5">
                {plan.scope.map((s) => (
                  <span key={s.id} className="rounded-md bg-muted px-2 py-0.5 text-xs">
                    {scopeName(s)}
                  </span>
                ))}
              </span>
            </Field>
            {plan.endedAt ? <Field label={t('detail.endedAt')}>{dateTime(plan.endedAt)}</Field> : null}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('detail.progress')}</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <div className="flex items-baseline gap-2">
            <span className="text-3xl font-semibold tabular-nums" data-testid="plan-students">
              {plan.counts.students}
            </span>
            <span className="text-sm text-muted-foreground">{t('detail.students')}</span>
          </div>
          <Meter label={t('detail.tested')} value={plan.counts.tested} total={plan.counts.students} />
          <Meter label={t('detail.complete')} value={plan.counts.complete} total={plan.counts.students} />
        </CardContent>
      </Card>
      <Card className="lg:col-span-3">
        <CardHeader>
          <CardTitle>{t('form.items')}</CardTitle>
        </CardHeader>
        <CardContent className="min-w-0">
          <table className="w-full text-sm">
            <tbody>
              {plan.items.map((g) => (
                <tr key={g.gradeNo} className="border-b last:border-b-0">
                  <th scope="row" className="w-32 py-2 pr-4 text-left font-medium whitespace-nowrap">
                    {t(gradeNameKey(g.gradeNo), { defaultValue: String(g.gradeNo) })}
                  </th>
                  <td className="py-2">
                    <span className="flex flex-wrap gap-1.5">
                      {g.items.map((item) => (
                        <span key={item} className="rounded-md border px-2 py-0.5 text-xs">
                          {t(`physique:item.${item}`)}
                        </span>
                      ))}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
    </div>
  );
}
