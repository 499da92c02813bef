import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { UnitRow } from '@/domain/data-center/types';
import { unitsOption, UNITS_IN_VIEW } from '@/features/data-center/charts/options';
import type { SemanticColors } from '@/features/data-center/hooks/use-level-colors';

const t = ((key: string) => key) as unknown as TFunction;
const colors: SemanticColors = {
  level: { excellent: '#1', good: '#2', pass: '#3', fail: '#4' },
  bmi: { normal: '#1', lowWeight: '#2', overweight: '#3', obese: '#4' },
  series: ['#1', '#2', '#3', '#4', '#5', '#6', '#7', '#8'],
  muted: '#9',
  foreground: '#0',
};
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: `${i + 1}班`, meanTotal: 70 + i / 10, excellentRate: 0.125, passRate: 0.9 }) as unknown as UnitRow);

type Series = { tooltip?: { valueFormatter?: (v: unknown) => string } };
type Axis = { axisLabel: { interval?: number; hideOverlap?: boolean; rotate?: number } };

describe('class comparison chart', () => {
  it('labels every class: none hidden as overlapping, slanted when many, scrolled beyond what fits', () => {
    const few = unitsOption(t, colors, rows(5));
    expect((few.xAxis as Axis).axisLabel).toMatchObject({ interval: 0, rotate: 0 });
    expect(few.dataZoom).toBeUndefined();

    const many = unitsOption(t, colors, rows(30));
    const label = (many.xAxis as Axis).axisLabel;
    expect(label.interval).toBe(0);
    expect(label.hideOverlap).toBeFalsy();
    expect(label.rotate).toBeGreaterThan(0);
    expect(many.dataZoom).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'slider', startValue: 0, endValue: UNITS_IN_VIEW - 1 })]));
  });

  it('shows rates in the tooltip as percentages', () => {
    const series = unitsOption(t, colors, rows(3)).series as Series[];
    const [, excellent, pass] = series;
    expect(excellent.tooltip?.valueFormatter?.(12.5)).toBe('12.5%');
    expect(pass.tooltip?.valueFormatter?.(90)).toBe('90%');
  });
});
