import { describe, expect, it } from 'vitest';
import { cohortGrade, gradeSaveSchema, schoolStartYearOf } from '@/domain/school/grades';

const messages = (input: unknown) => {
  const r = gradeSaveSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

describe('grade form rules (docs/product-rules.md#grades)', () => {
  it('an empty grade asks for one rather than calling it out of stage', () => {
    expect(messages({ stage: 'university', gradeNo: '', enrolYear: 2024 })).toEqual(['gradeNo:validation:grade.gradeRequired']);
    expect(messages({ stage: 'primary', gradeNo: '', enrolYear: '' })).toEqual(['enrolYear:validation:grade.enrolYearRequired']);
    // A school's grade is derived, so the form may leave it out.
    expect(messages({ stage: 'primary', gradeNo: '', enrolYear: 2024 })).toEqual([]);
    expect(messages({ stage: 'primary', gradeNo: 7, enrolYear: 2024 })).toEqual(['gradeNo:validation:grade.gradeOfStage']);
  });

  it('a school cohort’s grade follows from its enrolment year and the current school year', () => {
    // 2020 entrants are 初一 in 2026-2027: no longer primary, so a 六年级 of 2020 is refused.
    expect(cohortGrade('primary', 2020, false, 2026)).toEqual({ ok: false, field: 'enrolYear', message: 'validation:grade.cohortGraduated' });
    expect(cohortGrade('junior', 2026, false, 2026)).toEqual({ ok: true, gradeNo: 7 });
    expect(cohortGrade('primary', 2021, false, 2026)).toEqual({ ok: true, gradeNo: 6 });
    expect(cohortGrade('senior', 2025, false, 2026)).toEqual({ ok: true, gradeNo: 11 });
    // A graduated cohort stays in the last grade of its stage; one not yet enrolled has no grade.
    expect(cohortGrade('primary', 2020, true, 2026)).toEqual({ ok: true, gradeNo: 6 });
    expect(cohortGrade('primary', 2027, false, 2026)).toEqual({ ok: false, field: 'enrolYear', message: 'validation:grade.notYetEnrolled' });
  });

  it('a school year starts on 1 August', () => {
    expect(schoolStartYearOf('2026-07-31')).toBe(2025);
    expect(schoolStartYearOf('2026-08-01')).toBe(2026);
    expect(schoolStartYearOf('2027-01-15')).toBe(2026);
  });
});
