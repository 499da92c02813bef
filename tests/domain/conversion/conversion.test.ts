import { describe, expect, it } from 'vitest';
import { conversionSaveSchema, convertPoints, examPointsOf, gradeInStage, stepProblem } from '@/domain/conversion/conversion';

const steps = [
  { min: 60, points: 30 },
  { min: 80, points: 40 },
  { min: 95, points: 50 },
];
const table = (over: Record<string, unknown> = {}) => ({ name: '换算表', stage: 'junior', year: '2027', basis: 'total', maxPoints: '50', note: '', rows: steps, ...over });
const issues = (input: unknown) => {
  const r = conversionSaveSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('the step lookup', () => {
  it('gives the points of the highest step reached, 0 below the lowest, null without a value', () => {
    expect(convertPoints(steps, 95)).toBe(50);
    expect(convertPoints(steps, 120)).toBe(50);
    expect(convertPoints(steps, 94.9)).toBe(40);
    expect(convertPoints(steps, 80)).toBe(40);
    expect(convertPoints(steps, 60)).toBe(30);
    expect(convertPoints(steps, 59.5)).toBe(0);
    expect(convertPoints(steps, null)).toBeNull();
    expect(convertPoints([], 90)).toBe(0);
  });

  it('converts only results of the table’s stage, by its basis', () => {
    const byTotal = { stage: 'junior' as const, basis: 'total' as const, rows: steps };
    expect(examPointsOf(byTotal, { gradeNo: 8, total: 82, items: {} })).toBe(40);
    expect(examPointsOf(byTotal, { gradeNo: 6, total: 82, items: {} })).toBeNull();
    expect(examPointsOf(byTotal, { gradeNo: 9, total: null, items: {} })).toBeNull();
    const byRun = { stage: 'junior' as const, basis: 'run1000m' as const, rows: steps };
    expect(examPointsOf(byRun, { gradeNo: 9, total: 99, items: { run1000m: { score: 61 } } })).toBe(30);
    expect(examPointsOf(byRun, { gradeNo: 9, total: 99, items: {} })).toBeNull();
    expect([7, 8, 9].every((g) => gradeInStage(g, 'junior'))).toBe(true);
    expect(gradeInStage(10, 'junior')).toBe(false);
  });
});

describe('the table’s rules', () => {
  it('accepts ascending steps within the full marks', () => {
    expect(issues(table())).toEqual([]);
    expect(conversionSaveSchema.parse(table()).maxPoints).toBe(50);
  });

  it('refuses unordered and overlapping thresholds, on the step’s field', () => {
    expect(issues(table({ rows: [steps[1], steps[0]] }))).toEqual([{ path: 'rows.1.min', message: 'conversion:validation.unordered' }]);
    expect(issues(table({ rows: [steps[0], { min: 60, points: 35 }] }))).toEqual([{ path: 'rows.1.min', message: 'conversion:validation.overlap' }]);
  });

  it('refuses bad points: negative, above the full marks, falling as the threshold rises, too many decimals', () => {
    expect(issues(table({ rows: [{ min: 60, points: -1 }] }))).toEqual([{ path: 'rows.0.points', message: 'conversion:validation.pointsInvalid' }]);
    expect(issues(table({ maxPoints: '45' }))).toEqual([{ path: 'rows.2.points', message: 'conversion:validation.pointsAboveMax' }]);
    expect(issues(table({ rows: [steps[0], { min: 70, points: 20 }] }))).toEqual([{ path: 'rows.1.points', message: 'conversion:validation.pointsDecrease' }]);
    expect(stepProblem({ min: 60, points: 1.234 }, undefined, 50)).toEqual({ field: 'points', problem: 'pointsInvalid' });
    expect(stepProblem({ min: 121, points: 1 }, undefined, 50)).toEqual({ field: 'min', problem: 'minInvalid' });
  });

  it('asks for a name, a stage, a year, a basis, full marks and at least one step', () => {
    const got = issues({ name: '', stage: '', year: '', basis: '', maxPoints: '', rows: [] }).map((i) => i.message);
    expect(got).toEqual(
      expect.arrayContaining([
        'conversion:validation.nameRequired',
        'conversion:validation.stageRequired',
        'conversion:validation.yearRequired',
        'conversion:validation.basisRequired',
        'conversion:validation.maxPointsRequired',
        'conversion:validation.rowsRequired',
      ]),
    );
    expect(issues(table({ year: '1999' })).map((i) => i.message)).toEqual(['conversion:validation.yearInvalid']);
    expect(issues(table({ maxPoints: '0' })).map((i) => i.message)).toContain('conversion:validation.maxPointsInvalid');
  });
});
