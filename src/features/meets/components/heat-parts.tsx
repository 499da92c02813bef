import { useTranslation } from 'react-i18next';
import type { ArrangedHeat } from '../api';

// Pieces the arrangement screen, its move dialogs and the printed heat sheets share (kept apart so none of them
// imports another's screen).

/** A heat's title: event, group, round and number. */
export function useHeatTitle() {
  const { t } = useTranslation('meets');
  return (h: Pick<ArrangedHeat, 'eventName' | 'groupName' | 'round' | 'no'>) =>
    `${h.groupName} ${h.eventName} · ${h.round > 0 ? t('heat.final') : t('heat.heat', { no: h.no })}`;
}

/** A relay team's runners in leg order under its name (nothing for an athlete). */
export function RelayLegs({ members }: { members: readonly { name: string; leg: number | null }[] }) {
  const legs = members.filter((m) => m.leg != null);
  if (!legs.length) return null;
  return <span className="block text-xs text-muted-foreground" data-testid="relay-legs">{legs.map((m) => `${m.leg}. ${m.name}`).join('  ')}</span>;
}
