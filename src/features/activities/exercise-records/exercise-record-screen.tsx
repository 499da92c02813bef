import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ACTIVITY_ITEM_KEYS, ACTIVITY_SOURCE_TABLE } from '@/domain/activities/items';
import { enumOptions } from '@/domain/presentation';
import { exerciseRecordListQuery, INVALID_REASON_MAX, type ExerciseRecordRow } from '@/domain/activities/exercise-records';
import type { Family } from '@/domain/menus/access';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { validityActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { exerciseRecords, useActivityOptions, useSetExerciseValidity } from './api';
import { useActivityFormat } from '../../../components/activities/format';
import { gradeNameKey } from '@/domain/school/grade-name';

type Filters = {
  orgId?: string;
  schoolYearId?: string;
  semesterCode?: string;
  gradeNo?: string;
  classId?: string;
  keyword?: string;
  item?: string;
  source?: string;
  from?: string;
  to?: string;
  invalid?: string;
};
const col = createDataTableColumnHelper<ExerciseRecordRow>();

/**
 * sportData/exerciseRecord (docs/product-rules.md#exercise-records): the exercise sessions of the reader's scope with
 * the year, semester, grade, class, student, item, source, day and validity filters; set invalid with a reason or
 * valid again (one row or the selected rows); export.
 */
export function ExerciseRecordScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['activities', 'school']);
  const fmt = useActivityFormat();
  const key = `${family}.sportData.exerciseRecord`;
  const api = exerciseRecords(family);
  const options = useActivityOptions(family);
  const names: (keyof Filters & string)[] = ['schoolYearId', 'semesterCode', 'gradeNo', 'classId', 'item', 'source', 'from', 'to', 'invalid', 'keyword'];
  const state = useListState<Filters>(family === 'admin' ? ['orgId', ...names] : names);
  const query = api.useList(state.query);
  const setValidity = useSetExerciseValidity(family);

  const o = options.data;
  const classChoices = (o?.classes ?? []).filter((c) => (!state.filters.orgId || c.orgId === state.filters.orgId) && (!state.filters.gradeNo || String(c.gradeNo) === state.filters.gradeNo));
  const filters: FilterDef<Filters>[] = [
    ...(family === 'admin' ? [{ name: 'orgId', type: 'select', label: t('exerciseRecords.filter.school'), options: (o?.schools ?? []).map((s) => ({ value: s.id, label: s.name })) } as const] : []),
    { name: 'schoolYearId', type: 'select', label: t('exerciseRecords.filter.schoolYear'), className: 'w-36', options: (o?.schoolYears ?? []).map((y) => ({ value: y.id, label: y.academicYear })) },
    { name: 'semesterCode', type: 'select', label: t('exerciseRecords.filter.semester'), className: 'w-32', options: ['11', '13'].map((c) => ({ value: c, label: t(`exerciseRecords.semester.${c}`) })) },
    { name: 'gradeNo', type: 'select', label: t('exerciseRecords.filter.grade'), className: 'w-32', options: (o?.grades ?? []).map((g) => ({ value: String(g), label: t(gradeNameKey(g)) })) },
    { name: 'classId', type: 'select', label: t('exerciseRecords.filter.class'), options: classChoices.map((c) => ({ value: c.id, label: c.name })) },
    { name: 'item', type: 'select', label: t('exerciseRecords.filter.item'), options: ACTIVITY_ITEM_KEYS.map((k) => ({ value: k, label: fmt.item(k) })) },
    { name: 'source', type: 'select', label: t('exerciseRecords.filter.source'), className: 'w-28', options: enumOptions(ACTIVITY_SOURCE_TABLE, t) },
    { name: 'from', type: 'date', label: t('exerciseRecords.filter.from'), before: 'to' },
    { name: 'to', type: 'date', label: t('exerciseRecords.filter.to'), after: 'from' },
    {
      name: 'invalid',
      type: 'select',
      label: t('exerciseRecords.filter.validity'),
      className: 'w-28',
      options: [
        { value: 'false', label: t('exerciseRecords.valid') },
        { value: 'true', label: t('exerciseRecords.invalid') },
      ],
    },
    { name: 'keyword', type: 'text', label: t('exerciseRecords.filter.keyword'), placeholder: t('exerciseRecords.filter.keywordPlaceholder') },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('exerciseRecords.column.name'),
          cell: ({ row }) => (
            <span className="flex flex-col leading-tight">
              <span className={cn('font-medium', row.original.invalid && 'text-muted-foreground line-through')}>{row.original.name}</span>
              <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">{row.original.regNo}</span>
            </span>
          ),
        }),
        ...(family === 'admin' ? [col.accessor('orgName', { header: t('exerciseRecords.column.school') })] : []),
        col.accessor('className', { header: t('exerciseRecords.column.className') }),
        col.accessor('item', { header: t('exerciseRecords.column.item'), cell: ({ getValue }) => fmt.item(getValue()) }),
        col.accessor('value', {
          header: t('exerciseRecords.column.value'),
          meta: { align: 'right' },
          cell: ({ row }) => (
            <span className={cn('font-medium whitespace-nowrap tabular-nums', row.original.invalid && 'text-muted-foreground line-through')}>
              {fmt.value(row.original.item, row.original.value)}
            </span>
          ),
        }),
        col.accessor('durationS', { header: t('exerciseRecords.column.duration'), meta: { align: 'right' }, cell: ({ getValue }) => (getValue() == null ? '—' : fmt.number(getValue()!)) }),
        col.accessor('source', { header: t('exerciseRecords.column.source'), cell: ({ getValue }) => fmt.source(getValue()) }),
        col.accessor('deviceSn', { header: t('exerciseRecords.column.deviceSn'), cell: ({ getValue }) => getValue() ?? '—' }),
        col.accessor('measuredAt', { header: t('exerciseRecords.column.measuredAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{fmt.dateTime(getValue())}</span> }),
        col.accessor('invalid', {
          header: t('exerciseRecords.column.validity'),
          cell: ({ row }) =>
            row.original.invalid ? (
              <Badge variant="destructive" title={row.original.invalidReason ?? undefined}>
                {t('exerciseRecords.invalid')}
              </Badge>
            ) : (
              <Badge variant="secondary">{t('exerciseRecords.valid')}</Badge>
            ),
        }),
      ]),
    [t, fmt, family],
  );

  return (
    <ListScreen
      pageKey={key}
      description={t('exerciseRecords.description')}
      state={state}
      querySchema={exerciseRecordListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      selectable
      actions={validityActions<ExerciseRecordRow>({
        isInvalid: (r) => r.invalid,
        run: (rows, invalid, reason) => setValidity.mutateAsync({ ids: rows.map((r) => r.id), reason, invalid }),
        title: (rows, invalid) =>
          rows.length === 1
            ? t(invalid ? 'exerciseRecords.invalidTitle' : 'exerciseRecords.validTitle')
            : t(invalid ? 'exerciseRecords.bulkInvalidTitle' : 'exerciseRecords.bulkValidTitle', { count: rows.length }),
        description: (rows, invalid) =>
          rows.length === 1 ? t(invalid ? 'exerciseRecords.invalidText' : 'exerciseRecords.validText', { name: rows[0].name, item: fmt.item(rows[0].item) }) : undefined,
        reason: { id: 'invalid-reason', label: t('exerciseRecords.reason'), placeholder: t('exerciseRecords.reasonPlaceholder'), max: INVALID_REASON_MAX },
        success: (res) => t('exerciseRecords.changed', { count: (res as { changed: number }).changed }),
      })}
      actionsHeader={t('exerciseRecords.column.actions')}
      onExport={(f) => api.exportList(f)}
      exportLayout="list"
      data-testid="exercise-records"
    />
  );
}
