import { and, eq, getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Family } from '@/domain/menus/access';
import type { ScoreLevel } from '@/domain/physique/level';
import type { Gender, ItemKey } from '@/domain/physique/standard';
import type { ExemptionKind } from '@/domain/physique-year/year-result';
import type { ExportRow } from '@/domain/physique-results/export-layout';
import type { ItemResult, ResultRow, ResultSource } from '@/domain/physique-results/types';
import { ITEM_COLUMNS, RAW_FIELDS, type ItemLevel, type WideRawFields } from '@/domain/physique-results/wide-row';
import type { DbOrTx } from '../../db/client';
import { physiqueResults } from '../../db/schema/physique';
import { orgs } from '../../db/schema/orgs';
import { classes, schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { inOrgTree, planNotBinned, resultPlanNotBinned } from '../test-plans/test-plans.service';
import { isoInstant } from '../../lib/iso';

/**
 * THE condition every ranking, average, count and dashboard over physique results uses (docs/product-rules.md#score-validity): a result set
 * invalid is kept and listed (flagged) but never counted. Use it as `.where(and(…, countsInAggregates))` or inside
 * `filter (where …)`; never test the invalid column by hand in an aggregate. Results of a plan in the recycle bin
 * never count either (resultPlanNotBinned), nor does the result of a student whose year is approved 免予执行
 * (`exempt`, docs/product-rules.md#physique-year "Exemptions"): listed, never counted.
 */
export const countsInAggregates: SQL = sql`(not ${physiqueResults.invalid} and not ${physiqueResults.exempt} and ${resultPlanNotBinned})`;

/**
 * A valid result of a live plan, approved-exempt ones included: what a list of students' results (the national upload
 * file) carries, where an exempt student still has a row (docs/product-rules.md#physique-year, "Exemptions").
 */
export const listedValid: SQL = sql`(not ${physiqueResults.invalid} and ${resultPlanNotBinned})`;


/** Condition: `orgColumn` belongs to the request's organisation (its tree for the admin family). */
export function inTenant(orgColumn: SQLWrapper, family: Family, tenantOrgId: string): SQL {
  return family === 'admin' ? inOrgTree(orgColumn, tenantOrgId) : sql`${orgColumn} = ${tenantOrgId}`;
}

/** Columns of a result row as score search and the results screen read them. */
export const resultSelection = {
  ...getTableColumns(physiqueResults),
  orgName: orgs.name,
  planName: testPlans.name,
  schoolYearId: testPlans.schoolYearId,
  semesterCode: testPlans.semesterCode,
  planStartDate: testPlans.startDate,
  academicYear: schoolYears.academicYear,
  studentName: students.name,
  regNo: students.regNo,
  studentNo: students.studentNo,
  // className is the result's own (the class's name at test time); the class number does not change.
  classNo: classes.classNo,
  ethnicity: students.ethnicity,
  birthDate: students.birthDate,
  address: students.address,
  /** An approved 免测/缓测 of the student in the plan's school year (the unique index allows one), else null. */
  exemption: sql<ExemptionKind | null>`(select e.kind from physique_exemptions e where e.student_id = ${physiqueResults.studentId} and e.school_year_id = ${testPlans.schoolYearId} and e.status = 'approved' limit 1)`,
};

export type SelectedResult = typeof physiqueResults.$inferSelect & {
  orgName: string;
  planName: string;
  schoolYearId: string;
  semesterCode: number;
  planStartDate: string;
  academicYear: string;
  studentName: string;
  regNo: string;
  studentNo: string | null;
  className: string;
  classNo: string | null;
  ethnicity: string;
  birthDate: string | null;
  address: string | null;
  exemption: ExemptionKind | null;
};


/** Items of a stored row that have any value. */
export function itemsOf(row: Record<string, unknown>): Partial<Record<ItemKey, ItemResult>> {
  const items: Partial<Record<ItemKey, ItemResult>> = {};
  for (const c of ITEM_COLUMNS) {
    const raw = row[c.raw] as number | null;
    const score = row[c.score] as number | null;
    if (raw == null && score == null) continue;
    items[c.item] = {
      raw,
      score,
      level: (row[c.level] as ItemLevel | null) ?? null,
      bonus: c.bonus ? ((row[c.bonus] as number | null) ?? null) : null,
    };
  }
  return items;
}

/** Raw values of a stored row. */
export function rawOf(row: Partial<Record<keyof WideRawFields, number | null>>): Partial<WideRawFields> {
  const out: Partial<WideRawFields> = {};
  for (const f of RAW_FIELDS) {
    const v = row[f];
    if (v != null) out[f] = v;
  }
  return out;
}

/** The API row of a selected result. */
export function toResultRow(r: SelectedResult): ResultRow {
  return {
    id: r.id,
    orgId: r.orgId,
    orgName: r.orgName,
    planId: r.planId,
    planName: r.planName,
    schoolYearId: r.schoolYearId,
    academicYear: r.academicYear,
    semesterCode: r.semesterCode,
    studentId: r.studentId,
    name: r.studentName,
    regNo: r.regNo,
    studentNo: r.studentNo,
    gender: r.gender as Gender,
    gradeNo: r.gradeNo,
    classId: r.classId,
    className: r.className,
    testedOn: r.testedOn,
    heightCm: r.heightCm,
    weightKg: r.weightKg,
    items: itemsOf(r),
    standardScore: r.standardScore,
    bonus: r.bonus,
    total: r.total,
    level: (r.level as ScoreLevel | null) ?? null,
    complete: r.complete,
    invalid: r.invalid,
    invalidAt: isoInstant(r.invalidAt),
    exemption: r.exemption ?? null,
    source: r.source as ResultSource,
    updatedAt: isoInstant(r.updatedAt),
  };
}

export function toExportRow(r: SelectedResult): ExportRow {
  return { ...toResultRow(r), classNo: r.classNo, ethnicity: r.ethnicity, birthDate: r.birthDate, address: r.address };
}

/** `select … from physique_results` joined to student, class (at test time), plan, school year and organisation. */
export function selectResults(db: DbOrTx) {
  return db
    .select(resultSelection)
    .from(physiqueResults)
    .innerJoin(students, eq(students.id, physiqueResults.studentId))
    .innerJoin(classes, eq(classes.id, physiqueResults.classId))
    .innerJoin(testPlans, and(eq(testPlans.id, physiqueResults.planId), planNotBinned))
    .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
    .innerJoin(orgs, eq(orgs.id, physiqueResults.orgId));
}
