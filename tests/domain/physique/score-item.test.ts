import { describe, expect, it } from 'vitest';
import { bmiFromHeightWeight } from '@/domain/physique/bmi';
import { levelOf, roundTenth } from '@/domain/physique/level';
import { scoreItem } from '@/domain/physique/score';
import type { Grade } from '@/domain/physique/standard';
import { SOURCE, sourceTables } from './fixture';

// Written out instead of reusing levelOf: item levels of the official tables (优秀 90–100, 良好 80–85, 及格 60–78, 不及格 0–50).
const EXPECTED_LEVEL: Record<number, string> = { 100: 'excellent', 95: 'excellent', 90: 'excellent', 85: 'good', 80: 'good', 50: 'fail', 40: 'fail', 30: 'fail', 20: 'fail', 10: 'fail', 0: 'fail' };
for (let s = 60; s <= 78; s += 2) EXPECTED_LEVEL[s] = 'pass';

/** A value `steps` resolution steps on the worse side of `t`, rounded to the table's decimals. */
const worse = (t: number, lowerIsBetter: boolean, step: number) => Number((lowerIsBetter ? t + step : t - step).toFixed(6));

const tables = [...sourceTables()].filter((t) => t.item !== 'bmi');
const bmis = [...sourceTables()].filter((t) => t.item === 'bmi');

describe('every row of every score table (threshold inclusive, just worse = next row)', () => {
  it.each(tables.map((t) => [`grade ${t.grade} ${t.gender} ${t.item}`, t] as const))('%s', (_name, { grade, gender, item, src }) => {
    const rows = src.rows ?? [];
    const lower = src.lowerIsBetter === true;
    const res = SOURCE.items[item].resolution;
    expect(rows.length).toBeGreaterThan(0);
    const at = (raw: number) => scoreItem({ grade: grade as Grade, gender, item, raw });
    rows.forEach((row, i) => {
      const next = rows[i + 1]?.score ?? 0;
      const hit = at(row.threshold);
      expect(hit.score, `${row.threshold} → ${row.score}`).toBe(row.score);
      expect(hit.level, `level of ${row.score}`).toBe(EXPECTED_LEVEL[row.score]);
      expect(hit.bonus).toBe(0);
      expect(at(worse(row.threshold, lower, 1e-6)).score, `just past ${row.threshold}`).toBe(next);
      expect(at(worse(row.threshold, lower, res)).score, `one step past ${row.threshold}`).toBe(next);
    });
    const last = rows[rows.length - 1].threshold;
    const zero = at(worse(last, lower, 10 * res));
    expect(zero).toMatchObject({ score: 0, bonus: 0, level: 'fail' });
  });
});

describe('pull-up tables skip the blank scores', () => {
  it('grade 7 male: 9 → 80, 8 → 76, 4 → 60, 1 → 30, 0 → 0', () => {
    const s = (raw: number) => scoreItem({ grade: 7, gender: 'male', item: 'pullUp', raw }).score;
    expect([9, 8, 4, 1, 0].map(s)).toEqual([80, 76, 60, 30, 0]);
  });
  it('grade 8 male: 1 → 20, 0 → 0', () => {
    const s = (raw: number) => scoreItem({ grade: 8, gender: 'male', item: 'pullUp', raw }).score;
    expect([1, 0].map(s)).toEqual([20, 0]);
  });
  it('blank scores never appear', () => {
    for (const { grade, gender, item, src } of tables.filter((t) => t.src.blankScores)) {
      for (let raw = 0; raw <= 40; raw++) {
        const { score } = scoreItem({ grade: grade as Grade, gender, item, raw });
        expect(src.blankScores, `${grade} ${gender} ${raw}`).not.toContain(score);
      }
    }
  });
});

describe('every bonus row (only beyond the 100-point threshold, capped)', () => {
  const bonusTables = tables.filter((t) => t.src.bonus);
  it('bonus items: rope 1-6 both genders; pull-ups and 1000 m male 7-16; sit-ups and 800 m female 7-16', () => {
    const names = new Set(bonusTables.map((t) => `${t.item}:${t.gender}:${t.grade}`));
    expect(bonusTables).toHaveLength(2 * 6 + 2 * 2 * 10);
    for (let g = 1; g <= 6; g++) for (const s of ['male', 'female']) expect(names.has(`rope1min:${s}:${g}`)).toBe(true);
    for (let g = 7; g <= 16; g++) {
      for (const i of ['pullUp', 'run1000m']) expect(names.has(`${i}:male:${g}`)).toBe(true);
      for (const i of ['sitUp1min', 'run800m']) expect(names.has(`${i}:female:${g}`)).toBe(true);
    }
    // Sit-ups of grades 3-6 are scored but earn no bonus.
    expect(scoreItem({ grade: 4, gender: 'female', item: 'sitUp1min', raw: 99 })).toMatchObject({ score: 100, bonus: 0 });
  });

  it.each(bonusTables.map((t) => [`grade ${t.grade} ${t.gender} ${t.item}`, t] as const))('%s', (_name, { grade, gender, item, src }) => {
    const rows = src.bonus?.rows ?? [];
    const lower = src.lowerIsBetter === true;
    const res = SOURCE.items[item].resolution;
    const top = src.rows?.[0].threshold ?? Number.NaN;
    const at = (raw: number) => scoreItem({ grade: grade as Grade, gender, item, raw });
    const scale = SOURCE.bonusScales[item];
    expect(rows).toHaveLength(scale.maxBonus);
    rows.forEach((row, i) => {
      const next = rows[i + 1]?.bonus ?? 0;
      // The increment of the official 加分指标评分表 for this bonus.
      const extra = scale.steps.find((s) => s.bonus === row.bonus)?.extra ?? Number.NaN;
      expect(row.threshold).toBe(lower ? top - extra : top + extra);
      expect(at(row.threshold), `${row.threshold} → +${row.bonus}`).toMatchObject({ score: 100, bonus: row.bonus, level: 'excellent' });
      expect(at(worse(row.threshold, lower, 1e-6))).toMatchObject({ score: 100, bonus: next });
      expect(at(worse(row.threshold, lower, res))).toMatchObject({ score: 100, bonus: next });
    });
    expect(at(top)).toMatchObject({ score: 100, bonus: 0 });
    // Far beyond the best bonus row still earns only the cap.
    expect(at(worse(rows[0].threshold, lower, -20 * res)).bonus).toBe(scale.maxBonus);
    // A 95-point result earns no bonus.
    expect(at(worse(top, lower, res)).bonus).toBe(0);
  });
});

describe('BMI bands (rounded half up to one decimal, bounds inclusive)', () => {
  it.each(bmis.map((t) => [`grade ${t.grade} ${t.gender}`, t] as const))('%s', (_name, { grade, gender, src }) => {
    const b = src.bands;
    if (!b) throw new Error('bands missing');
    const at = (raw: number) => scoreItem({ grade: grade as Grade, gender, item: 'bmi', raw });
    const cases: [number, string, number][] = [
      [5, 'lowWeight', b.lowWeight.score],
      [b.lowWeight.max ?? 0, 'lowWeight', 80],
      [b.normal.min ?? 0, 'normal', 100],
      [b.normal.max ?? 0, 'normal', 100],
      [b.overweight.min ?? 0, 'overweight', 80],
      [b.overweight.max ?? 0, 'overweight', 80],
      [b.obese.min ?? 0, 'obese', 60],
      [60, 'obese', 60],
      // Rounding edges: x.x5 rounds up into the next band, x.x4999 stays.
      [(b.normal.min ?? 0) - 0.05, 'normal', 100],
      [(b.normal.min ?? 0) - 0.0501, 'lowWeight', 80],
      [(b.normal.max ?? 0) + 0.0499, 'normal', 100],
      [(b.normal.max ?? 0) + 0.05, 'overweight', 80],
      [(b.overweight.max ?? 0) + 0.0499, 'overweight', 80],
      [(b.overweight.max ?? 0) + 0.05, 'obese', 60],
    ];
    for (const [raw, level, score] of cases) {
      const r = at(raw);
      expect({ level: r.level, score: r.score }, `BMI ${raw}`).toEqual({ level, score });
      expect(r.bonus).toBe(0);
      expect(r.value).toBe(roundTenth(raw));
    }
    expect(b).toMatchObject({ normal: { score: 100 }, lowWeight: { score: 80 }, overweight: { score: 80 }, obese: { score: 60 } });
  });

  it('BMI from height and weight, half up', () => {
    expect(bmiFromHeightWeight(135, 30)).toBe(16.5); // 16.46
    expect(bmiFromHeightWeight(200, 72.6)).toBe(18.2); // exactly 18.15
    expect(bmiFromHeightWeight(200, 72.58)).toBe(18.1); // 18.145
    expect(bmiFromHeightWeight(160, 52)).toBe(20.3); // 20.3125
    expect(bmiFromHeightWeight(100, 20.25)).toBe(20.3); // exactly 20.25
    expect(bmiFromHeightWeight(0, 50)).toBeNull();
    expect(bmiFromHeightWeight(170, null)).toBeNull();
    expect(bmiFromHeightWeight(undefined, 50)).toBeNull();
    expect(bmiFromHeightWeight(-170, 50)).toBeNull();
  });

  it('roundTenth rounds half up despite binary representation', () => {
    expect([18.15, 18.25, 0.05, 82.55, 97.75, 13.45, 18.149, 80.55].map(roundTenth)).toEqual([18.2, 18.3, 0.1, 82.6, 97.8, 13.5, 18.1, 80.6]);
  });
});

describe('levels and errors', () => {
  it('levelOf uses LEVEL_BANDS on 0-120 (docs/product-rules.md#physique-scoring)', () => {
    expect([120, 90, 89.9, 80, 79.9, 60, 59.9, 0].map(levelOf)).toEqual(['excellent', 'excellent', 'good', 'good', 'pass', 'pass', 'fail', 'fail']);
  });
  it('rejects items not tested in the grade and non-finite values', () => {
    expect(() => scoreItem({ grade: 8, gender: 'female', item: 'pullUp', raw: 3 })).toThrow(RangeError);
    expect(() => scoreItem({ grade: 1, gender: 'male', item: 'sitUp1min', raw: 30 })).toThrow(RangeError);
    expect(() => scoreItem({ grade: 7, gender: 'male', item: 'rope1min', raw: 100 })).toThrow(RangeError);
    expect(() => scoreItem({ grade: 7, gender: 'male', item: 'run800m', raw: 200 })).toThrow(RangeError);
    expect(() => scoreItem({ grade: 7, gender: 'male', item: 'run50m', raw: Number.NaN })).toThrow(RangeError);
    expect(() => scoreItem({ grade: 7, gender: 'male', item: 'run50m', raw: Number.POSITIVE_INFINITY })).toThrow(RangeError);
  });
  it('explicit standard version', () => {
    expect(scoreItem({ grade: 15, gender: 'male', item: 'run1000m', raw: 290, standard: '2014' })).toMatchObject({ score: 50, level: 'fail' });
  });
  it('finer than the table resolution never helps', () => {
    expect(scoreItem({ grade: 8, gender: 'female', item: 'run50m', raw: 8.84 }).score).toBe(78);
    expect(scoreItem({ grade: 8, gender: 'female', item: 'run800m', raw: 210.5 }).score).toBe(95);
    expect(scoreItem({ grade: 8, gender: 'female', item: 'sitAndReach', raw: 22.69 }).score).toBe(95);
  });
});
