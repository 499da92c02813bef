import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { GRADUATION_FLAGS, graduationListQuery, type GraduationCohort, type GraduationPage, type GraduationRow, type GraduationSummary } from '@/domain/graduation/graduation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef, type ToolbarAction } from '@/components/list/list-screen';
import type { RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { graduationKey, graduationResource, printGraduationCards, useGraduationCohorts, type GraduationFamily } from '../api';
import { LEVEL_VARIANT, scoreText } from './graduation-format';

type Filters = { gradeId?: string; classId?: string; flag?: string };
const col = createDataTableColumnHelper<GraduationRow>();

/** A cohort's name in the cohort picker: when it graduates, its stage and enrolment year. */
export function useCohortName() {
  const { t } = useTranslation(['graduation', 'school']);
  return (c: GraduationCohort) => t('list.cohortOption', { year: c.graduationYear, stage: t(`school:grade.stages.${c.stage}`), enrol: c.enrolYear });
}

function Stat({ label, value, tone, testId }: { label: string; value: number; tone?: string; testId?: string }) {
  return (
    <div className="rounded-md border bg-card px-3 py-1.5">
      <span className="text-xs text-muted-foreground">{label}</span>{' '}
      <span className={cn('font-semibold tabular-nums', tone)} data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

function Summary({ summary, cohort }: { summary: GraduationSummary; cohort: string | null }) {
  const { t } = useTranslation('graduation');
  return (
    <div className="grid gap-2">
      <span>{cohort ? t('list.shown', { cohort }) : t('list.noCohort')}</span>
      <div className="flex flex-wrap items-center gap-2 text-sm text-foreground" data-testid="graduation-summary">
        <Stat label={t('summary.students')} value={summary.students} />
        <Stat label={t('summary.scored')} value={summary.scored} />
        <Stat label={t('summary.belowFifty')} value={summary.belowFifty} tone="text-destructive" testId="summary-below-fifty" />
        <Stat label={t('summary.exempt')} value={summary.exempt} testId="summary-exempt" />
        <Stat label={t('summary.missing')} value={summary.missing} />
        <span className="text-muted-foreground">{t('summary.levels', summary.levels)}</span>
      </div>
    </div>
  );
}

/**
 * physiqueManage/graduation (docs/product-rules.md#physique-year: Graduation): a graduating cohort's students with each
 * school year's total, the graduation score and level and their flags; the counts of the cohort; the workbook; the
 * record cards (one student, the class or the cohort) and each student's history.
 */
export function GraduationListScreen({ family }: { family: GraduationFamily }) {
  const { t } = useTranslation(['graduation', 'physique', 'school']);
  const navigate = useNavigate();
  const key = graduationKey(family);
  const access = usePageAccess(key);
  const api = graduationResource(family);
  const state = useListState<Filters>(['gradeId', 'classId', 'flag']);
  const query = api.useList(state.query);
  const page = query.data as GraduationPage | undefined;
  const cohorts = useGraduationCohorts(family).data ?? [];
  const cohortName = useCohortName();
  const [printing, setPrinting] = useState(false);
  const shownCohort = page?.cohort ?? null;
  const gradeId = state.filters.gradeId ?? shownCohort?.gradeId;
  const classes = cohorts.find((c) => c.gradeId === gradeId)?.classes ?? [];

  const print = async (pick: { gradeId?: string; classId?: string; studentId?: string }) => {
    setPrinting(true);
    const shown = toast.info(t('list.printing'));
    try {
      await printGraduationCards(family, pick);
    } finally {
      toast.dismiss(shown);
      setPrinting(false);
    }
  };

  const filters: FilterDef<Filters>[] = [
    { name: 'gradeId', type: 'select', label: t('list.cohort'), options: cohorts.map((c) => ({ value: c.gradeId, label: cohortName(c) })), className: 'min-w-72' },
    { name: 'classId', type: 'select', label: t('list.class'), options: classes.map((c) => ({ value: c.id, label: c.name })) },
    { name: 'flag', type: 'select', label: t('list.flag'), options: GRADUATION_FLAGS.map((f) => ({ value: f, label: t(`flag.${f}`) })) },
  ];

  const years = page?.years;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('className', { header: t('column.className'), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('name', { header: t('column.name'), meta: { className: 'whitespace-nowrap' }, cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('regNo', { header: t('column.regNo'), meta: { className: 'whitespace-nowrap' } }),
        ...(years ?? []).map((y, i) =>
          col.display({
            id: `year${y.startYear}`,
            // Two lines: the year, then the grade the cohort was in (the columns stay narrow).
            header: () => (
              <span className="inline-flex flex-col items-end leading-tight">
                <span>{y.academicYear}</span>
                <span className="text-xs font-normal text-muted-foreground">{t(`school:grade.no.${y.gradeNo}`)}</span>
              </span>
            ),
            meta: { align: 'right', className: 'whitespace-nowrap' },
            cell: ({ row }) => {
              const cell = row.original.years[i];
              if (!cell) return '—';
              if (cell.total == null) return <span className="text-muted-foreground">{t(`source.${cell.source === 'exempt' || cell.source === 'deferred' ? cell.source : 'none'}`)}</span>;
              return (
                <span className={cell.total < 60 ? 'text-destructive' : undefined}>
                  {scoreText(cell.total)}
                  {cell.source === 'retest' ? <span className="ml-1 text-xs text-muted-foreground">{t('source.retest')}</span> : null}
                </span>
              );
            },
          }),
        ),
        col.display({
          id: 'score',
          header: t('column.score'),
          meta: { align: 'right' },
          cell: ({ row }) =>
            row.original.outcome === 'exempt' ? (
              <Badge variant="secondary">{t('source.exempt')}</Badge>
            ) : (
              <span className={`font-semibold tabular-nums ${row.original.belowFifty ? 'text-destructive' : ''}`}>{scoreText(row.original.score)}</span>
            ),
        }),
        col.display({
          id: 'level',
          header: t('column.level'),
          cell: ({ row }) => (row.original.level ? <Badge variant={LEVEL_VARIANT[row.original.level]}>{t(`physique:level.${row.original.level}`)}</Badge> : '—'),
        }),
        col.display({
          id: 'flags',
          header: t('column.flags'),
          cell: ({ row }) => {
            const r = row.original;
            return (
              <div className="flex gap-1 whitespace-nowrap">
                {r.belowFifty ? <Badge variant="destructive">{t('flag.belowFifty')}</Badge> : null}
                {r.consequence ? (
                  <Badge variant="outline" className="border-destructive text-destructive" title={t('outcome.completion')}>
                    {t('flag.completion')}
                  </Badge>
                ) : null}
                {r.outcome === 'missing' ? <Badge variant="warning">{t('flag.missing')}</Badge> : null}
              </div>
            );
          },
        }),
      ]),
    [t, years],
  );

  const rowButtons = useMemo<RowAction<GraduationRow>[]>(
    () => [
      { action: 'detail', label: t('list.history'), testId: 'row-history', onClick: (r) => void navigate(access.paths.route('history', r.studentId)) },
      { action: 'print', label: t('list.printCard'), onClick: (r) => print({ studentId: r.studentId }) },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- print() reads only the family
    [t, navigate, access.paths, family],
  );
  // A class's cards in one file (a whole cohort is printed class by class).
  const classId = state.filters.classId;
  const toolbar: ToolbarAction<GraduationRow>[] =
    shownCohort && classId
      ? [{ action: 'print', id: 'printCards', label: t('list.printClass'), onClick: () => void (printing ? undefined : print({ gradeId: shownCohort.gradeId, classId })) }]
      : [];

  return (
    <ListScreen
      pageKey={key}
      description={page ? <Summary summary={page.summary} cohort={shownCohort ? cohortName(shownCohort) : null} /> : t('list.description')}
      state={state}
      querySchema={graduationListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="studentId"
      onExport={(f) => api.exportList({ ...f, gradeId: f.gradeId ?? shownCohort?.gradeId })}
      exportLayout="list"
      toolbar={toolbar}
      rowButtons={rowButtons}
      data-testid="graduation-list"
    />
  );
}
