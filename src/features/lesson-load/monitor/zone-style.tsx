import { Flame, Footprints, Pause, Target, TriangleAlert, type LucideIcon } from 'lucide-react';
import type { Zone } from '@/domain/lesson-load/zones';
import { cn } from '@/lib/cn';

/**
 * How a heart-rate zone shows on the monitor: a label and an icon always (never colour alone), dark text on a light
 * tint (or white on red for danger) so every pair passes WCAG AA contrast, and a coloured edge on the tile.
 */
export const ZONE_STYLE: Record<Zone, { icon: LucideIcon; chip: string; edge: string; line: string }> = {
  rest: { icon: Pause, chip: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100', edge: 'border-l-slate-400', line: 'stroke-slate-500' },
  moderate: { icon: Footprints, chip: 'bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-50', edge: 'border-l-sky-500', line: 'stroke-sky-600' },
  target: { icon: Target, chip: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50', edge: 'border-l-emerald-600', line: 'stroke-emerald-700' },
  high: { icon: Flame, chip: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-50', edge: 'border-l-amber-500', line: 'stroke-amber-600' },
  danger: { icon: TriangleAlert, chip: 'bg-red-700 text-white', edge: 'border-l-red-700', line: 'stroke-red-700' },
};

/** A zone's label with its icon, on the zone's tint. */
export function ZoneChip({ zone, label, className }: { zone: Zone; label: string; className?: string }) {
  const style = ZONE_STYLE[zone];
  const Icon = style.icon;
  return (
    <span className={cn('inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-semibold', style.chip, className)} data-zone={zone}>
      <Icon className="size-3.5" aria-hidden />
      {label}
    </span>
  );
}
