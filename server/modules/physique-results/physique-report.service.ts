import { and, asc, eq } from 'drizzle-orm';
import { ERR } from '@/domain/errors';
import type { ScoreLevel } from '@/domain/physique/level';
import { isGrade, itemsForGrade, type Gender, type ItemKey } from '@/domain/physique/standard';
import type { ReportHistoryEntry, ReportItem, StudentReport } from '@/domain/physique-results/types';
import type { DbOrTx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { classes, schoolYears, students } from '../../db/schema/school';
import { physiqueExemptions } from '../../db/schema/physique-year';
import { physiqueResults } from '../../db/schema/physique';
import { AppError } from '../../lib/app-error';
import { planExamPoints } from '../conversion/conversion.service';
import { inClassScope } from '../../lib/data-scope';
import { isUuid } from '../../lib/ids';
import { getPlanInScope } from '../test-plans/test-plans.service';
import { classAverages, type Caller } from './physique-results.service';
import { inTenant, itemsOf, selectResults, type SelectedResult } from './physique-results.sql';
import { itemsFor, loadPlanContext } from './physique-write';
import { studentYears } from './year-results';

const notFound = () => new AppError(404, ERR.notFound);
/** Items scoring below "good" are worth improving; at most this many are named. */
const IMPROVE_BELOW = 80;
const IMPROVE_MAX = 3;

/** Items to improve: the lowest scores below "good", failing ones first (lowest first), at most three (docs/product-rules.md#physique-results: student report). */
export function itemsToImprove(items: readonly Pick<ReportItem, 'item' | 'score'>[]): ItemKey[] {
  return items
    .filter((i): i is Pick<ReportItem, 'item'> & { score: number } => i.score != null && i.score < IMPROVE_BELOW)
    .sort((a, b) => a.score - b.score)
    .slice(0, IMPROVE_MAX)
    .map((i) => i.item);
}

/** The plan a year's report shows: a valid result before an invalid one, then the latest plan. */
function pickResult(rows: readonly SelectedResult[]): SelectedResult | null {
  let best: SelectedResult | null = null;
  for (const r of rows) {
    if (!best || (best.invalid && !r.invalid) || (best.invalid === r.invalid && r.planStartDate >= best.planStartDate)) best = r;
  }
  return best;
}

/**
 * The student physique report of one plan, or of one school year (docs/product-rules.md#physique-results: student report): each item's raw value, score, level and bonus against
 * the class average (valid results only), the aggregates, the history of totals and the items to improve.
 */
export async function studentReport(db: DbOrTx, caller: Caller, studentId: string, pick: { schoolYearId?: string; planId?: string } = {}): Promise<StudentReport> {
  if (!isUuid(studentId)) throw notFound();
  const [student] = await db
    .select({
      id: students.id,
      name: students.name,
      regNo: students.regNo,
      studentNo: students.studentNo,
      gender: students.gender,
      birthDate: students.birthDate,
      className: classes.name,
      orgName: orgs.name,
    })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(orgs, eq(orgs.id, students.orgId))
    // A student outside the caller's data scope (by their class now) is not found (docs/product-rules.md#data-scopes).
    .where(and(eq(students.id, studentId), inTenant(students.orgId, caller.family, caller.tenantOrgId), inClassScope(caller.classScope, students.classId)))
    .limit(1);
  if (!student) throw notFound();
  const [{ orgId }] = await db.select({ orgId: students.orgId }).from(students).where(eq(students.id, studentId));

  const all = await selectResults(db)
    .where(and(eq(physiqueResults.studentId, studentId), inTenant(physiqueResults.orgId, caller.family, caller.tenantOrgId)))
    .orderBy(asc(physiqueResults.planId));
  // Oldest first by test day: the trend's axis is when the student was tested, not when the plan opened.
  const testDayOf = (r: SelectedResult) => r.testedOn ?? r.planStartDate;
  all.sort((a, b) => testDayOf(a).localeCompare(testDayOf(b)) || a.planStartDate.localeCompare(b.planStartDate));

  let years: StudentReport['years'] = [];
  for (const r of [...all].reverse()) {
    if (!years.some((y) => y.schoolYearId === r.schoolYearId)) years.push({ schoolYearId: r.schoolYearId, academicYear: r.academicYear });
  }
  // An approved exempt or deferred year may have no result at all: it is a year of the report all the same (免测).
  const excused = await db
    .select({ schoolYearId: physiqueExemptions.schoolYearId, academicYear: schoolYears.academicYear })
    .from(physiqueExemptions)
    .innerJoin(schoolYears, eq(schoolYears.id, physiqueExemptions.schoolYearId))
    .where(and(eq(physiqueExemptions.studentId, studentId), eq(physiqueExemptions.status, 'approved')));
  if (excused.some((x) => !years.some((y) => y.schoolYearId === x.schoolYearId))) {
    for (const x of excused) if (!years.some((y) => y.schoolYearId === x.schoolYearId)) years.push(x);
    years = years.sort((a, b) => b.academicYear.localeCompare(a.academicYear));
  }
  // A named plan is that plan's result (404 when the student has none there); else the year's preferred result.
  const asked = pick.planId ? all.find((r) => r.planId === pick.planId) : undefined;
  if (pick.planId && !asked) throw notFound();
  const yearId = asked?.schoolYearId ?? pick.schoolYearId ?? years[0]?.schoolYearId ?? null;
  const ofYear = all.filter((r) => r.schoolYearId === yearId);
  const chosen = asked ?? pickResult(ofYear);
  const plans = [...ofYear].reverse().map((r) => ({ planId: r.planId, planName: r.planName, semesterCode: r.semesterCode }));

  const history: ReportHistoryEntry[] = all
    .filter((r) => !r.invalid)
    .map((r) => ({
      planId: r.planId,
      planName: r.planName,
      academicYear: r.academicYear,
      semesterCode: r.semesterCode,
      startDate: r.planStartDate,
      testedOn: testDayOf(r),
      gradeNo: r.gradeNo,
      standardScore: r.standardScore,
      bonus: r.bonus,
      total: r.total,
      level: (r.level as ScoreLevel | null) ?? null,
    }));

  let result: StudentReport['result'] = null;
  let improve: ItemKey[] = [];
  if (chosen && isGrade(chosen.gradeNo)) {
    const gender = chosen.gender as Gender;
    const plan = await getPlanInScope(db, caller.tenantOrgId, chosen.planId);
    const ctx = await loadPlanContext(db, plan);
    const planItems = itemsFor(ctx, chosen.gradeNo, gender);
    const specs = itemsForGrade(chosen.gradeNo, gender, ctx.version).filter((s) => planItems.includes(s.item));
    const averages = await classAverages(db, chosen.planId, chosen.classId);
    const values = itemsOf(chosen);
    const items: ReportItem[] = specs.map((s) => ({
      item: s.item,
      weight: s.weight,
      raw: values[s.item]?.raw ?? null,
      score: values[s.item]?.score ?? null,
      level: values[s.item]?.level ?? null,
      bonus: values[s.item]?.bonus ?? null,
      classAverage: averages.items[s.item] ?? null,
    }));
    result = {
      id: chosen.id,
      planId: chosen.planId,
      planName: chosen.planName,
      semesterCode: chosen.semesterCode,
      testedOn: chosen.testedOn,
      gradeNo: chosen.gradeNo,
      className: chosen.className,
      heightCm: chosen.heightCm,
      weightKg: chosen.weightKg,
      items,
      standardScore: chosen.standardScore,
      bonus: chosen.bonus,
      total: chosen.total,
      level: (chosen.level as ScoreLevel | null) ?? null,
      complete: chosen.complete,
      missing: items.filter((i) => i.score == null).map((i) => i.item),
      invalid: chosen.invalid,
      classAverageTotal: averages.total,
    };
    improve = itemsToImprove(items);
  }

  // The year's result by the year's rule (re-test, exemption): both totals shown beside the chosen plan's result.
  const year = yearId ? (await studentYears(db, { orgId, schoolYearId: yearId, students: [studentId] })).get(studentId)?.year : undefined;

  return {
    student: { ...student, gender: student.gender as Gender },
    years,
    schoolYearId: yearId,
    academicYear: years.find((y) => y.schoolYearId === yearId)?.academicYear ?? null,
    plans,
    result,
    year: year ? { source: year.source, total: year.total, level: year.level, planTotal: year.planTotal, retestTotal: year.retestTotal } : null,
    history,
    improve,
    examPoints: result && chosen ? await planExamPoints(db, { planId: chosen.planId, gradeNo: chosen.gradeNo, total: chosen.total, items: itemsOf(chosen), invalid: chosen.invalid }) : null,
  };
}
