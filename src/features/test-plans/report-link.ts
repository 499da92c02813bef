import { getCatalogEntry } from '@/domain/menus/catalog';

/**
 * Path of a student's physique report (the always-available report screens of spec §2): university
 * students (grade 13–16) on /scoreReport, school students on /scoreReportK12.
 */
export function reportPath(student: { studentId: string; gradeNo: number }, schoolYearId?: string): string {
  const key = student.gradeNo >= 13 ? 'single.scoreReport' : 'single.scoreReportK12';
  const base = getCatalogEntry(key)?.path ?? '/scoreReportK12';
  const q = new URLSearchParams({ studentId: student.studentId });
  if (schoolYearId) q.set('schoolYearId', schoolYearId);
  return `${base}?${q.toString()}`;
}
