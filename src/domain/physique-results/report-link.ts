import { getCatalogEntry } from '../menus/catalog';

/**
 * Path of the physique report of one result (the always-available report screens of docs/product-rules.md#screens-and-routes): university students
 * (grade 13–16) on /scoreReport, school students on /scoreReportK12. The plan names the result, so a student with two
 * plans in one school year gets the one clicked.
 */
export function reportPath(result: { studentId: string; gradeNo: number; planId: string }): string {
  const key = result.gradeNo >= 13 ? 'single.scoreReport' : 'single.scoreReportK12';
  const base = getCatalogEntry(key)?.path ?? '/scoreReportK12';
  return `${base}?${new URLSearchParams({ studentId: result.studentId, planId: result.planId }).toString()}`;
}
