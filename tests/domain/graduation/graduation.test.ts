import { describe, expect, it } from 'vitest';
import { belowFiftyConsequence, graduatingGradeNo, graduationPrintQuery, graduationStartYear, gradeInYear, stageStartYears } from '@/domain/graduation/graduation';
import { graduationOutcome, yearResult, type GraduationYear } from '@/domain/physique-year/year-result';

const year = (academicYear: string, total: number | null, exempt = false): GraduationYear => ({
  academicYear,
  year: yearResult(total == null ? [] : [{ planId: academicYear, retestOfPlanId: null, startDate: `${academicYear.slice(0, 4)}-10-01`, complete: true, total }], exempt ? 'exempt' : null),
});

describe('graduation cohorts (docs/product-rules.md#physique-year: Graduation)', () => {
  it('graduates in the stage’s last grade and counts every year of the stage', () => {
    expect([graduatingGradeNo('primary'), graduatingGradeNo('junior'), graduatingGradeNo('senior'), graduatingGradeNo('university')]).toEqual([6, 9, 12, 16]);
    expect(stageStartYears('junior', 2024)).toEqual([2024, 2025, 2026]);
    expect(stageStartYears('primary', 2021)).toHaveLength(6);
    expect(stageStartYears('university', 2023)).toEqual([2023, 2024, 2025, 2026]);
    expect(graduationStartYear('senior', 2024)).toBe(2026);
    expect(gradeInYear('university', 2023, 2026)).toBe(16);
  });

  it('below 50 means 结业/肄业 in senior school and university only', () => {
    const low = graduationOutcome([year('2024-2025', 40), year('2025-2026', 45), year('2026-2027', 48)]);
    expect(low.kind === 'scored' && low.belowFifty).toBe(true);
    expect(belowFiftyConsequence('senior', low)).toBe('completion');
    expect(belowFiftyConsequence('university', low)).toBe('completion');
    expect(belowFiftyConsequence('junior', low)).toBeNull();
    expect(belowFiftyConsequence('primary', low)).toBeNull();
    const fifty = graduationOutcome([year('2024-2025', 50), year('2025-2026', 50)]);
    expect(belowFiftyConsequence('senior', fifty)).toBeNull();
    expect(belowFiftyConsequence('senior', graduationOutcome([year('2024-2025', 40), year('2025-2026', null, true)]))).toBeNull();
  });

  it('prints a student or a class, never a whole cohort by default', () => {
    expect(graduationPrintQuery.safeParse({}).error?.issues[0].message).toBe('graduation:print.pick');
    expect(graduationPrintQuery.safeParse({ gradeId: '00000000-0000-4000-8000-000000000001' }).success).toBe(false);
    expect(graduationPrintQuery.safeParse({ classId: '00000000-0000-4000-8000-000000000001' }).success).toBe(true);
  });
});
