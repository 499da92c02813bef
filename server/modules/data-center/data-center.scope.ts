import { and, eq, inArray, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { RosterGroup } from '@/domain/data-center/roster';
import type { Period } from '@/domain/data-center/types';
import { ERR } from '@/domain/errors';
import type { Gender, Stage } from '@/domain/physique/standard';
import type { DbOrTx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { dcGradeRoster, dcRoster } from '../../db/schema/data-center';
import { classes, grades, schoolYears } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { inOrgTree } from '../test-plans/test-plans.service';
import type { Family } from '@/domain/menus/access';
import { scopedClassIds, type ClassScope } from '../../lib/data-scope';
import { idList, resultFilterSql, viewRows, viewSelect, type PlanRef, type ResultFilters } from './data-center.sql';

const notFound = () => new AppError(404, ERR.notFound);

export interface OrgInfo {
  id: string;
  name: string;
  type: number;
}

/** Who a view is for: the tenant organisation and the classes the viewer's data scope covers (the wall: WHOLE_ORG). */
export interface Viewer {
  tenantOrgId: string;
  classScope: ClassScope;
}

/** The organisations a view reads: one school, or a bureau's schools (admin family), and the viewer's classes. */
export interface DcScope {
  family: Family;
  /** The organisation the figures are for (the school, or the bureau / sub-bureau). */
  org: OrgInfo;
  orgIds: string[];
  orgs: Map<string, OrgInfo>;
  /** K12 schools and universities in scope. */
  schools: number;
  /** More than one school: units are schools, not classes. */
  multiSchool: boolean;
  /** The classes the viewer may see (docs/product-rules.md#data-scopes); every figure and list is limited to them. */
  classScope: ClassScope;
}

const isSchool = (type: number) => type === ORG_TYPE.k12 || type === ORG_TYPE.university;

/**
 * The scope of a request (architecture rule 4): the tenant organisation for k12/gx; for the admin family its tree,
 * or the subtree of `orgId` when that organisation is in the tree (else 404, never another organisation's data).
 */
export async function resolveScope(db: DbOrTx, family: Family, viewer: Viewer, filterOrgId?: string): Promise<DcScope> {
  const { tenantOrgId, classScope } = viewer;
  if (family !== 'admin') {
    const [org] = await db.select({ id: orgs.id, name: orgs.name, type: orgs.type, parentId: orgs.parentId }).from(orgs).where(eq(orgs.id, tenantOrgId));
    if (!org) throw notFound();
    return { family, org, orgIds: [org.id], orgs: new Map([[org.id, org]]), schools: 1, multiSchool: false, classScope };
  }
  const tree = await db.select({ id: orgs.id, name: orgs.name, type: orgs.type, parentId: orgs.parentId }).from(orgs).where(inOrgTree(orgs.id, tenantOrgId));
  const rootId = filterOrgId ?? tenantOrgId;
  const root = tree.find((o) => o.id === rootId);
  if (!root) throw notFound();
  const children = new Map<string, typeof tree>();
  for (const o of tree) if (o.parentId) children.set(o.parentId, [...(children.get(o.parentId) ?? []), o]);
  const inScope: typeof tree = [];
  const walk = (o: (typeof tree)[number]) => {
    inScope.push(o);
    for (const c of children.get(o.id) ?? []) walk(c);
  };
  walk(root);
  const schools = inScope.filter((o) => isSchool(o.type)).length;
  return {
    family,
    org: { id: root.id, name: root.name, type: root.type },
    orgIds: inScope.map((o) => o.id),
    orgs: new Map(inScope.map((o) => [o.id, { id: o.id, name: o.name, type: o.type }])),
    schools,
    multiSchool: schools > 1,
    classScope,
  };
}

export interface PlanInfo extends PlanRef {
  name: string;
  academicYear: string;
  semesterCode: number;
  hasResults: boolean;
}

/** Test plans of the scope with their school year and whether any valid result (of the viewer's classes) belongs to them. */
export async function scopePlans(db: DbOrTx, orgIds: readonly string[], classScope: ClassScope): Promise<PlanInfo[]> {
  // A plan has valid results exactly when it has rollup rows (the triggers drop rows that reach 0 tested); the
  // school rollups are ≈ 4× fewer index entries to probe, the class rollups know the viewer's classes.
  const classIds = scopedClassIds(classScope);
  const probe = classIds
    ? sql`select 1 as one from dc_rollups where dc_rollups.plan_id = tp.id and ${sql.join(resultFilterSql({ classIds }, 'dc_rollups'), sql` and `)} limit 1`
    : sql`select 1 as one from dc_school_rollups where dc_school_rollups.plan_id = tp.id limit 1`;
  const rows = await viewRows<{
    id: string;
    org_id: string;
    name: string;
    school_year: number;
    academic_year: string;
    semester_code: number;
    start_date: string;
    has_results: boolean | string | null;
  }>(
    db,
    sql`select tp.id, tp.org_id, tp.name, sy.start_year as school_year, sy.academic_year, tp.semester_code, tp.start_date::text as start_date, probe.one is not null as has_results
from ${testPlans} tp join ${schoolYears} sy on sy.id = tp.school_year_id
left join lateral (${probe}) probe on true
where tp.org_id in (${idList(orgIds)}) and tp.deleted_at is null`,
  );
  return rows.map((r) => ({
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    schoolYear: Number(r.school_year),
    academicYear: r.academic_year,
    semesterCode: Number(r.semester_code),
    startDate: String(r.start_date).slice(0, 10),
    hasResults: r.has_results === true || r.has_results === 't',
  }));
}

export const academicYearOf = (year: number): string => `${year}-${year + 1}`;

export interface ResolvedPeriod {
  period: Period;
  /** Plans of the period that have valid results. */
  plans: PlanInfo[];
  /** Plans of every school year for the trend (semester filter kept, year and plan dropped). */
  trendPlans: PlanInfo[];
}

/** The period of the filters: a plan, or a school year (default: the latest with valid results) and semester. */
export function resolvePeriod(all: readonly PlanInfo[], f: Pick<DataCenterFilter, 'planId' | 'schoolYear' | 'semesterCode'>): ResolvedPeriod {
  const withResults = all.filter((p) => p.hasResults);
  const trendPlans = withResults.filter((p) => f.semesterCode === undefined || p.semesterCode === f.semesterCode);
  if (f.planId) {
    const plan = all.find((p) => p.id === f.planId);
    if (!plan) throw notFound();
    return {
      period: { schoolYear: plan.schoolYear, academicYear: plan.academicYear, semesterCode: plan.semesterCode, planId: plan.id, planName: plan.name },
      plans: plan.hasResults ? [plan] : [],
      trendPlans,
    };
  }
  const year = f.schoolYear ?? (withResults.length ? Math.max(...withResults.map((p) => p.schoolYear)) : null);
  const plans = year == null ? [] : withResults.filter((p) => p.schoolYear === year && (f.semesterCode === undefined || p.semesterCode === f.semesterCode));
  return {
    period: {
      schoolYear: year,
      academicYear: year == null ? null : (all.find((p) => p.schoolYear === year)?.academicYear ?? academicYearOf(year)),
      semesterCode: f.semesterCode ?? null,
      planId: null,
      planName: null,
    },
    plans,
    trendPlans,
  };
}

/** The result filters of a view's filters and the viewer's data scope (the period is handled by the plans). */
export function resultFilters(f: DataCenterFilter, scope: DcScope): ResultFilters {
  return { gradeNo: f.gradeNo, classId: f.classId, gender: f.gender, collegeId: f.collegeId, majorId: f.majorId, classIds: scopedClassIds(scope.classScope) };
}

/** Students of the scope (enabled, or of a graduated cohort) per cohort and gender (class / college / major / gender filters applied). */
export async function rosterGroups(db: DbOrTx, orgIds: readonly string[], f: ResultFilters): Promise<RosterGroup[]> {
  // Graduated cohorts count in the years they were here even when their students were disabled on leaving.
  const count = (t: typeof dcRoster | typeof dcGradeRoster) => sql<number>`sum(case when ${grades.graduated} then ${t.students} else ${t.enabled} end)::int`;
  type Row = { stage: string; enrolYear: number; gender: string; count: number };
  const out = async (query: Parameters<typeof viewSelect<Row>>[1]): Promise<RosterGroup[]> =>
    (await viewSelect(db, query))
      .filter((r) => Number(r.count) > 0)
      .map((r) => ({ stage: r.stage as Stage, enrolYear: r.enrolYear, gender: r.gender as Gender, count: Number(r.count) }));
  if (!f.classId && !f.classIds && !f.collegeId && !f.majorId) {
    // No class named: from dc_grade_roster (dc_roster added up per grade), a few rows per school.
    const conds = [inArray(dcGradeRoster.orgId, [...orgIds]), ...(f.gender ? [eq(dcGradeRoster.gender, f.gender)] : [])];
    return out(
      db
        .select({ stage: grades.stage, enrolYear: grades.enrolYear, gender: dcGradeRoster.gender, count: count(dcGradeRoster) })
        .from(dcGradeRoster)
        .innerJoin(grades, eq(grades.id, dcGradeRoster.gradeId))
        .where(and(...conds))
        .groupBy(grades.stage, grades.enrolYear, dcGradeRoster.gender),
    );
  }
  // From dc_roster (students per class and gender, kept by triggers): a few rows per class instead of every student.
  // A roster row's class belongs to its organisation: saying so lets the classes be read through their org index
  // instead of a scan of every class of the district.
  const conds = [inArray(dcRoster.orgId, [...orgIds]), inArray(classes.orgId, [...orgIds])];
  if (f.classId) conds.push(eq(dcRoster.classId, f.classId));
  if (f.classIds) conds.push(f.classIds.length ? inArray(dcRoster.classId, [...f.classIds]) : sql`false`);
  if (f.gender) conds.push(eq(dcRoster.gender, f.gender));
  if (f.collegeId) conds.push(eq(classes.collegeId, f.collegeId));
  if (f.majorId) conds.push(eq(classes.majorId, f.majorId));
  return out(
    db
      .select({ stage: grades.stage, enrolYear: grades.enrolYear, gender: dcRoster.gender, count: count(dcRoster) })
      .from(dcRoster)
      .innerJoin(classes, eq(classes.id, dcRoster.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(...conds))
      .groupBy(grades.stage, grades.enrolYear, dcRoster.gender),
  );
}

/** A class of the scope (and of the viewer's data scope) with its grade, college and major, or 404. */
export async function classInScope(db: DbOrTx, scope: DcScope, classId: string) {
  if (!isUuid(classId)) throw notFound();
  const classIds = scopedClassIds(scope.classScope);
  if (classIds && !classIds.includes(classId)) throw notFound();
  const rows = await db.execute<{
    id: string;
    name: string;
    org_id: string;
    grade_no: number;
    stage: Stage;
    enrol_year: number;
    college_name: string | null;
    major_name: string | null;
  }>(sql`select c.id, c.name, c.org_id, g.grade_no, g.stage, g.enrol_year, co.name as college_name, m.name as major_name
    from classes c join grades g on g.id = c.grade_id left join colleges co on co.id = c.college_id left join majors m on m.id = c.major_id
    where c.id = ${classId}::uuid and c.org_id in (${idList(scope.orgIds)})`);
  const row = rows.rows[0];
  if (!row) throw notFound();
  return row;
}
