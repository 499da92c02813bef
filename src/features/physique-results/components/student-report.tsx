import { useMemo, useState, type ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatRaw } from '@/domain/physique-results/export-layout';
import type { StudentReport } from '@/domain/physique-results/types';
import type { ItemKey } from '@/domain/physique/standard';
import { Chart } from '@/components/chart/chart';
import { EmptyState } from '@/components/empty-state/empty-state';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import type { ChartOption, EChartsType } from '@/lib/echarts';
import { escapeHtml } from '@/lib/html';
import './report-print.css';
import { ACCEPT_LANGUAGE } from '@/domain/constants';
import { toLocale } from '@/domain/i18n/language';

const LEVEL_TONE: Record<string, string> = {
  excellent: 'text-success',
  good: 'text-primary',
  pass: 'text-foreground',
  fail: 'text-destructive',
  normal: 'text-success',
  lowWeight: 'text-warning',
  overweight: 'text-warning',
  obese: 'text-destructive',
};

const score = (v: number | null | undefined) => (v == null ? '—' : String(Math.round(v * 10) / 10));
const raw = (item: ItemKey, v: number | null | undefined) => {
  const shown = formatRaw(item, v, 'display');
  return shown === null ? '—' : String(shown);
};

function Info({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex gap-2 text-sm">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function Stat({ label, value, tone, testId }: { label: ReactNode; value: ReactNode; tone?: string; testId?: string }) {
  return (
    <div className="rounded-lg border bg-muted/30 px-4 py-3">
      <div className="text-xs text-muted-foreground">{label}</div>
      <div className={cn('text-2xl font-semibold tabular-nums', tone)} data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

function YearFact({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="text-sm">
      <div className="text-xs text-muted-foreground">{label}</div>
      <div className="font-medium tabular-nums" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

/**
 * The school year's result (docs/product-rules.md#physique-year): the year's total and level with where it comes from,
 * the original and re-test totals both after a re-test, and 免测 for an approved exempt year.
 */
function YearResultCard({ year }: { year: StudentReport['year'] }) {
  const { t } = useTranslation(['physiqueResultsReport', 'physique']);
  if (!year || year.source === 'none') return null;
  if (year.source === 'exempt') {
    return (
      <section className="flex items-center gap-4 rounded-lg border border-primary/30 bg-primary/5 px-4 py-3" data-testid="report-year" aria-label={t('yearResult.title')}>
        <span className="text-2xl font-semibold text-primary" data-testid="report-year-total">
          {t('yearResult.exempt')}
        </span>
        <span className="text-sm text-muted-foreground">{t('yearResult.exemptHint')}</span>
      </section>
    );
  }
  const retested = year.retestTotal != null;
  return (
    <section className="grid gap-2 rounded-lg border px-4 py-3" data-testid="report-year" aria-label={t('yearResult.title')}>
      <div className="flex flex-wrap items-end gap-x-8 gap-y-2">
        <div>
          <div className="text-xs text-muted-foreground">{t('yearResult.total')}</div>
          <div className={cn('text-2xl font-semibold tabular-nums', year.level ? LEVEL_TONE[year.level] : undefined)} data-testid="report-year-total">
            {score(year.total)}
            {year.level ? <span className="ml-2 text-base font-medium">{t(`physique:level.${year.level}`)}</span> : null}
          </div>
        </div>
        <YearFact label={t('yearResult.source')}>{t(`yearResult.sources.${year.source}`)}</YearFact>
        <YearFact label={t('yearResult.planTotal')} testId="report-year-plan">
          {score(year.planTotal)}
        </YearFact>
        {retested ? (
          <YearFact label={t('yearResult.retestTotal')} testId="report-year-retest">
            {score(year.retestTotal)}
          </YearFact>
        ) : null}
      </div>
      {year.source === 'retest' && year.planTotal != null ? <p className="text-xs text-muted-foreground">{t('yearResult.retestRule')}</p> : null}
    </section>
  );
}

export interface StudentReportViewProps {
  report: StudentReport;
  /** When the document was produced (the footer), e.g. now. */
  printedAt: Date;
  /** Called when both charts have finished drawing (screenshots, printing). */
  onChartsReady?(): void;
}

/**
 * The student physique report of one school year (docs/product-rules.md#physique-results: student report): identity, each item's raw value, score, level and
 * bonus with the class average, the standard score, total and level, a radar of item scores against the class, the
 * trend over the years and the items to improve. Laid out to print on A4 (report-print.css).
 */
export function StudentReportView({ report, printedAt, onChartsReady }: StudentReportViewProps) {
  const { t, i18n } = useTranslation(['physiqueResultsReport', 'physique', 'testPlansUi']);
  const { student, result } = report;
  // Paper gets a picture of each chart: an image scales to the page where a screen-sized canvas would be cut off.
  const [pictures, setPictures] = useState<{ radar?: string; trend?: string }>({});
  const semester = (code: number) => t(`testPlansUi:semester.${code}`, { defaultValue: String(code) });
  const itemName = (item: ItemKey) => t(`physique:item.${item}`);

  const radar = useMemo<ChartOption | null>(() => {
    const items = result?.items ?? [];
    if (items.length < 3) return null;
    return {
      animation: false,
      tooltip: { trigger: 'item' },
      legend: { bottom: 0 },
      radar: {
        radius: '62%',
        center: ['50%', '46%'],
        indicator: items.map((i) => ({ name: t(`physique:item.${i.item}`), max: 100 })),
        axisName: { fontSize: 11 },
      },
      series: [
        {
          type: 'radar',
          data: [
            { name: t('chart.student'), value: items.map((i) => i.score ?? 0), areaStyle: { opacity: 0.25 } },
            { name: t('chart.classAverage'), value: items.map((i) => i.classAverage ?? 0), lineStyle: { type: 'dashed' } },
          ],
        },
      ],
    };
  }, [result, t]);

  const trend = useMemo<ChartOption>(() => {
    const points = report.history;
    // The axis is when the student was tested (two plans of one term stay apart, in the order they were tested).
    const labels = points.map((h) => `${h.testedOn}\n${h.academicYear} ${t(`testPlansUi:semester.${h.semesterCode}`)}`);
    return {
      animation: false,
      tooltip: {
        trigger: 'axis',
        formatter: (params: unknown) => {
          const first = (Array.isArray(params) ? params[0] : params) as { dataIndex: number } | undefined;
          const h = first ? points[first.dataIndex] : undefined;
          return h ? `${escapeHtml(h.planName)}<br/>${escapeHtml(`${t('chart.total')}: ${score(h.total)}`)}` : '';
        },
      },
      grid: { left: 8, right: 24, top: 24, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: labels, boundaryGap: true, axisLabel: { interval: 0, lineHeight: 14 } },
      yAxis: { type: 'value', min: 0, max: 120, interval: 20 },
      series: [
        {
          name: t('chart.total'),
          type: 'line',
          data: points.map((h) => h.total),
          symbolSize: 8,
          label: { show: true, position: 'top', fontWeight: 600 },
          markLine: {
            silent: true,
            symbol: 'none',
            label: { formatter: '{b}', position: 'insideStartTop' },
            lineStyle: { type: 'dotted', opacity: 0.7 },
            data: [
              { name: t('physique:level.pass'), yAxis: 60 },
              { name: t('physique:level.good'), yAxis: 80 },
              { name: t('physique:level.excellent'), yAxis: 90 },
            ],
          },
        },
      ],
    };
  }, [report.history, t]);

  // Both charts report 'finished' once drawn; the page is ready for paper or a screenshot after both.
  const [onRadarDone, onTrendDone] = useMemo(() => {
    const pending = new Set<string>(radar ? ['radar'] : []);
    if (report.history.length > 0) pending.add('trend');
    const done = (name: 'radar' | 'trend') => (chart: EChartsType) => {
      // A chart hidden for printing has no size: keep the picture taken on screen.
      if (chart.getWidth() > 0 && chart.getHeight() > 0) {
        const picture = chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#ffffff' });
        setPictures((p) => (p[name] === picture ? p : { ...p, [name]: picture }));
      }
      pending.delete(name);
      if (pending.size === 0) onChartsReady?.();
    };
    return [done('radar'), done('trend')];
  }, [radar, report.history.length, onChartsReady]);

  return (
    <article data-report-print data-testid="student-report" className="mx-auto grid w-full max-w-5xl grid-cols-[minmax(0,1fr)] gap-4" lang={ACCEPT_LANGUAGE[toLocale(i18n.language)]}>
      <Card className="gap-3">
        <CardHeader className="text-center">
          <CardTitle className="text-xl" data-testid="report-title">
            {t('title')}
          </CardTitle>
          {result ? (
            <p className="font-medium" data-testid="report-plan">
              {`${result.planName}（${semester(result.semesterCode)}）`}
            </p>
          ) : null}
          <p className="text-sm text-muted-foreground">{t('physique:standard.title')}</p>
        </CardHeader>
        <CardContent className="min-w-0">
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-3" data-testid="report-student">
            <Info label={t('student.name')}>{student.name}</Info>
            <Info label={t('student.gender')}>{t(`physique:gender.${student.gender}`)}</Info>
            <Info label={t('student.regNo')}>{student.regNo}</Info>
            <Info label={t('student.school')}>{student.orgName}</Info>
            {/* The class the student was in when tested (classes are renamed as the cohort moves up). */}
            <Info label={t('student.class')}>{result?.className || student.className}</Info>
            <Info label={t('student.birthDate')}>{student.birthDate ?? '—'}</Info>
            <Info label={t('student.year')}>{report.academicYear ?? '—'}</Info>
            {result ? <Info label={t('student.testedOn')}>{result.testedOn ?? '—'}</Info> : null}
          </dl>
        </CardContent>
      </Card>

      <YearResultCard year={report.year ?? null} />

      {!result ? (
        report.year?.source === 'exempt' ? null : (
          <Card>
            <EmptyState title={t('noResult')} description={t('noResultHint')} />
          </Card>
        )
      ) : (
        <>
          {result.invalid ? (
            <p role="status" className="flex items-center gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm">
              <TriangleAlert aria-hidden className="size-4 text-destructive" />
              {t('invalid')}
            </p>
          ) : null}
          <div className="grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="report-summary">
            <Stat
              label={t('summary.total')}
              value={score(result.total)}
              tone={result.level ? LEVEL_TONE[result.level] : undefined}
              testId="report-total"
            />
            <Stat
              label={t('summary.level')}
              value={result.level ? t(`physique:level.${result.level}`) : t('summary.incomplete')}
              tone={result.level ? LEVEL_TONE[result.level] : 'text-muted-foreground'}
              testId="report-level"
            />
            <Stat label={t('summary.standardScore')} value={score(result.standardScore)} />
            <Stat label={t('summary.bonus')} value={score(result.bonus)} />
            <Stat label={t('summary.classAverage')} value={score(result.classAverageTotal)} />
          </div>
          {report.examPoints ? (
            // 中考体育 points of the table the plan applies (docs/product-rules.md#physique-year); a sample table says so.
            <p className="text-sm" data-testid="report-exam-points">
              <span className="font-semibold tabular-nums">{t('conversion:report.line', { points: report.examPoints.points, maxPoints: report.examPoints.maxPoints })}</span>
              <span className="text-muted-foreground">
                {' · '}
                {t('conversion:report.by', { table: report.examPoints.tableName, version: report.examPoints.version })}
                {report.examPoints.sample ? ` · ${t('conversion:sample')}` : ''}
              </span>
            </p>
          ) : null}
          {result.missing.length > 0 ? (
            <p className="text-sm text-warning">
              {t('physique:score.incomplete', { items: result.missing.map(itemName).join(t('separator')) })}
            </p>
          ) : null}

          <Card className="gap-3">
            <CardHeader>
              <CardTitle>{t('items.title')}</CardTitle>
            </CardHeader>
            {/* A phone scrolls the items sideways (a focusable region, for the keys too), the item names kept in view. */}
            <CardContent className="min-w-0 overflow-x-auto" tabIndex={0} role="region" aria-label={t('items.title')}>
              <table className="w-full text-sm max-md:whitespace-nowrap" data-testid="report-items">
                <thead>
                  <tr className="border-b text-muted-foreground">
                    <th className="py-2 pr-3 text-left font-medium max-md:sticky max-md:left-0 max-md:bg-card">{t('items.item')}</th>
                    <th className="py-2 pr-3 text-right font-medium">{t('items.raw')}</th>
                    <th className="py-2 pr-3 text-right font-medium">{t('items.score')}</th>
                    <th className="py-2 pr-3 text-left font-medium">{t('items.level')}</th>
                    <th className="py-2 pr-3 text-right font-medium">{t('items.bonus')}</th>
                    <th className="py-2 pr-3 text-right font-medium">{t('items.weight')}</th>
                    <th className="py-2 text-right font-medium">{t('items.classAverage')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.items.map((i) => (
                    <tr key={i.item} className="border-b last:border-b-0" data-item={i.item}>
                      <th scope="row" className="py-2 pr-3 text-left font-medium max-md:sticky max-md:left-0 max-md:bg-card">
                        {itemName(i.item)}
                      </th>
                      <td className="py-2 pr-3 text-right tabular-nums">
                        {raw(i.item, i.raw)}
                        {i.raw != null ? <span className="ml-1 text-xs text-muted-foreground">{t(`physique:unit.${i.item}`)}</span> : null}
                      </td>
                      <td className="py-2 pr-3 text-right font-semibold tabular-nums">{score(i.score)}</td>
                      <td className={cn('py-2 pr-3', i.level ? LEVEL_TONE[i.level] : 'text-muted-foreground')}>
                        {i.level ? t(i.item === 'bmi' ? `physique:bmiLevel.${i.level}` : `physique:level.${i.level}`) : '—'}
                      </td>
                      <td className="py-2 pr-3 text-right tabular-nums text-success">{i.bonus ? `+${i.bonus}` : '—'}</td>
                      <td className="py-2 pr-3 text-right tabular-nums text-muted-foreground">{`${Math.round(i.weight * 100)}%`}</td>
                      <td className="py-2 text-right tabular-nums text-muted-foreground">{score(i.classAverage)}</td>
                    </tr>
                  ))}
                  {result.heightCm != null || result.weightKg != null ? (
                    <tr className="text-muted-foreground">
                      <td colSpan={7} className="pt-2 text-xs">
                        {t('items.body', { height: result.heightCm ?? '—', weight: result.weightKg ?? '—' })}
                      </td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
            </CardContent>
          </Card>
        </>
      )}

      <div className="grid gap-4 lg:grid-cols-2" data-report-charts>
        {radar ? (
          <Card className="gap-2">
            <CardHeader>
              <CardTitle>{t('chart.radarTitle')}</CardTitle>
            </CardHeader>
            <CardContent className="min-w-0">
              <Chart option={radar} height={300} aria-label={t('chart.radarTitle')} onFinished={onRadarDone} className="print:hidden" />
              {pictures.radar ? <img src={pictures.radar} alt={t('chart.radarTitle')} data-chart-picture className="hidden w-full print:block" /> : null}
            </CardContent>
          </Card>
        ) : null}
        <Card className={cn('gap-2', !radar && 'lg:col-span-2')}>
          <CardHeader>
            <CardTitle>{t('chart.trendTitle')}</CardTitle>
          </CardHeader>
          <CardContent className="min-w-0">
            {report.history.length === 0 ? (
              <EmptyState title={t('chart.noHistory')} />
            ) : (
              <>
                <Chart option={trend} height={300} aria-label={t('chart.trendTitle')} onFinished={onTrendDone} className="print:hidden" />
                {pictures.trend ? <img src={pictures.trend} alt={t('chart.trendTitle')} data-chart-picture className="hidden w-full print:block" /> : null}
              </>
            )}
          </CardContent>
        </Card>
      </div>

      {result ? (
        <Card className="gap-3" data-testid="report-improve">
          <CardHeader>
            <CardTitle>{t('improve.title')}</CardTitle>
          </CardHeader>
          <CardContent className="min-w-0">
            {report.improve.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('improve.none')}</p>
            ) : (
              <ul className="grid gap-3">
                {report.improve.map((item) => {
                  const entry = result.items.find((i) => i.item === item);
                  return (
                    <li key={item} className="grid gap-1">
                      <span className="flex items-center gap-2 text-sm font-medium">
                        {itemName(item)}
                        {entry?.level ? (
                          <Badge variant={entry.level === 'fail' ? 'destructive' : 'warning'}>
                            {t(item === 'bmi' ? `physique:bmiLevel.${entry.level}` : `physique:level.${entry.level}`)}
                          </Badge>
                        ) : null}
                        <span className="text-xs font-normal text-muted-foreground">{t('improve.score', { score: score(entry?.score) })}</span>
                      </span>
                      <span className="text-sm text-muted-foreground">{t(`advice.${item}`)}</span>
                    </li>
                  );
                })}
              </ul>
            )}
          </CardContent>
        </Card>
      ) : null}

      <footer className="text-center text-xs text-muted-foreground">
        {t('footer', { date: new Intl.DateTimeFormat(ACCEPT_LANGUAGE[toLocale(i18n.language)], { dateStyle: 'long' }).format(printedAt) })}
      </footer>
    </article>
  );
}
