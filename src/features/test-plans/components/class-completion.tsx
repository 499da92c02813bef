import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClassCompletionRow } from '@/domain/test-plans/types';
import { Chart } from '@/components/chart/chart';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import type { ChartOption } from '@/lib/echarts';
import { useClassCompletionQuery } from '../api/get-class-completion';
import type { Family } from '@/domain/menus/access';
import { gradeNameKey } from '@/domain/school/grade-name';

const col = createDataTableColumnHelper<ClassCompletionRow>();
/** Classes the chart shows at once. */
const VISIBLE_CLASSES = 16;

/** Completion tab: tested and complete students per class, as a bar chart and a table. */
export function ClassCompletion({ family, planId }: { family: Family; planId: string }) {
  const { t } = useTranslation(['testPlansUi', 'physique']);
  const query = useClassCompletionQuery(family, planId);
  const rows = query.data;

  const option = useMemo<ChartOption>(() => {
    const list = rows ?? [];
    // Many classes: show a window of them with a slider rather than labels piled on each other.
    const many = list.length > VISIBLE_CLASSES;
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0 },
      grid: { left: 8, right: 8, top: 36, bottom: many ? 36 : 8, containLabel: true },
      dataZoom: many
        ? [
            { type: 'slider', startValue: 0, endValue: VISIBLE_CLASSES - 1, height: 16, bottom: 4, showDetail: false },
            { type: 'inside', zoomOnMouseWheel: false, moveOnMouseWheel: true },
          ]
        : [],
      xAxis: { type: 'category', data: list.map((r) => r.className), axisLabel: { interval: 0, rotate: list.length > 8 ? 30 : 0 } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: t('completion.students'), type: 'bar', data: list.map((r) => r.students), itemStyle: { opacity: 0.35 } },
        { name: t('completion.tested'), type: 'bar', data: list.map((r) => r.tested) },
        { name: t('completion.complete'), type: 'bar', data: list.map((r) => r.complete) },
      ],
    };
  }, [rows, t]);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('className', { header: t('completion.className'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('gradeNo', { header: t('completion.grade'), cell: ({ getValue }) => t(gradeNameKey(getValue()), { defaultValue: String(getValue()) }) }),
        col.accessor('students', { header: t('completion.students'), meta: { align: 'right' } }),
        col.accessor('tested', { header: t('completion.tested'), meta: { align: 'right' } }),
        col.accessor('complete', { header: t('completion.complete'), meta: { align: 'right' } }),
        col.accessor('rate', {
          header: t('completion.rate'),
          meta: { align: 'right', width: 180 },
          enableSorting: true,
          cell: ({ getValue }) => {
            const pct = Math.round(getValue() * 1000) / 10;
            return (
              <span className="flex items-center justify-end gap-2">
                <span className="h-1.5 w-20 overflow-hidden rounded-full bg-muted" aria-hidden>
                  <span className="block h-full rounded-full bg-success" style={{ width: `${pct}%` }} />
                </span>
                <span className="w-12 tabular-nums">{pct}%</span>
              </span>
            );
          },
        }),
      ]),
    [t],
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="class-completion">
      <Chart option={option} height={300} loading={query.isFetching && !rows} aria-label={t('completion.chart')} />
      <DataTable aria-label={t('detail.tabs.completion')} columns={columns} data={rows} rowKey="classId" loading={query.isFetching} phone={{ mode: 'scroll' }} />
    </div>
  );
}
