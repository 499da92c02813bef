import type { SchoolFamily } from '@/domain/menus/access';
import { useState } from 'react';
import { CalendarDays, Eraser, Printer, Shuffle, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { usesLanes } from '@/domain/meets/meets';
import { clockOf } from '@/domain/meets/schedule';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/lib/toast';
import { meets, useArrangement, useMeetCalls, type Arrangement } from '../api';
import { CancelGroupingButton, MoveAthleteButton } from './arrange-moves';
import { MeetBookButtons } from './book-buttons';
import { HeatSheets } from './heat-sheets';
import { RelayLegs, useHeatTitle } from './heat-parts';

/** detail/arrange/:meetId: the draw (seeded or random, replayable by seed), the schedule, conflicts and the heats with lanes. */
export function ArrangeScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId = '' } = useParams();
  const meet = meets(family).useGet(meetId);
  const arrangement = useArrangement(family, meetId);
  const calls = useMeetCalls(family, meetId);
  const access = usePageAccess(`${family}.sportsMeet.manage`);
  const [ask, setAsk] = useState<'schedule' | 'clear' | null>(null);
  const canCalendar = access.can('calendar');
  const run = async (p: Promise<unknown>, done: string) => {
    await p;
    toast.success(done);
  };
  const a = arrangement.data;
  // A heat's lanes (track) or order positions (field) bound a manual move.
  const lanesOf = (eventId: string) => {
    const e = meet.data?.groups.flatMap((g) => g.events).find((x) => x.id === eventId);
    return e ? (usesLanes(e.type) ? e.lanes : e.heatSize) : 0;
  };
  const sheetEventOf = (eventId: string) => meet.data?.groups.flatMap((g) => g.events).find((x) => x.id === eventId);
  return (
    <>
      <div className="grid gap-4 print:hidden" data-testid="meet-arrange">
        <Card>
          <CardHeader>
            <CardTitle>{meet.data?.name ?? ''}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-wrap items-center gap-3">
            {a ? <Badge data-testid="arrange-state">{t(`arrange.${a.arrangeState}`)}</Badge> : null}
            {a?.drawSeed ? <span className="text-sm text-muted-foreground">{t('arrangeScreen.seed', { seed: a.drawSeed, mode: t(`drawMode.${a.drawMode ?? 'seeded'}`) })}</span> : null}
            <div className="ms-auto flex flex-wrap gap-2">
              <Button onClick={() => void run(calls.draw.mutateAsync({ mode: 'seeded' }), t('arrangeScreen.drawn'))} loading={calls.draw.isPending} data-testid="draw-seeded">
                <Sparkles aria-hidden /> {t('arrangeScreen.drawSeeded')}
              </Button>
              <Button variant="outline" onClick={() => void run(calls.draw.mutateAsync({ mode: 'random' }), t('arrangeScreen.drawn'))} loading={calls.draw.isPending}>
                <Shuffle aria-hidden /> {t('arrangeScreen.drawRandom')}
              </Button>
              <Button
                variant="outline"
                onClick={() => (a?.arrangeState === 'scheduled' ? setAsk('schedule') : void run(calls.schedule.mutateAsync(false), t('arrangeScreen.scheduled')))}
                disabled={!a || a.arrangeState === 'ungrouped'}
                data-testid="schedule"
              >
                <CalendarDays aria-hidden /> {t('arrangeScreen.schedule')}
              </Button>
              <Button variant="outline" onClick={() => setAsk('clear')} disabled={!a || a.arrangeState === 'ungrouped'}>
                <Eraser aria-hidden /> {t('arrangeScreen.clear')}
              </Button>
              <Button variant="outline" onClick={() => window.print()} disabled={!a?.heats.some((h) => h.athletes.length)} data-testid="print-sheets">
                <Printer aria-hidden /> {t('sheet.print')}
              </Button>
              <MeetBookButtons family={family} meetId={meetId} />
              {canCalendar ? (
                <Button variant="ghost" asChild>
                  <a href={access.paths.route('calendar', meetId)}>{t('arrangeScreen.calendar')}</a>
                </Button>
              ) : null}
            </div>
          </CardContent>
        </Card>
        <ConfirmDialog
          open={ask === 'schedule'}
          onOpenChange={(o) => setAsk(o ? 'schedule' : null)}
          title={t('arrangeScreen.rescheduleTitle')}
          description={t('arrangeScreen.rescheduleText')}
          destructive
          onConfirm={() => run(calls.schedule.mutateAsync(true), t('arrangeScreen.scheduled'))}
        />
        <ConfirmDialog
          open={ask === 'clear'}
          onOpenChange={(o) => setAsk(o ? 'clear' : null)}
          title={t('arrangeScreen.clearTitle')}
          description={t('arrangeScreen.clearText')}
          destructive
          onConfirm={() => run(calls.clear.mutateAsync(undefined), t('arrangeScreen.cleared'))}
        />
        <QueryState query={arrangement} data={a}>
          {(data) => <Heats data={data} family={family} meetId={meetId} lanesOf={lanesOf} />}
        </QueryState>
      </div>
      {a ? <HeatSheets meetName={meet.data?.name ?? ''} data={a} eventOf={sheetEventOf} /> : null}
    </>
  );
}

function Conflicts({ data }: { data: Arrangement }) {
  const { t } = useTranslation('meets');
  const title = useHeatTitle();
  if (!data.conflicts.length) return null;
  const heat = (id: string) => data.heats.find((h) => h.id === id);
  return (
    <div role="alert" className="rounded-md border border-warning p-3 text-sm text-warning" data-testid="conflicts">
      <p className="font-medium">{t('arrangeScreen.conflicts', { count: data.conflicts.length })}</p>
      <ul className="list-disc ps-5">
        {data.conflicts.slice(0, 20).map((c, i) => (
          <li key={i}>
            {t(`conflict.${c.kind}`)}: {c.heatIds.map((id) => (heat(id) ? title(heat(id)!) : id)).join(' / ')}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Heats({ data, family, meetId, lanesOf }: { data: Arrangement; family: SchoolFamily; meetId: string; lanesOf(eventId: string): number }) {
  const { t } = useTranslation('meets');
  const title = useHeatTitle();
  if (!data.heats.length) return <p className="text-sm text-muted-foreground">{t('arrangeScreen.empty')}</p>;
  return (
    <div className="grid gap-4">
      <Conflicts data={data} />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {data.heats.map((h) => (
          <Card key={h.id} data-testid="heat">
            <CardHeader>
              <div className="flex items-center justify-between gap-2">
                <CardTitle className="text-base">{title(h)}</CardTitle>
                {h.round === 0 && h.no === 1 ? <CancelGroupingButton family={family} meetId={meetId} heat={h} /> : null}
              </div>
              <p className="text-sm text-muted-foreground">{h.startMin != null ? `${data.days[h.day ?? 0]} ${clockOf(h.startMin)}–${clockOf(h.endMin ?? h.startMin)}` : t('arrangeScreen.unscheduled')}</p>
            </CardHeader>
            <CardContent>
              {h.athletes.length ? (
                <table className="w-full text-sm">
                  <thead>
                    <tr className="text-left text-muted-foreground">
                      <th className="py-1 font-normal">{h.type === 'track' || h.type === 'relay' ? t('heat.lane') : t('heat.order')}</th>
                      <th className="py-1 font-normal">{t('heat.bib')}</th>
                      <th className="py-1 font-normal">{t('heat.name')}</th>
                      <th className="py-1 font-normal">{t('heat.className')}</th>
                      <th className="py-1 font-normal">
                        <span className="sr-only">{t('arrangeScreen.move')}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {h.athletes.map((x) => (
                      <tr key={x.id} className="border-t">
                        <td className="py-1 font-mono">{x.lane}</td>
                        <td className="py-1 font-mono">{x.bib}</td>
                        <td className="py-1">
                          {x.name}
                          <RelayLegs members={x.members} />
                        </td>
                        <td className="py-1">{x.className}</td>
                        <td className="py-1 text-right">
                          <MoveAthleteButton family={family} meetId={meetId} data={data} heat={h} athlete={x} lanes={lanesOf(h.eventId)} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p className="text-sm text-muted-foreground">{t('heat.waiting')}</p>
              )}
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}

/** detail/calendar/:meetId: the schedule by day and time, printable (A4) as the order of events. */
export function CalendarScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId = '' } = useParams();
  const meet = meets(family).useGet(meetId);
  const arrangement = useArrangement(family, meetId);
  const title = useHeatTitle();
  return (
    <div className="grid gap-4" data-testid="meet-calendar">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{meet.data?.name}</h2>
        <div className="flex flex-wrap gap-2 print:hidden">
          <Button variant="outline" onClick={() => window.print()}>
            <Printer aria-hidden /> {t('calendar.print')}
          </Button>
          <MeetBookButtons family={family} meetId={meetId} />
        </div>
      </div>
      <QueryState query={arrangement} data={arrangement.data}>
        {(data) => (
          <div className="grid gap-4 lg:grid-cols-2 print:block">
            {data.days.map((d, day) => {
              const heats = data.heats.filter((h) => h.day === day && h.startMin != null).sort((a, b) => a.startMin! - b.startMin!);
              return (
                <Card key={d} className="print:break-inside-avoid">
                  <CardHeader>
                    <CardTitle className="text-base">{t('calendar.day', { no: day + 1, date: d })}</CardTitle>
                  </CardHeader>
                  <CardContent>
                    {heats.length ? (
                      <ol className="grid gap-1 text-sm">
                        {heats.map((h) => (
                          <li key={h.id} className="flex gap-3 border-b py-1" data-testid="calendar-slot">
                            <span className="w-28 shrink-0 font-mono">
                              {clockOf(h.startMin!)}–{clockOf(h.endMin!)}
                            </span>
                            <span>{title(h)}</span>
                            <span className="ms-auto text-muted-foreground">{t('calendar.athletes', { count: h.athletes.length })}</span>
                          </li>
                        ))}
                      </ol>
                    ) : (
                      <p className="text-sm text-muted-foreground">{t('calendar.none')}</p>
                    )}
                  </CardContent>
                </Card>
              );
            })}
          </div>
        )}
      </QueryState>
    </div>
  );
}
