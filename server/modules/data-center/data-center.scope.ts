import { eq, getTableName, sql, type SQL } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { RosterGroup } from '@/domain/data-center/roster';
import type { Period } from '@/domain/data-center/types';
import { ERR } from '@/domain/errors';
import type { Gender, Stage } from '@/domain/physique/standard';
import type { DbOrTx } from '../../db/client';
import { dcRollups, dcSchoolRollups } from '../../db/schema/data-center';
import { orgs } from '../../db/schema/orgs';
import { schoolYears } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { AppError } from '../../lib/app-error';
import { keptPerVersion, type FeedSync } from '../../lib/change-feed';
import { isUuid } from '../../lib/ids';
import { inOrgTree } from '../test-plans/test-plans.service';
import type { Family } from '@/domain/menus/access';
import { scopedClassIds, type ClassScope } from '../../lib/data-scope';
import { idList, resultFilterSql, viewParts, viewRows, type PlanRef, type ResultFilters } from './data-center.sql';

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
  /** The change feed and the request's sync with it: a school's scope and plans are then kept per version (schoolScopeAndPlans). */
  changes?: FeedSync;
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
/** A school family's scope: the viewer's own organisation alone. */
function schoolScope(family: Family, org: DcScope['org'] & { parentId: string | null }, classScope: ClassScope): DcScope {
  return { family, org, orgIds: [org.id], orgs: new Map([[org.id, org]]), schools: 1, multiSchool: false, classScope };
}

export async function resolveScope(db: DbOrTx, family: Family, viewer: Viewer, filterOrgId?: string): Promise<DcScope> {
  const { tenantOrgId, classScope } = viewer;
  if (family !== 'admin') {
    const [org] = await db.select({ id: orgs.id, name: orgs.name, type: orgs.type, parentId: orgs.parentId }).from(orgs).where(eq(orgs.id, tenantOrgId));
    if (!org) throw notFound();
    return schoolScope(family, org, classScope);
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
export function plansQuery(orgIds: readonly string[], classScope: ClassScope): SQL {
  // A plan has valid results exactly when it has rollup rows (the triggers drop rows that reach 0 tested); the
  // school rollups are ≈ 4× fewer index entries to probe, the class rollups know the viewer's classes.
  const classIds = scopedClassIds(classScope);
  const probe = classIds
    ? sql`select 1 as one from dc_rollups where dc_rollups.plan_id = tp.id and ${sql.join(resultFilterSql({ classIds }, 'dc_rollups'), sql` and `)} limit 1`
    : sql`select 1 as one from dc_school_rollups where dc_school_rollups.plan_id = tp.id limit 1`;
  return sql`select tp.id, tp.org_id, tp.name, sy.start_year as school_year, sy.academic_year, tp.semester_code, tp.start_date::text as start_date, probe.one is not null as has_results
from ${testPlans} tp join ${schoolYears} sy on sy.id = tp.school_year_id
left join lateral (${probe}) probe on true
where tp.org_id in (${idList(orgIds)}) and tp.deleted_at is null`;
}

/** A row of plansQuery as a plan. */
function planOf(r: Record<string, unknown>): PlanInfo {
  return {
    id: String(r.id),
    orgId: String(r.org_id),
    name: String(r.name),
    schoolYear: Number(r.school_year),
    academicYear: String(r.academic_year),
    semesterCode: Number(r.semester_code),
    startDate: String(r.start_date).slice(0, 10),
    hasResults: r.has_results === true || r.has_results === 't',
  };
}

export async function scopePlans(db: DbOrTx, orgIds: readonly string[], classScope: ClassScope): Promise<PlanInfo[]> {
  return (await viewRows(db, plansQuery(orgIds, classScope))).map(planOf);
}

/** What a school's scope and plans are read from (plansQuery probes the rollups for results). */
const SCOPE_AND_PLANS_TABLES = [orgs, testPlans, schoolYears, dcRollups, dcSchoolRollups].map((t) => getTableName(t));
/** A school's scope and plans, kept per change-feed version for each school and class scope asked (one per school and teacher). */
const keptScopeAndPlans = keptPerVersion<{ scope: DcScope; all: PlanInfo[] }>(SCOPE_AND_PLANS_TABLES, 2_000);

/**
 * A school's scope (its own organisation, known before it is read: resolveScope) and its plans (scopePlans) in one
 * statement, kept until its organisation, plans, school years or rollups change (keptPerVersion): a view asked again
 * with other filters, or another view of the school, then makes one round trip fewer. Callers treat the answer as
 * read-only: it is shared.
 */
export function schoolScopeAndPlans(db: DbOrTx, family: Family, viewer: Viewer): Promise<{ scope: DcScope; all: PlanInfo[] }> {
  if (family === 'admin') throw new Error('schoolScopeAndPlans: a school family only');
  const { tenantOrgId, classScope } = viewer;
  return keptScopeAndPlans(viewer.changes, tenantOrgId, JSON.stringify([family, tenantOrgId, classScope]), async () => {
    const parts = await viewParts(db, {
      org: sql`select o.id, o.name, o.type, o.parent_id as "parentId" from ${orgs} o where o.id = ${tenantOrgId}::uuid`,
      plans: plansQuery([tenantOrgId], classScope),
    });
    const row = parts.org[0];
    if (!row) throw notFound();
    const org = { id: String(row.id), name: String(row.name), type: Number(row.type), parentId: row.parentId == null ? null : String(row.parentId) };
    return { scope: schoolScope(family, org, classScope), all: parts.plans.map(planOf) };
  });
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

/**
 * Students of the scope (enabled, or of a graduated cohort) per cohort and gender (class / college / major / gender
 * filters applied), as `stage`, `enrolYear`, `gender`, `count` rows (rosterOf reads them).
 */
export function rosterQuery(orgIds: readonly string[], f: ResultFilters): SQL {
  // Graduated cohorts count in the years they were here even when their students were disabled on leaving.
  const columns = sql`g.stage, g.enrol_year as "enrolYear", r.gender, sum(case when g.graduated then r.students else r.enabled end)::int as count`;
  const gender = f.gender ? [sql`r.gender = ${f.gender}`] : [];
  if (!f.classId && !f.classIds && !f.collegeId && !f.majorId) {
    // No class named: from dc_grade_roster (dc_roster added up per grade), a few rows per school.
    return sql`select ${columns} from dc_grade_roster r join grades g on g.id = r.grade_id
where ${sql.join([sql`r.org_id in (${idList(orgIds)})`, ...gender], sql` and `)} group by g.stage, g.enrol_year, r.gender`;
  }
  // From dc_roster (students per class and gender, kept by triggers): a few rows per class instead of every student.
  // A roster row's class belongs to its organisation: saying so lets the classes be read through their org index
  // instead of a scan of every class of the district.
  const conds = [sql`r.org_id in (${idList(orgIds)})`, sql`c.org_id in (${idList(orgIds)})`];
  if (f.classId) conds.push(sql`r.class_id = ${f.classId}::uuid`);
  if (f.classIds) conds.push(f.classIds.length ? sql`r.class_id in (${idList(f.classIds)})` : sql`false`);
  conds.push(...gender);
  if (f.collegeId) conds.push(sql`c.college_id = ${f.collegeId}::uuid`);
  if (f.majorId) conds.push(sql`c.major_id = ${f.majorId}::uuid`);
  return sql`select ${columns} from dc_roster r join classes c on c.id = r.class_id join grades g on g.id = c.grade_id
where ${sql.join(conds, sql` and `)} group by g.stage, g.enrol_year, r.gender`;
}

/** The rows of rosterQuery as roster groups (groups without students left out). */
export function rosterGroupsOf(rows: readonly Record<string, unknown>[]): RosterGroup[] {
  return rows
    .filter((r) => Number(r.count) > 0)
    .map((r) => ({ stage: r.stage as Stage, enrolYear: Number(r.enrolYear), gender: r.gender as Gender, count: Number(r.count) }));
}

/** Students of the scope per cohort and gender (rosterQuery). */
export async function rosterGroups(db: DbOrTx, orgIds: readonly string[], f: ResultFilters): Promise<RosterGroup[]> {
  return rosterGroupsOf(await viewRows(db, rosterQuery(orgIds, f)));
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
