import { useEffect, useRef, useState } from 'react';
import { BellRing, CircleCheck, Hourglass, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { alertAcknowledgeSchema, TREND_MINUTES, type AlertView, type LiveView } from '@/domain/lesson-load/monitor';
import { zoneThresholds, ZONES } from '@/domain/lesson-load/zones';
import { TextareaField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { DetailState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { useDateTime } from '@/lib/date-time';
import { useLiveView, useMonitorWrites, type MonitorFamily } from './api';
import { ZONE_STYLE, ZoneChip } from './zone-style';

type Tile = LiveView['students'][number];
const percent = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);

/** class/monitor/live/:lessonId: the teacher's live view on a phone or tablet, read again every few seconds. */
export function LiveMonitorScreen({ family }: { family: MonitorFamily }) {
  const { t } = useTranslation('lessonLoad');
  const { lessonId = '' } = useParams();
  const access = usePageAccess(`${family}.class.monitor`);
  const query = useLiveView(family, lessonId);
  const time = useDateTime('time');
  const seconds = useDateTime('seconds');
  const [acknowledging, setAcknowledging] = useState<AlertView>();
  const canAcknowledge = access.can('acknowledge');
  const v = query.data;
  useAlertSignal(v?.alerts.open);
  if (!v) return <DetailState query={query} title={t('monitor.liveTitle')} notFound={t('monitor.notFound')} />;
  const { lesson } = v;
  const stale = query.isError;
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-3" data-testid="live-monitor">
      <PageHeader
        back={{ safe: true }}
        title={`${lesson.className} · ${t('monitor.liveTitle')}`}
        description={[lesson.teacherName, lesson.venueName, t('monitor.since', { time: time(lesson.startedAt) })].filter(Boolean).join(' · ')}
        className="pb-0"
      />
      <p className={cn('text-xs', stale ? 'text-destructive font-medium' : 'text-muted-foreground')} aria-live="polite" data-testid="live-updated">
        {stale ? <WifiOff className="mr-1 inline size-3.5" aria-hidden /> : null}
        {lesson.endedAt ? t('monitor.ended', { time: time(lesson.endedAt) }) : t(stale ? 'monitor.staleSince' : 'monitor.updated', { time: seconds(v.now) })}
      </p>

      <section className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label={t('monitor.classNow')} data-testid="live-figures">
        <Figure label={t('monitor.meanBpm')} value={v.current.meanBpm === null ? '—' : String(Math.round(v.current.meanBpm))} unit={t('monitor.bpm')} hint={t('monitor.reading', { count: v.current.reading })} />
        <Figure label={t('monitor.inTarget')} value={percent(v.current.inTarget)} hint={t('monitor.inTargetHint')} />
        <Figure label={t('monitor.groupDensity')} value={percent(v.load.groupDensity)} hint={t('monitor.densityTarget', { value: 75 })} />
        <Figure label={t('monitor.individualDensity')} value={percent(v.load.individualDensity)} hint={t('monitor.densityTarget', { value: 50 })} />
      </section>

      {v.alerts.open.length > 0 ? (
        <section role="alert" className="rounded-lg border-2 border-red-700 bg-red-50 p-3 dark:bg-red-950" data-testid="live-alerts">
          <h2 className="mb-2 flex items-center gap-2 text-base font-semibold text-red-800 dark:text-red-100">
            <BellRing className="size-5" aria-hidden />
            {t('monitor.openAlerts')} ({v.alerts.open.length})
          </h2>
          <ul className="flex flex-col gap-2">
            {v.alerts.open.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-white p-2 dark:bg-red-900" data-testid="live-alert">
                <div className="min-w-0 text-sm">
                  <span className="font-semibold">{a.studentName}</span> · {t(`alerts.${a.kind}`)}
                  <span className="text-muted-foreground block text-xs dark:text-red-100">
                    {t('monitor.alertSince', { time: seconds(a.startedAt) })}
                    {a.peakBpm ? ` · ${t('monitor.peak', { bpm: a.peakBpm })}` : ''}
                  </span>
                </div>
                {canAcknowledge ? (
                  <Button size="sm" variant="destructive" onClick={() => setAcknowledging(a)} data-testid="alert-acknowledge">
                    <CircleCheck aria-hidden />
                    {t('menus:button.acknowledge')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-label={t('monitor.students')} className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-2" data-testid="live-tiles">
        {v.students.map((s) => (
          <StudentTile key={s.id} tile={s} />
        ))}
      </section>

      <ZoneLegend />

      {v.alerts.history.length > 0 ? (
        <Card data-testid="live-history">
          <CardHeader>
            <CardTitle className="text-base">{t('monitor.history')}</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-2 text-sm">
              {v.alerts.history.map((a) => (
                <li key={a.id} className="border-b pb-2 last:border-b-0">
                  <span className="font-medium">{a.studentName}</span> · {t(`alerts.${a.kind}`)} · {seconds(a.startedAt)}
                  <span className="text-muted-foreground block text-xs">
                    {t('monitor.acknowledgedBy', { name: a.acknowledgedBy ?? '—', time: seconds(a.acknowledgedAt!) })}
                    {a.note ? ` · ${a.note}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}

      {acknowledging ? <AcknowledgeDialog family={family} lessonId={lesson.id} alert={acknowledging} onClose={() => setAcknowledging(undefined)} /> : null}
    </div>
  );
}

function Figure({ label, value, unit, hint }: { label: string; value: string; unit?: string; hint?: string }) {
  return (
    <div className="bg-card rounded-lg border p-2">
      <div className="text-muted-foreground text-xs">{label}</div>
      <div className="text-2xl font-semibold tabular-nums">
        {value}
        {unit ? <span className="text-muted-foreground ml-1 text-xs font-normal">{unit}</span> : null}
      </div>
      {hint ? <div className="text-muted-foreground text-xs">{hint}</div> : null}
    </div>
  );
}

/** One student: bpm, zone (label and icon), the band's state and the trend of the last minutes. */
export function StudentTile({ tile }: { tile: Tile }) {
  const { t } = useTranslation('lessonLoad');
  const zone = tile.zone;
  const status =
    tile.state === 'reading' && zone ? t(`zones.${zone}`) : tile.state === 'silent' ? t('monitor.state.silent') : tile.state === 'waiting' ? t('monitor.state.waiting') : t('monitor.state.noBand');
  return (
    <article
      className={cn('bg-card flex flex-col gap-1 rounded-lg border border-l-4 p-2', zone ? ZONE_STYLE[zone].edge : 'border-l-muted', zone === 'danger' && 'ring-2 ring-red-700')}
      aria-label={`${tile.name}: ${tile.state === 'reading' ? `${tile.bpm} ${t('monitor.bpm')}, ` : ''}${status}`}
      data-testid="live-tile"
      data-state={tile.state}
    >
      <div className="flex items-baseline justify-between gap-1">
        <span className="truncate text-sm font-medium">{tile.name}</span>
        {tile.band ? <span className="text-muted-foreground font-mono text-[11px]">{tile.band}</span> : null}
      </div>
      <div className="flex flex-wrap items-end justify-between gap-1">
        <span className={cn('text-3xl leading-none font-semibold tabular-nums', tile.state !== 'reading' && 'text-muted-foreground')} data-testid="tile-bpm">
          {tile.bpm ?? '—'}
        </span>
        {tile.state === 'reading' && zone ? (
          <ZoneChip zone={zone} label={status} />
        ) : (
          <span className="text-muted-foreground inline-flex items-center gap-1 text-xs font-medium">
            {tile.state === 'silent' ? <WifiOff className="size-3.5" aria-hidden /> : tile.state === 'waiting' ? <Hourglass className="size-3.5" aria-hidden /> : null}
            {status}
          </span>
        )}
      </div>
      <Sparkline points={tile.trend} age={tile.age} className={zone ? ZONE_STYLE[zone].line : 'stroke-muted-foreground'} />
    </article>
  );
}

const SPARK_MIN = 60;
const SPARK_MAX = 220;
/** The last TREND_MINUTES minutes as a line (gaps stay gaps), with the target zone's floor as a dashed guide. */
function Sparkline({ points, age, className }: { points: (number | null)[]; age: number; className: string }) {
  const w = 100;
  const h = 24;
  const y = (bpm: number) => h - ((Math.min(SPARK_MAX, Math.max(SPARK_MIN, bpm)) - SPARK_MIN) / (SPARK_MAX - SPARK_MIN)) * h;
  const x = (i: number) => (points.length > 1 ? (i / (points.length - 1)) * w : 0);
  const segments: string[] = [];
  let current = '';
  points.forEach((p, i) => {
    if (p === null) {
      if (current) segments.push(current);
      current = '';
    } else current += `${current ? 'L' : 'M'}${x(i).toFixed(1)},${y(p).toFixed(1)}`;
  });
  if (current) segments.push(current);
  const target = y(zoneThresholds(age).target);
  return (
    <svg viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" className="h-6 w-full" aria-hidden data-testid="tile-trend" data-minutes={TREND_MINUTES}>
      <line x1="0" x2={w} y1={target} y2={target} className="stroke-emerald-700/40" strokeDasharray="2 2" vectorEffect="non-scaling-stroke" />
      {segments.map((d, i) => (
        <path key={i} d={d} fill="none" className={className} strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
      ))}
    </svg>
  );
}

function ZoneLegend() {
  const { t } = useTranslation('lessonLoad');
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="live-legend">
      <span className="text-muted-foreground">{t('monitor.legend')}</span>
      {ZONES.map((z) => (
        <ZoneChip key={z} zone={z} label={t(`zones.${z}`)} />
      ))}
    </div>
  );
}

/** A new open alert vibrates the phone once (where the browser can); the alert box itself is announced (role=alert). */
function useAlertSignal(open: AlertView[] | undefined) {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!open) return;
    const ids = new Set(open.map((a) => a.id));
    if (seen.current && [...ids].some((id) => !seen.current!.has(id))) navigator.vibrate?.(300);
    seen.current = ids;
  }, [open]);
}

function AcknowledgeDialog({ family, lessonId, alert, onClose }: { family: MonitorFamily; lessonId: string; alert: AlertView; onClose(): void }) {
  const { t } = useTranslation('lessonLoad');
  const writes = useMonitorWrites(family);
  return (
    <FormDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      schema={alertAcknowledgeSchema}
      defaults={{ note: '' }}
      title={t('monitor.acknowledgeTitle', { name: alert.studentName })}
      description={t(`alerts.${alert.kind}`)}
      submit={(body) => writes.acknowledge.mutateAsync({ lessonId, alertId: alert.id, ...body })}
      success={t('monitor.acknowledged')}
      onDone={onClose}
      submitText={t('menus:button.acknowledge')}
      data-testid="acknowledge-dialog"
    >
      {() => <TextareaField name="note" label={t('monitor.note')} placeholder={t('monitor.notePlaceholder')} />}
    </FormDialog>
  );
}
