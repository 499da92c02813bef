import { describe, expect, it } from 'vitest';
import { classNameInGrade, cohortYear, graduatesNext, rolloverCommitSchema, universityClassGraduates } from '@/domain/school/rollover';

describe('year rollover rules', () => {
  it('moves a leading grade name with the grade and leaves other names alone', () => {
    expect(classNameInGrade('一年级1班', 1, 2)).toBe('二年级1班');
    expect(classNameInGrade('七年级(3)班', 7, 8)).toBe('八年级(3)班');
    expect(classNameInGrade('初一3班', 7, 8)).toBe('初二3班');
    expect(classNameInGrade('高二实验班', 11, 12)).toBe('高三实验班');
    expect(classNameInGrade('2025级1班', 1, 2)).toBe('2025级1班');
    expect(classNameInGrade('火箭班', 3, 4)).toBe('火箭班');
    // Another grade's name is not this class's grade.
    expect(classNameInGrade('三年级1班', 1, 2)).toBe('三年级1班');
  });

  it('reads the school year a cohort describes and who graduates next', () => {
    expect(cohortYear('primary', 2021, 6)).toBe(2026);
    expect(cohortYear('junior', 2025, 8)).toBe(2026);
    expect(cohortYear('senior', 2026, 10)).toBe(2026);
    expect([6, 9, 12].map((g, i) => graduatesNext((['primary', 'junior', 'senior'] as const)[i], g))).toEqual([true, true, true]);
    expect(graduatesNext('primary', 5)).toBe(false);
  });

  it('refuses two entering classes with one code, and a stage twice', () => {
    const r = rolloverCommitSchema.safeParse({
      academicYear: '2027-2028',
      entering: [
        { stage: 'primary', classes: [{ code: 1, name: 'A' }, { code: 1, name: 'B' }] },
        { stage: 'primary', classes: [] },
      ],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['entering.0.classes.1.code', 'validation:class.codeTaken'],
      ['entering.1.stage', 'people:rollover.errors.stageTwice'],
    ]);
  });

  it('graduates a university class when its major’s years are over by the end of the year', () => {
    // Enrolled 2023: at the end of 2025-2026 they have studied three years.
    expect(universityClassGraduates(2025, 2023, 3)).toBe(true);
    expect(universityClassGraduates(2025, 2023, 4)).toBe(false);
    expect(universityClassGraduates(2026, 2023, 4)).toBe(true);
    expect(universityClassGraduates(2026, 2023, 5)).toBe(false);
  });
});
