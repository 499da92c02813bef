import { useMemo, useState, type ReactNode } from 'react';
import { FileSpreadsheet, Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { studentBand, type LoadReport, type StudentBand } from '@/domain/lesson-load/report';
import type { StudentLoad } from '@/domain/lesson-load/summary';
import { CURRICULUM_TARGETS, ZONES, type Zone } from '@/domain/lesson-load/zones';
import { Chart } from '@/components/chart/chart';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDateTime } from '@/lib/date-time';
import { cn } from '@/lib/cn';
import { exportLoadReport, loadKey, printLoadReport, useLoadReport, type LoadFamily } from './api';
import { curveOption, type CurveLabels } from './charts';
import { bpm, minutesOf, percent, VerdictBadge } from './format';

/** How each zone shows: a swatch beside its name (the name always says it; colour only helps). */
const ZONE_COLOUR: Record<Zone, string> = { rest: 'bg-slate-400', moderate: 'bg-sky-500', target: 'bg-emerald-500', high: 'bg-amber-500', danger: 'bg-red-600' };
const BAND_VARIANT: Record<StudentBand, 'warning' | 'success' | 'destructive'> = { below: 'warning', within: 'success', above: 'destructive' };
/** Students picked for the comparison chart at most (more lines stop being readable). */
const PICK_MAX = 6;

type Student = LoadReport['students'][number] & { load: StudentLoad; band: StudentBand | null };

/**
 * class/load/lesson/:lessonId (docs/product-rules.md#lesson-load, "Reports"): one lesson's load — the class curve with
 * the main part and the target band, each student's curve (picked against the class, or all as small charts), time in
 * each zone, density, peak and recovery against the curriculum targets — with its A4 print and workbook.
 */
export function LessonReportScreen({ family }: { family: LoadFamily }) {
  const { t } = useTranslation('lessonLoad');
  const { lessonId } = useParams();
  const access = usePageAccess(loadKey(family));
  const query = useLoadReport(family, lessonId);
  const dateTime = useDateTime();
  const [busy, setBusy] = useState<'print' | 'export' | null>(null);
  const run = (what: 'print' | 'export') => {
    if (!lessonId) return;
    setBusy(what);
    void (what === 'print' ? printLoadReport(family, lessonId) : exportLoadReport(family, lessonId)).finally(() => setBusy(null));
  };
  const r = query.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="load-report">
      <PageHeader
        title={t('report.printTitle')}
        // The class first, in the description: a long class name wraps there where the title would cut it on a phone.
        description={r ? [r.lesson.className, dateTime(r.lesson.startedAt), r.lesson.teacherName, t('report.subtitle', { minutes: r.lesson.minutes, students: r.load.students.length })].filter(Boolean).join(' · ') : undefined}
        back={{ safe: true }}
        actions={
          r ? (
            <>
              {access.can('print') ? (
                <Button variant="outline" disabled={busy !== null} onClick={() => run('print')} data-testid="load-print">
                  <Printer aria-hidden />
                  {t('menus:button.print')}
                </Button>
              ) : null}
              {access.can('export') ? (
                <Button variant="outline" disabled={busy !== null} onClick={() => run('export')} data-testid="load-export">
                  <FileSpreadsheet aria-hidden />
                  {t('menus:button.export')}
                </Button>
              ) : null}
            </>
          ) : null
        }
      />
      <QueryState query={query} data={r}>
        {(report: LoadReport) => <ReportBody report={report} />}
      </QueryState>
    </div>
  );
}

function ReportBody({ report }: { report: LoadReport }) {
  const { t } = useTranslation('lessonLoad');
  const { load } = report;
  const students = useMemo<Student[]>(() => {
    const byId = new Map(load.students.map((s) => [s.studentId, s]));
    return report.students.map((p) => {
      const s = byId.get(p.studentId)!;
      return { ...p, load: s, band: studentBand(s) };
    });
  }, [report, load.students]);
  const labels = useMemo<CurveLabels>(
    () => ({
      classMean: t('report.legend.curve'),
      mainPart: t('report.legend.main'),
      band: t('report.legend.band'),
      minute: (minute) => t('report.minuteLabel', { minute }),
      bpm: t('report.bpmUnit'),
    }),
    [t],
  );
  const classOption = useMemo(() => curveOption(report, labels), [report, labels]);
  return (
    <>
      {report.lesson.inProgress ? (
        <p role="status" className="rounded-md border border-info/40 bg-info/10 px-3 py-2 text-sm">
          {t('report.figuresInProgress')}
        </p>
      ) : null}
      <Figures report={report} />
      <Card>
        <CardHeader>
          <CardTitle>{t('report.curveTitle')}</CardTitle>
          <CardDescription>{t('report.mainPartRange', { from: load.mainPart.from + 1, to: load.mainPart.to })}</CardDescription>
        </CardHeader>
        <CardContent>
          <Chart option={classOption} height={300} aria-label={t('report.curveLabel', { bpm: bpm(load.mainMeanBpm) })} />
        </CardContent>
      </Card>
      <StudentCurves report={report} students={students} labels={labels} />
      <Zones report={report} students={students} />
    </>
  );
}

/** One figure: its value, the curriculum target and whether it is met (none while the lesson runs). */
function Tile({ label, value, target, met = null, hint, 'data-testid': testId }: { label: string; value: string; target?: string; met?: boolean | null; hint?: ReactNode; 'data-testid': string }) {
  const { t } = useTranslation('lessonLoad');
  return (
    <div className="grid content-start gap-1 rounded-lg border bg-card p-3" data-testid={testId}>
      <div className="text-sm text-muted-foreground">{label}</div>
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="text-2xl font-semibold tabular-nums">{value}</span>
        {met === null ? null : <Badge variant={met ? 'success' : 'warning'}>{met ? t('report.filter.meetsYes') : t('report.filter.meetsNo')}</Badge>}
      </div>
      {target ? <div className="text-xs text-muted-foreground">{t('report.targetLine', { target })}</div> : null}
      {hint ? <div className="text-xs text-muted-foreground">{hint}</div> : null}
    </div>
  );
}

/** The figures against the three curriculum targets, then the class's other figures. */
function Figures({ report }: { report: LoadReport }) {
  const { t } = useTranslation('lessonLoad');
  const { load } = report;
  const judged = !report.lesson.inProgress;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {t('report.targetsTitle')} <VerdictBadge row={report.lesson} />
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Tile label={t('report.column.groupDensity')} value={percent(load.groupDensity)} target={t('report.atLeast', { value: percent(CURRICULUM_TARGETS.groupDensity) })} met={judged ? load.targets.groupDensity : null} data-testid="load-group-density" />
          <Tile label={t('report.column.individualDensity')} value={percent(load.individualDensity)} target={t('report.atLeast', { value: percent(CURRICULUM_TARGETS.individualDensity) })} met={judged ? load.targets.individualDensity : null} data-testid="load-individual-density" />
          <Tile label={t('report.column.mainMeanBpm')} value={bpm(load.mainMeanBpm)} target={t('report.between', { min: CURRICULUM_TARGETS.meanBpmMin, max: CURRICULUM_TARGETS.meanBpmMax })} met={judged ? load.targets.meanBpm : null} data-testid="load-main-mean" />
        </div>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Tile label={t('report.column.targetShare')} value={percent(load.targetShare)} data-testid="load-target-share" />
          <Tile label={t('report.peakBpm')} value={bpm(load.peakBpm)} data-testid="load-peak" />
          <Tile label={t('report.recoveryBpm')} value={bpm(load.recoveryBpm)} hint={t('report.recoveryHelp')} data-testid="load-recovery" />
        </div>
        <details className="rounded-md bg-muted/40 px-3 py-2 text-sm" data-testid="load-density-help">
          <summary className="cursor-pointer font-medium">{t('report.densityHelpLabel')}</summary>
          <p className="mt-1 text-muted-foreground">{t('report.densityHelp')}</p>
        </details>
      </CardContent>
    </Card>
  );
}

/** A student's curve as a small line: the 140–160 band shaded, the class mean dotted behind. */
function Sparkline({ curve, classCurve, span, label }: { curve: Student['curve']; classCurve: LoadReport['load']['curve']; span: number; label: string }) {
  const [w, h, lo, hi] = [160, 44, 60, 200];
  const x = (m: number) => ((m + 0.5) / span) * w;
  const y = (v: number) => h - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * h;
  const path = (c: readonly { minute: number; meanBpm: number }[]) =>
    c.map((p, i) => `${i === 0 || p.minute !== c[i - 1].minute + 1 ? 'M' : 'L'}${x(p.minute).toFixed(1)},${y(p.meanBpm).toFixed(1)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${w} ${h}`} className="h-11 w-full" role="img" aria-label={label} preserveAspectRatio="none">
      <rect x={0} y={y(CURRICULUM_TARGETS.meanBpmMax)} width={w} height={y(CURRICULUM_TARGETS.meanBpmMin) - y(CURRICULUM_TARGETS.meanBpmMax)} className="fill-emerald-500/15" />
      <path d={path(classCurve)} fill="none" className="stroke-muted-foreground/50" strokeWidth={1} strokeDasharray="2 2" vectorEffect="non-scaling-stroke" />
      <path d={path(curve)} fill="none" className="stroke-primary" strokeWidth={1.6} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/**
 * Each student's curve: picked students against the class mean (one chart, a few lines), or every student as a small
 * chart (small SVG lines: 45 chart instances would cost a canvas each for a glance).
 */
function StudentCurves({ report, students, labels }: { report: LoadReport; students: Student[]; labels: CurveLabels }) {
  const { t } = useTranslation('lessonLoad');
  const [picked, setPicked] = useState<string[]>(() => students.filter((s) => s.band === 'below' || s.band === 'above').slice(0, 3).map((s) => s.studentId));
  const [find, setFind] = useState('');
  const span = Math.max(report.lesson.minutes, (report.load.curve.at(-1)?.minute ?? 0) + 1);
  const shown = students.filter((s) => !find.trim() || s.name.includes(find.trim()) || s.regNo.includes(find.trim()));
  const option = useMemo(() => curveOption(report, labels, students.filter((s) => picked.includes(s.studentId))), [report, labels, students, picked]);
  const toggle = (id: string, on: boolean) => setPicked((p) => (on ? [...p, id].slice(-PICK_MAX) : p.filter((x) => x !== id)));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('report.studentCurves')}</CardTitle>
        <CardDescription>{t('report.studentCurvesHint')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="overlay">
          <TabsList>
            <TabsTrigger value="overlay">{t('report.overlay')}</TabsTrigger>
            <TabsTrigger value="all" data-testid="load-small-multiples">
              {t('report.smallMultiples')}
            </TabsTrigger>
          </TabsList>
          <TabsContent value="overlay" className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_16rem]">
            <Chart option={option} height={320} aria-label={t('report.studentCurves')} />
            <fieldset className="grid content-start gap-2">
              <legend className="mb-1 text-sm font-medium">{t('report.pickStudents')}</legend>
              <Input value={find} onChange={(e) => setFind(e.target.value)} placeholder={t('report.search')} aria-label={t('report.search')} maxLength={30} />
              <ul className="grid max-h-64 grid-cols-2 gap-x-2 gap-y-1 overflow-y-auto pr-1 lg:grid-cols-1" data-testid="load-pick">
                {shown.map((s) => (
                  <li key={s.studentId}>
                    <label className="flex min-w-0 items-center gap-2 text-sm">
                      <Checkbox checked={picked.includes(s.studentId)} onCheckedChange={(v) => toggle(s.studentId, v === true)} />
                      <span className="truncate">{s.name}</span>
                      {s.band && s.band !== 'within' ? <span className="shrink-0 text-xs text-muted-foreground">{t(`report.band.${s.band}`)}</span> : null}
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          </TabsContent>
          <TabsContent value="all">
            <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5 xl:grid-cols-6">
              {students.map((s) => (
                <li key={s.studentId} className="min-w-0 rounded-md border p-2">
                  <div className="flex items-baseline justify-between gap-1 text-xs">
                    <span className="truncate font-medium">{s.name}</span>
                    <span className="shrink-0 tabular-nums text-muted-foreground">{bpm(s.load.mainMeanBpm)}</span>
                  </div>
                  <Sparkline curve={s.curve} classCurve={report.load.curve} span={span} label={`${s.name}: ${bpm(s.load.mainMeanBpm)} ${t('report.bpmUnit')}`} />
                </li>
              ))}
            </ul>
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

/** Time in each zone: the class as one bar, the students below and above the band, then every student's figures. */
function Zones({ report, students }: { report: LoadReport; students: Student[] }) {
  const { t } = useTranslation('lessonLoad');
  const measured = report.load.students.reduce((s, st) => s + st.measured, 0);
  const classZones = ZONES.map((z) => ({ zone: z, seconds: report.load.students.reduce((s, st) => s + st.zones[z], 0) }));
  const below = students.filter((s) => s.band === 'below');
  const above = students.filter((s) => s.band === 'above');
  const names = (list: Student[]) => (list.length ? list.map((s) => t('report.studentWithBpm', { name: s.name, bpm: bpm(s.load.mainMeanBpm) })).join(t('report.listSeparator')) : t('report.none'));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('report.zonesTitle')}</CardTitle>
        <CardDescription>{t('report.belowAbove', { below: below.length, above: above.length })}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2" data-testid="load-class-zones">
          <div className="flex h-4 w-full overflow-hidden rounded" aria-hidden>
            {classZones.map((z) => (measured && z.seconds ? <div key={z.zone} className={ZONE_COLOUR[z.zone]} style={{ width: `${(z.seconds / measured) * 100}%` }} /> : null))}
          </div>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {classZones.map((z) => (
              <li key={z.zone} className="flex items-center gap-1.5">
                <span className={cn('size-2.5 rounded-sm', ZONE_COLOUR[z.zone])} aria-hidden />
                {t(`zones.${z.zone}`)} <span className="tabular-nums text-muted-foreground">{percent(measured ? Math.round((z.seconds / measured) * 1000) / 1000 : null)}</span>
              </li>
            ))}
          </ul>
        </div>
        <dl className="grid gap-2 text-sm sm:grid-cols-2" data-testid="load-below-above">
          <div>
            <dt className="font-medium">{t('report.belowList')}</dt>
            <dd className="text-muted-foreground">{names(below)}</dd>
          </div>
          <div>
            <dt className="font-medium">{t('report.aboveList')}</dt>
            <dd className="text-muted-foreground">{names(above)}</dd>
          </div>
        </dl>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t('report.studentsTitle')}>
          <table className="w-full text-sm" data-testid="load-students">
            <thead>
              <tr className="border-b bg-muted/40 text-left">
                <th scope="col" className="px-2 py-2 whitespace-nowrap">{t('report.student.name')}</th>
                <th scope="col" className="px-2 py-2 text-right whitespace-nowrap">{t('report.student.mainMeanBpm')}</th>
                <th scope="col" className="px-2 py-2 text-right whitespace-nowrap">{t('report.peakBpm')}</th>
                <th scope="col" className="px-2 py-2 text-right whitespace-nowrap">{t('report.student.density')}</th>
                {ZONES.map((z) => (
                  <th key={z} scope="col" className="px-2 py-2 text-right whitespace-nowrap">
                    <span className="inline-flex items-center gap-1">
                      <span className={cn('size-2 rounded-sm', ZONE_COLOUR[z])} aria-hidden />
                      {t('report.zoneMinutes', { zone: t(`zones.${z}`) })}
                    </span>
                  </th>
                ))}
                <th scope="col" className="px-2 py-2 whitespace-nowrap">{t('report.student.band')}</th>
              </tr>
            </thead>
            <tbody>
              {students.map((s) => (
                <tr key={s.studentId} className="border-b last:border-0">
                  <th scope="row" className="px-2 py-1.5 text-left font-normal whitespace-nowrap">{s.name}</th>
                  <td className="px-2 py-1.5 text-right tabular-nums">{bpm(s.load.mainMeanBpm)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{bpm(s.load.peakBpm)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{percent(s.load.density)}</td>
                  {ZONES.map((z) => (
                    <td key={z} className="px-2 py-1.5 text-right tabular-nums">{minutesOf(s.load.zones[z])}</td>
                  ))}
                  <td className="px-2 py-1.5">{s.band ? <Badge variant={BAND_VARIANT[s.band]}>{t(`report.band.${s.band}`)}</Badge> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </CardContent>
    </Card>
  );
}
