import type { SchoolFamily } from '@/domain/menus/access';
import { useState } from 'react';
import { ArrowLeftRight, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { usesLanes, type EventType } from '@/domain/meets/meets';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/lib/toast';
import { useMeetCalls, type ArrangedAthlete, type ArrangedHeat, type Arrangement } from '../api';
import { useHeatTitle } from './heat-parts';

/**
 * Manual moves of the arrangement (docs/product-rules.md#meets): an athlete to another lane (or order) of a heat of
 * the same event and round; a taken lane swaps the two athletes. The server refuses a full heat or a lane beyond the
 * event's, and every move once a result of the event is entered.
 */
export function MoveAthleteButton({ family, meetId, data, heat, athlete, lanes }: { family: SchoolFamily; meetId: string; data: Arrangement; heat: ArrangedHeat; athlete: ArrangedAthlete; lanes: number }) {
  const { t } = useTranslation('meets');
  const calls = useMeetCalls(family, meetId);
  const title = useHeatTitle();
  const [open, setOpen] = useState(false);
  const [heatId, setHeatId] = useState(heat.id);
  const [lane, setLane] = useState(athlete.lane);
  const [error, setError] = useState<string>();
  const siblings = data.heats.filter((h) => h.eventId === heat.eventId && h.round === heat.round);
  const target = siblings.find((h) => h.id === heatId) ?? heat;
  const occupant = target.athletes.find((x) => x.lane === lane && x.id !== athlete.id);
  const laneWord = usesLanes(heat.type as EventType) ? t('heat.lane') : t('heat.order');
  const submit = async () => {
    setError(undefined);
    try {
      await calls.moveLane.mutateAsync({ resultId: athlete.id, heatId, lane });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      throw e;
    }
    toast.success(t('arrangeScreen.moved'));
  };
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        aria-label={t('arrangeScreen.moveOf', { name: athlete.name })}
        onClick={() => {
          setHeatId(heat.id);
          setLane(athlete.lane);
          setError(undefined);
          setOpen(true);
        }}
        data-testid="move-athlete"
      >
        <ArrowLeftRight aria-hidden />
      </Button>
      <ConfirmDialog open={open} onOpenChange={setOpen} title={t('arrangeScreen.moveTitle', { name: athlete.name })} description={t('arrangeScreen.moveText')} confirmText={t('arrangeScreen.move')} onConfirm={submit}>
        <div className="grid gap-3 text-sm">
          <label className="grid gap-1">
            {t('arrangeScreen.toHeat')}
            <select className="h-9 rounded-md border bg-background px-2" value={heatId} onChange={(e) => setHeatId(e.target.value)} data-testid="move-heat">
              {siblings.map((h) => (
                <option key={h.id} value={h.id}>
                  {title(h)}
                </option>
              ))}
            </select>
          </label>
          <label className="grid gap-1">
            {laneWord}
            <select className="h-9 rounded-md border bg-background px-2" value={lane} onChange={(e) => setLane(Number(e.target.value))} data-testid="move-lane">
              {Array.from({ length: lanes }, (_, i) => i + 1).map((l) => {
                const who = target.athletes.find((x) => x.lane === l);
                return (
                  <option key={l} value={l}>
                    {who?.id === athlete.id ? t('arrangeScreen.laneCurrent', { lane: l }) : who ? t('arrangeScreen.laneTaken', { lane: l, name: who.name }) : t('arrangeScreen.laneFree', { lane: l })}
                  </option>
                );
              })}
            </select>
          </label>
          {occupant ? <p className="text-muted-foreground">{t('arrangeScreen.swapHint', { name: occupant.name })}</p> : null}
          {error ? (
            <p role="alert" className="text-destructive">
              {error}
            </p>
          ) : null}
        </div>
      </ConfirmDialog>
    </>
  );
}

/** Cancels the grouping of one event (its heats and lanes go; the entries stay). */
export function CancelGroupingButton({ family, meetId, heat }: { family: SchoolFamily; meetId: string; heat: ArrangedHeat }) {
  const { t } = useTranslation('meets');
  const calls = useMeetCalls(family, meetId);
  const [open, setOpen] = useState(false);
  const name = `${heat.groupName} ${heat.eventName}`;
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} aria-label={t('arrangeScreen.cancelGroupingOf', { name })} data-testid="cancel-grouping">
        <Undo2 aria-hidden /> {t('arrangeScreen.cancelGrouping')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('arrangeScreen.cancelGroupingTitle', { name })}
        description={t('arrangeScreen.cancelGroupingText')}
        destructive
        onConfirm={async () => {
          await calls.clear.mutateAsync([heat.eventId]);
          toast.success(t('arrangeScreen.cleared'));
        }}
      />
    </>
  );
}
