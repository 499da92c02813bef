/**
 * The one name of a grade number everywhere (lists, pickers, dashboards, wall, exports, PDFs): the i18n key of
 * 一年级…九年级, 高一…高三, 大一…大四 (Grade 1–12, Freshman–Senior in English; docs/product-rules.md#grades).
 * Apart from grades.ts so a screen that only names grades (the data centre's dashboards) does not build the grade
 * forms' zod schemas as it loads (docs/decisions/012-lean-first-screen.md).
 */
export const gradeNameKey = (gradeNo: number) => `school:grade.no.${gradeNo}` as const;
