import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Download } from 'lucide-react';
import { LOAD_GROUPS, PERSISTENT_MIN_LESSONS, PERSISTENT_SHARE, type LoadFigures, type LoadFlaggedStudent, type LoadGroup, type LoadGroupRow } from '@/domain/lesson-load/reports';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { Chart } from '@/components/chart/chart';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { PermissionGate, usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { toast } from '@/lib/toast';
import { exportLoadSummary, loadKey, useLoadSummary, type SummaryFamily } from './api';
import { weeklyTrendOption } from './format';
import { useFigureFormats } from '@/lib/number-format';
import { TermFilter, termText } from './term-filter';

const FIGURES = ['lessons', 'meetsShare', 'mainMeanBpm', 'groupDensity', 'individualDensity', 'targetShare'] as const;

/** The headline figures of a set of lessons, one tile each. */
export function FigureTiles({ figures, testId }: { figures: LoadFigures; testId?: string }) {
  const { t } = useTranslation('lessonLoad');
  const f = useFigureFormats();
  const text = (k: (typeof FIGURES)[number]) => (k === 'lessons' ? f.count(figures.lessons) : k === 'mainMeanBpm' ? f.oneDecimal(figures.mainMeanBpm) : f.share(figures[k]));
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid={testId}>
      {FIGURES.map((k) => (
        <div key={k} className="grid gap-1 rounded-md border px-3 py-2" data-testid={`${testId ?? 'load'}-${k}`}>
          <span className="text-xs text-muted-foreground">{t(`summary.${k}`)}</span>
          <span className="text-xl font-semibold tabular-nums">{text(k)}</span>
        </div>
      ))}
    </div>
  );
}

/** Sortable figure columns shared by the group table and the district's schools. */
export function useFigureColumns<T extends LoadFigures>() {
  const { t } = useTranslation('lessonLoad');
  const f = useFigureFormats();
  return useMemo(() => {
    const col = createDataTableColumnHelper<T>();
    const num = (s: string) => <span className="tabular-nums">{s}</span>;
    return [
      col.accessor((r) => r.lessons, { id: 'lessons', header: t('summary.lessons'), enableSorting: true, meta: { align: 'right' }, cell: ({ getValue }) => num(f.count(getValue())) }),
      col.accessor((r) => r.meetsShare, { id: 'meetsShare', header: t('summary.meetsShare'), enableSorting: true, meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
      col.accessor((r) => r.mainMeanBpm, { id: 'mainMeanBpm', header: t('summary.mainMeanBpm'), enableSorting: true, meta: { align: 'right' }, cell: ({ getValue }) => num(f.oneDecimal(getValue())) }),
      col.accessor((r) => r.groupDensity, { id: 'groupDensity', header: t('summary.groupDensity'), enableSorting: true, meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
      col.accessor((r) => r.individualDensity, { id: 'individualDensity', header: t('summary.individualDensity'), enableSorting: true, meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
      col.accessor((r) => r.targetShare, { id: 'targetShare', header: t('summary.targetShare'), enableSorting: true, meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
    ];
  }, [t, f]);
}

const groupCol = createDataTableColumnHelper<LoadGroupRow>();
const studentCol = createDataTableColumnHelper<LoadFlaggedStudent>();

function FlaggedCard({ kind, list }: { kind: 'below' | 'above'; list: LoadFlaggedStudent[] }) {
  const { t } = useTranslation('lessonLoad');
  const f = useFigureFormats();
  const columns = useMemo(
    () =>
      studentCol.columns([
        studentCol.accessor('name', { header: t('summary.student') }),
        studentCol.accessor('regNo', { header: t('summary.regNo') }),
        studentCol.accessor('className', { header: t('summary.class') }),
        studentCol.accessor('lessons', { header: t('summary.lessons'), meta: { align: 'right' } }),
        studentCol.accessor('count', { header: t(`summary.${kind}Count`), meta: { align: 'right' } }),
        studentCol.accessor('share', { header: t('summary.share'), meta: { align: 'right' }, cell: ({ getValue }) => f.share(getValue()) }),
      ]),
    [t, f, kind],
  );
  return (
    <Card className="min-w-0 gap-3 py-4" data-testid={`load-${kind}`}>
      <CardHeader className="px-4">
        <CardTitle className="text-base">{t(`summary.${kind}Title`)}</CardTitle>
        <CardDescription>{t(`summary.${kind}Hint`, { min: PERSISTENT_MIN_LESSONS, share: f.share(PERSISTENT_SHARE) })}</CardDescription>
      </CardHeader>
      <CardContent className="px-4">
        {/* A long list scrolls in a region the keyboard can reach (focusable, named). */}
        <div className="max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={t(`summary.${kind}Title`)}>
          <DataTable columns={columns} data={list} rowKey="studentId" empty={<p className="py-6 text-center text-sm text-muted-foreground">{t('summary.noStudents')}</p>} aria-label={t(`summary.${kind}Title`)} />
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * class/load/summary (docs/product-rules.md#lesson-load: reports): a term's finished heart-rate lessons of the school
 * (within the caller's data scope) by class, teacher, grade (college) or school, the weekly trend against the
 * curriculum's targets, students persistently below or above, and the term's workbook (the page's export button).
 */
export function LoadSummaryScreen({ family }: { family: SummaryFamily }) {
  const { t } = useTranslation(['lessonLoad', 'menus', 'school']);
  const [params, setParams] = useSearchParams();
  const access = usePageAccess(loadKey(family));
  const groups = LOAD_GROUPS.filter((g) => g !== (family === 'gx' ? 'grade' : 'college'));
  const group = (groups as readonly string[]).includes(params.get('group') ?? '') ? (params.get('group') as LoadGroup) : 'class';
  const query = { schoolYear: params.get('schoolYear') ?? undefined, semester: params.get('semester') ?? undefined, group };
  const summary = useLoadSummary(family, query);
  const figureColumns = useFigureColumns<LoadGroupRow>();
  const [exporting, setExporting] = useState(false);
  const entry = getCatalogEntry(`${loadKey(family)}.summary`);
  const data = summary.data;
  const set = (patch: Record<string, string | number>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) next.set(k, String(v));
    setParams(next, { replace: true });
  };
  const columns = useMemo(
    () =>
      groupCol.columns([
        groupCol.accessor((r) => (group === 'grade' ? t(`school:grade.no.${r.id}`) : (r.name ?? t('summary.noTeacher'))), {
          id: 'name',
          header: t(`summary.group.${group}`),
          enableSorting: true,
          cell: ({ getValue }) => <span className="font-medium">{getValue()}</span>,
        }),
        ...figureColumns,
      ]),
    [t, group, figureColumns],
  );
  const trend = useMemo(() => (data ? weeklyTrendOption(t, data.weeks) : null), [data, t]);
  const onExport = async () => {
    setExporting(true);
    try {
      await exportLoadSummary(family, { schoolYear: data?.term.schoolYear, semester: data?.term.semester });
    } catch (e) {
      toast.error((e as Error).message);
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="load-summary">
      <PageHeader
        title={entry ? menuLabel(t, entry) : t('summary.title')}
        back={{ safe: true }}
        description={data ? t('summary.description', termText(t, data.term)) : null}
        actions={
          <PermissionGate permission={access.buttons.export ?? ''}>
            <Button variant="outline" onClick={() => void onExport()} loading={exporting} disabled={!data} data-testid="load-summary-export">
              <Download aria-hidden />
              {t('summary.export')}
            </Button>
          </PermissionGate>
        }
        className="pb-0"
      />
      <div className="flex flex-wrap items-center gap-2">
        <TermFilter term={data?.term} onChange={(v) => set(v)} />
        <Select
          aria-label={t('summary.groupBy')}
          className="w-36"
          value={group}
          onValueChange={(v) => set({ group: v })}
          options={groups.map((g) => ({ value: g, label: t(`summary.by.${g}`) }))}
        />
      </div>
      <QueryState query={summary} data={data}>
        {(view) => (
          <>
            <FigureTiles figures={view.total} testId="load-total" />
            {view.total.lessons === 0 ? (
              <p className="rounded-md border px-4 py-8 text-center text-sm text-muted-foreground">{t('summary.noLessons')}</p>
            ) : (
              <>
                <Card className="min-w-0 gap-3 py-4">
                  <CardHeader className="px-4">
                    <CardTitle className="text-base">{t('summary.trend')}</CardTitle>
                    <CardDescription>{t('summary.trendTitle')}</CardDescription>
                  </CardHeader>
                  <CardContent className="px-4">{trend ? <Chart option={trend} height={300} aria-label={t('summary.trendTitle')} /> : null}</CardContent>
                </Card>
                <Card className="min-w-0 gap-3 py-4">
                  <CardHeader className="px-4">
                    <CardTitle className="text-base">{t(`summary.by.${group}`)}</CardTitle>
                  </CardHeader>
                  <CardContent className="px-4">
                    <DataTable columns={columns} data={view.rows} rowKey={(r) => r.id ?? '—'} aria-label={t(`summary.by.${group}`)} />
                  </CardContent>
                </Card>
                <FlaggedCard kind="below" list={view.below} />
                <FlaggedCard kind="above" list={view.above} />
              </>
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}
