import { useMemo, type ReactNode } from 'react';
import { Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { HistoryYear, StudentHistory } from '@/domain/graduation/graduation';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import { formatRaw } from '@/domain/physique-results/export-layout';
import { Chart } from '@/components/chart/chart';
import { EmptyState } from '@/components/empty-state/empty-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import type { ChartOption } from '@/lib/echarts';
import { graduationKey, printGraduationCards, useStudentHistory, type GraduationFamily } from '../api';
import { LEVEL_VARIANT, scoreText } from './graduation-format';

/** A raw value as people read it (long runs in minutes and seconds). */
const rawText = (item: ItemKey, v: number | null) => String(formatRaw(item, v, 'display') ?? '—');

const itemsOf = (years: readonly HistoryYear[]): ItemKey[] => {
  const present = new Set(years.flatMap((y) => y.items.map((i) => i.item)));
  return ITEM_KEYS.filter((k) => present.has(k));
};

/** A line of one value per school year, the pass mark drawn across. */
function trendOption(labels: readonly string[], name: string, values: readonly (number | null)[], max: number): ChartOption {
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: [...labels], axisLabel: { interval: 0 } },
    yAxis: { type: 'value', min: 0, max },
    series: [
      {
        name,
        type: 'line',
        data: [...values],
        connectNulls: false,
        symbolSize: 8,
        label: { show: true, position: 'top', fontWeight: 600 },
        markLine: { silent: true, symbol: 'none', lineStyle: { type: 'dotted', opacity: 0.7 }, label: { formatter: '{c}', position: 'insideStartTop' }, data: [{ yAxis: 60 }] },
      },
    ],
  };
}

function HistoryTable({ history }: { history: StudentHistory }) {
  const { t } = useTranslation(['graduation', 'physique', 'school']);
  const { years } = history;
  const items = itemsOf(years);
  const note = (y: HistoryYear) => (y.total == null ? t(`source.${y.source === 'exempt' || y.source === 'deferred' ? y.source : 'none'}`) : y.source === 'retest' ? t('source.retest') : '');
  const row = (label: string, cell: (y: HistoryYear) => ReactNode, strong = false) => (
    <tr className="border-b last:border-0">
      <th scope="row" className={`px-3 py-2 text-left whitespace-nowrap ${strong ? 'font-semibold' : 'font-normal text-muted-foreground'}`}>
        {label}
      </th>
      {years.map((y) => (
        <td key={y.startYear} className={`px-3 py-2 text-right tabular-nums ${strong ? 'font-semibold' : ''}`}>
          {cell(y)}
        </td>
      ))}
    </tr>
  );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="history-table">
        <thead>
          <tr className="border-b bg-muted/40">
            <th scope="col" className="px-3 py-2 text-left">
              {t('history.item')}
            </th>
            {years.map((y) => (
              <th scope="col" key={y.startYear} className="px-3 py-2 text-right whitespace-nowrap">
                {t('column.year', { year: y.academicYear, grade: t(`school:grade.no.${y.gradeNo}`) })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {row(t('card.height'), (y) => scoreText(y.heightCm))}
          {row(t('card.weight'), (y) => scoreText(y.weightKg))}
          {items.map((item) => (
            <tr key={item} className="border-b">
              <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap text-muted-foreground">
                {t(`physique:item.${item}`)}
              </th>
              {years.map((y) => {
                const v = y.items.find((i) => i.item === item);
                return (
                  <td key={y.startYear} className="px-3 py-2 text-right tabular-nums">
                    {v ? t('history.rawScore', { raw: rawText(item, v.raw), score: scoreText(v.score) }) : '—'}
                  </td>
                );
              })}
            </tr>
          ))}
          {row(t('history.standardScore'), (y) => scoreText(y.standardScore))}
          {row(t('history.bonus'), (y) => scoreText(y.bonus))}
          {row(t('history.yearTotal'), (y) => (y.total == null ? <span className="text-muted-foreground">{note(y)}</span> : <span className={y.total < 60 ? 'text-destructive' : undefined}>{scoreText(y.total)}</span>), true)}
          {row(t('history.level'), (y) => (y.level ? <Badge variant={LEVEL_VARIANT[y.level]}>{t(`physique:level.${y.level}`)}</Badge> : '—'))}
          {row(t('history.source'), (y) => note(y) || t('history.plan'))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * physiqueManage/graduation/history/:studentId (docs/product-rules.md#physique-year: Graduation): a student's physique
 * across every school year on one page — the table of years and items, the trend of the total and of each item's
 * score, and the graduation score so far.
 */
export function StudentHistoryScreen({ family }: { family: GraduationFamily }) {
  const { t } = useTranslation(['graduation', 'physique']);
  const { studentId } = useParams();
  const access = usePageAccess(graduationKey(family));
  const query = useStudentHistory(family, studentId);
  const history = query.data;
  const labels = useMemo(() => history?.years.map((y) => y.academicYear) ?? [], [history]);
  const totalTrend = useMemo(() => (history ? trendOption(labels, t('history.yearTotal'), history.years.map((y) => y.total), 120) : null), [history, labels, t]);
  const itemTrends = useMemo(
    () =>
      history
        ? itemsOf(history.years).map((item) => ({
            item,
            option: trendOption(labels, t(`physique:item.${item}`), history.years.map((y) => y.items.find((i) => i.item === item)?.score ?? null), 100),
          }))
        : [],
    [history, labels, t],
  );
  const g = history?.graduation;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="graduation-history">
      <PageHeader
        title={history ? t('history.title', { name: history.student.name }) : t('list.history')}
        description={
          history ? t('history.student', { className: history.student.className, regNo: history.student.regNo, gender: t(`physique:gender.${history.student.gender}`) }) : undefined
        }
        back={{ safe: true }}
        actions={
          history && access.can('print') ? (
            <Button variant="outline" onClick={() => void printGraduationCards(family, { studentId: history.student.id })} data-testid="history-print">
              <Printer aria-hidden />
              {t('history.print')}
            </Button>
          ) : null
        }
      />
      {query.isPending ? (
        <Skeleton className="h-[600px] w-full" />
      ) : !history ? (
        <Card>
          <EmptyState title={t('history.noYears')} />
        </Card>
      ) : history.years.length === 0 ? (
        <Card>
          <EmptyState title={t('history.noYears')} description={t('history.noYearsHint')} />
        </Card>
      ) : (
        <>
          {g ? (
            <Card className="gap-2">
              <CardHeader>
                <CardTitle>{t('history.graduation')}</CardTitle>
              </CardHeader>
              <CardContent className="flex flex-wrap items-center gap-3" data-testid="history-graduation">
                {g.outcome === 'exempt' ? (
                  <Badge variant="secondary">{t('source.exempt')}</Badge>
                ) : g.outcome === 'missing' ? (
                  <span className="text-muted-foreground">{t('outcome.missing')}</span>
                ) : (
                  <>
                    <span className={`text-3xl font-semibold tabular-nums ${g.belowFifty ? 'text-destructive' : ''}`}>{scoreText(g.score)}</span>
                    {g.level ? <Badge variant={LEVEL_VARIANT[g.level]}>{t(`physique:level.${g.level}`)}</Badge> : null}
                    {g.belowFifty ? <Badge variant="destructive">{t('flag.belowFifty')}</Badge> : null}
                    {g.consequence ? <span className="text-sm text-destructive">{t('outcome.completion')}</span> : null}
                  </>
                )}
                <span className="text-sm text-muted-foreground">{t('card.rule')}</span>
              </CardContent>
            </Card>
          ) : null}
          <Card>
            <CardHeader>
              <CardTitle>{t('history.years')}</CardTitle>
            </CardHeader>
            <CardContent>
              <HistoryTable history={history} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('history.trendTotal')}</CardTitle>
            </CardHeader>
            <CardContent>{totalTrend ? <Chart option={totalTrend} height={260} aria-label={t('history.chart', { item: t('history.yearTotal') })} /> : null}</CardContent>
          </Card>
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="history-item-trends">
            {itemTrends.map(({ item, option }) => (
              <Card key={item} className="gap-2">
                <CardHeader>
                  <CardTitle className="text-base">{t('history.trendItem', { item: t(`physique:item.${item}`) })}</CardTitle>
                </CardHeader>
                <CardContent>
                  <Chart option={option} height={200} aria-label={t('history.chart', { item: t(`physique:item.${item}`) })} />
                </CardContent>
              </Card>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
