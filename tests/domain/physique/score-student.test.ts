import { describe, expect, it } from 'vitest';
import { graduationScore, scoreStudent, type StudentResults } from '@/domain/physique/score';
import type { Gender, Grade } from '@/domain/physique/standard';

interface HandCase {
  name: string;
  grade: Grade;
  gender: Gender;
  results: StudentResults;
  /** Item scores and bonuses worked out by hand from the official tables. */
  items: Record<string, [score: number, bonus: number, level: string]>;
  standardScore: number;
  bonus: number;
  total: number;
  level: string;
}

const CASES: HandCase[] = [
  {
    // BMI 30 / 1.35² = 16.46 → 16.5 normal; 15 + 10.8 + 15.6 + 14 + 20 + 7.4 = 82.8; rope 131 = 126 + 5 → +2
    name: 'primary, grade 3 male',
    grade: 3,
    gender: 'male',
    results: { heightCm: 135, weightKg: 30, vitalCapacity: 1450, run50m: 9.6, sitAndReach: 5, rope1min: 131, sitUp1min: 30 },
    items: { bmi: [100, 0, 'normal'], vitalCapacity: [72, 0, 'pass'], run50m: [78, 0, 'pass'], sitAndReach: [70, 0, 'pass'], rope1min: [100, 2, 'excellent'], sitUp1min: [74, 0, 'pass'] },
    standardScore: 82.8,
    bonus: 2,
    total: 84.8,
    level: 'good',
  },
  {
    // 15 + 9 + 10 + 6 + 10 + 10 + 8.5 = 68.5; rope 200 ≥ 158 + 40 → +20 (the primary cap)
    name: 'primary, grade 5 female (shuttle run, rope at 10 %)',
    grade: 5,
    gender: 'female',
    results: { bmi: 13.75, vitalCapacity: 1050, run50m: 11.2, sitAndReach: 2, rope1min: 200, sitUp1min: 17, shuttle50x8: 110 },
    items: { bmi: [100, 0, 'normal'], vitalCapacity: [60, 0, 'pass'], run50m: [50, 0, 'fail'], sitAndReach: [60, 0, 'pass'], rope1min: [100, 20, 'excellent'], sitUp1min: [50, 0, 'fail'], shuttle50x8: [85, 0, 'good'] },
    standardScore: 68.5,
    bonus: 20,
    total: 88.5,
    level: 'good',
  },
  {
    // BMI 22.25 → 22.3 overweight; 12 + 11.7 + 15.6 + 9 + 8 + 10 + 20 = 86.3; sit-ups 60 = 51 + 9 → +6, 800 m 200 s = 210 − 10 → +2
    name: 'junior, grade 8 female',
    grade: 8,
    gender: 'female',
    results: { bmi: 22.25, vitalCapacity: 2450, run50m: 8.9, sitAndReach: 20, standingLongJump: 175, sitUp1min: 60, run800m: 200 },
    items: { bmi: [80, 0, 'overweight'], vitalCapacity: [78, 0, 'pass'], run50m: [78, 0, 'pass'], sitAndReach: [90, 0, 'excellent'], standingLongJump: [80, 0, 'good'], sitUp1min: [100, 6, 'excellent'], run800m: [100, 2, 'excellent'] },
    standardScore: 86.3,
    bonus: 8,
    total: 94.3,
    level: 'excellent',
  },
  {
    // BMI 80 / 1.75² = 26.12 → 26.1 overweight; 12 + 14.25 + 15.6 + 7.4 + 8.5 + 10 + 14.8 = 82.55 → 82.6 (half up); pull-ups 20 = 17 + 3 → +3
    name: 'senior, grade 11 male',
    grade: 11,
    gender: 'male',
    results: { heightCm: 175, weightKg: 80, vitalCapacity: 4620, run50m: 7.5, sitAndReach: 12, standingLongJump: 250, pullUp: 20, run1000m: 245 },
    items: { bmi: [80, 0, 'overweight'], vitalCapacity: [95, 0, 'excellent'], run50m: [78, 0, 'pass'], sitAndReach: [74, 0, 'pass'], standingLongJump: [85, 0, 'good'], pullUp: [100, 3, 'excellent'], run1000m: [74, 0, 'pass'] },
    standardScore: 82.6,
    bonus: 3,
    total: 85.6,
    level: 'good',
  },
  {
    // BMI 50 / 1.7² = 17.30 → 17.3 low weight; 12 + 7.5 + 8 + 0 + 4 + 0 + 10 = 41.5; 1000 m 290 s is the disputed 50-point row of 大三大四
    name: 'university, grade 15 male (大三)',
    grade: 15,
    gender: 'male',
    results: { heightCm: 170, weightKg: 50, vitalCapacity: 3100, run50m: 9.3, sitAndReach: -1, standingLongJump: 200, pullUp: 5, run1000m: 290 },
    items: { bmi: [80, 0, 'lowWeight'], vitalCapacity: [50, 0, 'fail'], run50m: [40, 0, 'fail'], sitAndReach: [0, 0, 'fail'], standingLongJump: [40, 0, 'fail'], pullUp: [0, 0, 'fail'], run1000m: [50, 0, 'fail'] },
    standardScore: 41.5,
    bonus: 0,
    total: 41.5,
    level: 'fail',
  },
  {
    // BMI 52 / 1.6² = 20.31 → 20.3 normal; 15 + 14.25 + 19 + 10 + 9.5 + 10 + 20 = 97.75 → 97.8; sit-ups 62 = 56 + 6 → +3, 800 m 170 s = 198 − 28 → +5
    name: 'university, grade 13 female (大一)',
    grade: 13,
    gender: 'female',
    results: { heightCm: 160, weightKg: 52, vitalCapacity: 3350, run50m: 7.6, sitAndReach: 25.8, standingLongJump: 201, sitUp1min: 62, run800m: 170 },
    items: { bmi: [100, 0, 'normal'], vitalCapacity: [95, 0, 'excellent'], run50m: [95, 0, 'excellent'], sitAndReach: [100, 0, 'excellent'], standingLongJump: [95, 0, 'excellent'], sitUp1min: [100, 3, 'excellent'], run800m: [100, 5, 'excellent'] },
    standardScore: 97.8,
    bonus: 8,
    total: 105.8,
    level: 'excellent',
  },
];

describe('whole students, computed by hand', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = scoreStudent({ grade: c.grade, gender: c.gender, results: c.results });
    expect(r.missing).toEqual([]);
    expect(r.complete).toBe(true);
    const items = Object.fromEntries(Object.entries(r.items).map(([k, v]) => [k, [v.score, v.bonus, v.level]]));
    expect(items).toEqual(c.items);
    expect({ standardScore: r.standardScore, bonus: r.bonus, total: r.total, level: r.level }).toEqual({
      standardScore: c.standardScore,
      bonus: c.bonus,
      total: c.total,
      level: c.level,
    });
  });

  it('BMI given directly wins over height and weight', () => {
    const r = scoreStudent({ grade: 3, gender: 'male', results: { ...CASES[0].results, bmi: 25 } });
    expect(r.items.bmi).toMatchObject({ value: 25, level: 'obese', score: 60 });
  });

  it('results for items the grade does not test are ignored', () => {
    const r = scoreStudent({ grade: 8, gender: 'female', results: { ...CASES[2].results, pullUp: 12, rope1min: 180 } });
    expect(r.total).toBe(94.3);
    expect(Object.keys(r.items)).not.toContain('pullUp');
  });
});

describe('total capped at 120', () => {
  it('primary: every item at 100 and rope far beyond the bonus table', () => {
    const r = scoreStudent({ grade: 1, gender: 'male', results: { bmi: 16, vitalCapacity: 5000, run50m: 5, sitAndReach: 40, rope1min: 400 } });
    expect(r).toMatchObject({ standardScore: 100, bonus: 20, total: 120, level: 'excellent' });
  });
  it('university: pull-ups and 1000 m both at the cap of 10', () => {
    const r = scoreStudent({ grade: 16, gender: 'male', results: { bmi: 21, vitalCapacity: 9000, run50m: 5, sitAndReach: 40, standingLongJump: 350, pullUp: 60, run1000m: 120 } });
    expect(r).toMatchObject({ standardScore: 100, bonus: 20, total: 120 });
    expect(r.items.pullUp?.bonus).toBe(10);
    expect(r.items.run1000m?.bonus).toBe(10);
  });
  it('junior female: sit-ups and 800 m', () => {
    const r = scoreStudent({ grade: 9, gender: 'female', results: { bmi: 20, vitalCapacity: 9000, run50m: 5, sitAndReach: 40, standingLongJump: 300, sitUp1min: 100, run800m: 100 } });
    expect(r).toMatchObject({ standardScore: 100, bonus: 20, total: 120 });
  });
});

describe('missing items are reported, never scored as 0', () => {
  it('one item missing', () => {
    const { run800m: _, ...rest } = CASES[2].results;
    const r = scoreStudent({ grade: 8, gender: 'female', results: rest });
    expect(r).toMatchObject({ complete: false, missing: ['run800m'], standardScore: null, bonus: null, total: null, level: null });
    expect(Object.keys(r.items)).toHaveLength(6);
    expect(r.items.sitUp1min).toMatchObject({ score: 100, bonus: 6 });
  });
  it('BMI missing when only the height is known; null and NaN count as missing', () => {
    const r = scoreStudent({ grade: 3, gender: 'male', results: { heightCm: 135, weightKg: null, vitalCapacity: 1450, run50m: Number.NaN, sitAndReach: 5, rope1min: null, sitUp1min: 30 } });
    expect(r.missing).toEqual(['bmi', 'run50m', 'rope1min']);
    expect(r.total).toBeNull();
  });
  it('no results at all lists every item of the grade', () => {
    expect(scoreStudent({ grade: 12, gender: 'male', results: {} }).missing).toEqual(['bmi', 'vitalCapacity', 'run50m', 'sitAndReach', 'standingLongJump', 'pullUp', 'run1000m']);
    expect(scoreStudent({ grade: 1, gender: 'female', results: {} }).missing).toEqual(['bmi', 'vitalCapacity', 'run50m', 'sitAndReach', 'rope1min']);
  });
  it('a zero result is a result, not a missing item', () => {
    const r = scoreStudent({ grade: 15, gender: 'male', results: { ...CASES[4].results, pullUp: 0 } });
    expect(r.complete).toBe(true);
    expect(r.items.pullUp?.score).toBe(0);
  });
});

describe('graduationScore (university: 50 % graduation year + 50 % mean of the other years)', () => {
  it('four years', () => {
    // 0.5 × 70 + 0.5 × (80.5 + 85 + 90.2) / 3 = 35 + 42.6167 = 77.6
    expect(graduationScore([80.5, 85, 90.2, 70])).toEqual({ score: 77.6, level: 'pass' });
  });
  it('rounds half up', () => {
    expect(graduationScore([81, 80.1])).toEqual({ score: 80.6, level: 'good' }); // 80.55
    expect(graduationScore([89.9, 90])).toEqual({ score: 90, level: 'excellent' }); // 89.95
  });
  it('a single year is that year', () => {
    expect(graduationScore([59.9])).toEqual({ score: 59.9, level: 'fail' });
  });
  it('at most 120', () => {
    expect(graduationScore([120, 120, 120, 120]).score).toBe(120);
  });
  it('rejects empty and non-finite input', () => {
    expect(() => graduationScore([])).toThrow(RangeError);
    expect(() => graduationScore([80, Number.NaN])).toThrow(RangeError);
  });
});
