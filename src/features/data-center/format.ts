import type { TFunction } from 'i18next';
import type { ItemKey } from '@/domain/physique/standard';
import { ITEM_KEYS } from '@/domain/physique/standard';
import type { ItemStats, LevelCounts } from '@/domain/data-center/types';
import type { ScoreLevel } from '@/domain/physique/level';
import { gradeNameKey } from '@/domain/school/grade-name';
import { countFormat, rateFormat } from '@/lib/number-format';

/** Shown where a figure has nothing to divide by. */
export const NO_FIGURE = '—';

/** A rate 0–1 as a percentage with one decimal ('12.3%'), or '—'. */
export function formatRate(rate: number | null | undefined, locale = 'zh-CN'): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return NO_FIGURE;
  return rateFormat(locale).format(rate);
}

/** A score or mean with one decimal, or '—'. */
export function formatScore(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_FIGURE;
  return value.toFixed(1);
}

/** A whole count with the locale's grouping, or '—'. */
export function formatCount(value: number | null | undefined, locale = 'zh-CN'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_FIGURE;
  return countFormat(locale).format(value);
}

/** A rate 0–1 as a chart value in percent with one decimal (null stays null: a gap, not a zero). */
export function percent(rate: number | null | undefined): number | null {
  return rate === null || rate === undefined ? null : Math.round(rate * 1000) / 10;
}

export const gradeLabel = (t: TFunction, gradeNo: number | null | undefined): string =>
  gradeNo ? t(gradeNameKey(gradeNo), { defaultValue: String(gradeNo) }) : NO_FIGURE;

export const itemLabel = (t: TFunction, item: ItemKey | 'total'): string =>
  item === 'total' ? t('dashboard:figure.meanTotal') : t(`physique:item.${item}`);

/** Short item names for crowded axes (the full name shows in the tooltip). */
export const itemShortLabel = (t: TFunction, item: ItemKey | 'total'): string =>
  item === 'total' ? t('dashboard:figure.total') : t(`dashboard:itemShort.${item}`);

/** Items present in any of the stats, in the national standard's order. */
export function itemsIn(...stats: (ItemStats | undefined)[]): ItemKey[] {
  return ITEM_KEYS.filter((k) => stats.some((s) => s?.[k] && (s[k]?.n ?? 0) > 0));
}

/** Items with scores (everything but BMI, which is reported by bands). */
export function scoredItemsIn(...stats: (ItemStats | undefined)[]): ItemKey[] {
  return itemsIn(...stats).filter((k) => k !== 'bmi');
}

/** "2025-2026 秋季学期" style label of a period. */
export function periodLabel(t: TFunction, academicYear: string | null, semesterCode: number | null): string {
  if (!academicYear) return t('dashboard:period.none');
  return semesterCode ? t('dashboard:period.yearSemester', { year: academicYear, semester: t(`dashboard:semester.${semesterCode}`) }) : t('dashboard:period.year', { year: academicYear });
}

/** Level shares from level counts (rows that carry counts only). */
export function levelRatesOf(levels: LevelCounts): Record<ScoreLevel, number | null> {
  const total = levels.excellent + levels.good + levels.pass + levels.fail;
  const rate = (n: number) => (total ? n / total : null);
  return { excellent: rate(levels.excellent), good: rate(levels.good), pass: rate(levels.pass), fail: rate(levels.fail) };
}
