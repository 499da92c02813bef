import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { levelOf, type ScoreLevel } from '@/domain/physique/level';
import type { ItemKey } from '@/domain/physique/standard';
import type { ItemStats } from '@/domain/data-center/types';
import { cn } from '@/lib/cn';
import { formatScore, itemLabel, itemShortLabel } from '../format';

/**
 * Level colours halfway to the foreground, and tints of at most 25%: every cell's text stays at 4.5:1 or more on
 * its tint in the light, dark and wall themes (WCAG 2.1 AA), where the plain level colours on a strong tint do not.
 */
const LEVEL_TEXT: Record<ScoreLevel, string> = {
  excellent: 'text-[color-mix(in_srgb,var(--success)_50%,var(--foreground))]',
  good: 'text-[color-mix(in_srgb,var(--primary)_50%,var(--foreground))]',
  pass: 'text-foreground',
  fail: 'text-[color-mix(in_srgb,var(--destructive)_50%,var(--foreground))]',
};

/** The smallest score range the tints spread over: a table whose means lie within a few points stays pale. */
const MIN_TINT_SPAN = 10;

/**
 * Cell tint relative to the table: means sit close together (most are "pass"), so the colour spreads the table's own
 * range — red below its middle, green above — while the text colour keeps the absolute level. The range counts as at
 * least MIN_TINT_SPAN points, so 74.4 beside 75.8 is not painted as far apart as 60 beside 90.
 */
export function heatTint(mean: number, min: number, max: number): string {
  if (!(max > min)) return 'color-mix(in srgb, var(--muted) 100%, transparent)';
  const x = 0.5 + (mean - (min + max) / 2) / Math.max(max - min, MIN_TINT_SPAN);
  const strength = Math.round(Math.abs(x - 0.5) * 2 * 17) + 8;
  const color = x < 0.5 ? 'var(--destructive)' : 'var(--success)';
  return `color-mix(in srgb, ${color} ${strength}%, transparent)`;
}

export interface HeatRow {
  id: string;
  label: string;
  items: ItemStats;
}

/**
 * Mean score of every item (columns) for every group (rows), each cell tinted by the level of its mean: the
 * "mean score per item by grade" heat map. A row click drills into that group.
 */
export function ItemHeatTable({
  rows,
  items,
  onRowClick,
  wall = false,
  rowHeader,
}: {
  rows: readonly HeatRow[];
  items: readonly ItemKey[];
  onRowClick?(id: string): void;
  wall?: boolean;
  rowHeader: string;
}) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const means = rows.flatMap((r) => items.map((item) => r.items[item]?.meanScore ?? null)).filter((v): v is number => v !== null);
  const min = Math.min(...means);
  const max = Math.max(...means);
  const onKey = (e: KeyboardEvent, id: string) => {
    if (onRowClick && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onRowClick(id);
    }
  };
  return (
    <div className="overflow-x-auto" data-testid="item-heat-table">
      {/* On a wall the table must fit its panel: fixed columns, wrapping headers, tighter rows. */}
      <table className={cn('w-full border-separate border-spacing-1 text-sm', wall && 'table-fixed border-spacing-[3px] text-[22px]')}>
        <thead>
          <tr>
            <th scope="col" className={cn('px-2 py-1 text-left font-medium whitespace-nowrap text-muted-foreground', wall && 'w-[104px] text-[18px]')}>
              {rowHeader}
            </th>
            {items.map((item) => (
              <th
                key={item}
                scope="col"
                title={itemLabel(t, item)}
                className={cn('px-2 py-1 text-center font-medium whitespace-nowrap text-muted-foreground', wall && 'px-0.5 text-[18px] leading-tight whitespace-normal')}
              >
                {itemShortLabel(t, item)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              tabIndex={onRowClick ? 0 : undefined}
              onClick={onRowClick ? () => onRowClick(row.id) : undefined}
              onKeyDown={onRowClick ? (e) => onKey(e, row.id) : undefined}
              className={cn(onRowClick && 'cursor-pointer hover:opacity-80 focus-visible:outline-2 focus-visible:outline-ring')}
            >
              <th scope="row" className={cn('px-2 py-1.5 text-left font-medium whitespace-nowrap', wall && 'py-[3px]')}>
                {row.label}
              </th>
              {items.map((item) => {
                const mean = row.items[item]?.meanScore ?? null;
                return (
                  <td
                    key={item}
                    className={cn('rounded-md px-2 py-1.5 text-center tabular-nums', mean === null ? 'text-muted-foreground' : LEVEL_TEXT[levelOf(mean)], wall && 'px-0.5 py-[3px]')}
                    style={mean === null ? undefined : { background: heatTint(mean, min, max) }}
                  >
                    {formatScore(mean)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
