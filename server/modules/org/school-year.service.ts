import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import {
  currentSemester,
  overlaps,
  SEMESTER_CODE,
  SEMESTER_KEYS,
  semesterSpan,
  startYearOf,
  type SchoolYearSave,
} from '@/domain/school/school-years';
import type { SchoolYearDetail } from '@/domain/school/types';
import type { DbOrTx, Tx } from '../../db/client';
import { schoolYears, semesters } from '../../db/schema/school';
import { physiqueResults } from '../../db/schema/physique';
import { testPlans } from '../../db/schema/test-plans';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/** Today as an ISO date in the server's clock. */
const isoDay = (now: Date) => now.toISOString().slice(0, 10);

async function semestersOf(db: DbOrTx, yearIds: string[]) {
  if (yearIds.length === 0) return [];
  return db
    .select({
      id: semesters.id,
      schoolYearId: semesters.schoolYearId,
      code: semesters.code,
      startDate: semesters.startDate,
      endDate: semesters.endDate,
      breakStart: semesters.breakStart,
      breakEnd: semesters.breakEnd,
    })
    .from(semesters)
    .where(inArray(semesters.schoolYearId, yearIds))
    .orderBy(asc(semesters.startDate));
}

/** School years of the tenant, newest first, each with its semesters; `current` is the semester containing today. */
export async function schoolYearPage(db: DbOrTx, actor: Actor, q: { current: number; size: number; startYear?: number }, now: Date): Promise<Page<SchoolYearDetail>> {
  const query = db
    .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, startYear: schoolYears.startYear, version: schoolYears.version })
    .from(schoolYears)
    .where(and(eq(schoolYears.orgId, actor.tenantOrgId), q.startYear === undefined ? undefined : eq(schoolYears.startYear, q.startYear)))
    .orderBy(desc(schoolYears.startYear), asc(schoolYears.id))
    .$dynamic();
  const page = await paginate(db, query, q);
  const terms = await semestersOf(db, page.records.map((r) => r.id));
  const today = isoDay(now);
  const records = page.records.map((y) => {
    const own = terms.filter((s) => s.schoolYearId === y.id).map(({ schoolYearId: _y, ...s }) => s);
    const current = currentSemester(own, today);
    return { ...y, current: current !== null, semesters: own.map((s) => ({ ...s, current: s === current })) };
  });
  return { ...page, records };
}

export async function schoolYearById(db: DbOrTx, actor: Actor, id: string, now: Date): Promise<SchoolYearDetail> {
  const [y] = await db
    .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, startYear: schoolYears.startYear, version: schoolYears.version })
    .from(schoolYears)
    .where(and(eq(schoolYears.id, id), eq(schoolYears.orgId, actor.tenantOrgId)));
  if (!y) throw notFound();
  const own = (await semestersOf(db, [id])).map(({ schoolYearId: _y, ...s }) => s);
  const current = currentSemester(own, isoDay(now));
  return { ...y, current: current !== null, semesters: own.map((s) => ({ ...s, current: s === current })) };
}

/** Refuses a year whose number exists or whose periods overlap another year's (rules the schema cannot see). */
async function assertFits(tx: Tx, actor: Actor, body: SchoolYearSave, exceptId?: string): Promise<number> {
  const startYear = startYearOf(body.academicYear)!;
  const other = exceptId ? ne(schoolYears.id, exceptId) : undefined;
  const [dup] = await tx
    .select({ id: schoolYears.id })
    .from(schoolYears)
    .where(and(eq(schoolYears.orgId, actor.tenantOrgId), eq(schoolYears.startYear, startYear), other));
  if (dup) throw fieldError('academicYear', 'validation:schoolYear.exists');
  const others = await tx
    .select({ startDate: semesters.startDate, endDate: semesters.endDate, breakStart: semesters.breakStart, breakEnd: semesters.breakEnd })
    .from(semesters)
    .innerJoin(schoolYears, eq(schoolYears.id, semesters.schoolYearId))
    .where(and(eq(schoolYears.orgId, actor.tenantOrgId), other));
  for (const key of SEMESTER_KEYS) {
    const mine = semesterSpan(body[key]);
    if (others.some((o) => overlaps(mine, semesterSpan(o)))) throw fieldError(`${key}.startDate`, 'validation:schoolYear.overlapOther');
  }
  return startYear;
}

/** Keeps the stored current flags (read by plans and imports) on the semester containing today. */
async function refreshCurrent(tx: Tx, orgId: string, now: Date): Promise<void> {
  const today = isoDay(now);
  await tx.update(semesters).set({ current: false }).where(and(eq(semesters.orgId, orgId), eq(semesters.current, true)));
  await tx.update(schoolYears).set({ current: false }).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true)));
  const [hit] = await tx
    .update(semesters)
    .set({ current: true })
    .where(
      and(
        eq(semesters.orgId, orgId),
        sql`${semesters.startDate} <= ${today}`,
        sql`coalesce(${semesters.breakEnd}, ${semesters.endDate}) >= ${today}`,
        // One at most, even if old data overlaps.
        eq(semesters.id, sql`(select s.id from semesters s where s.org_id = ${orgId} and s.start_date <= ${today} and coalesce(s.break_end, s.end_date) >= ${today} order by s.start_date desc limit 1)`),
      ),
    )
    .returning({ yearId: semesters.schoolYearId });
  if (hit) await tx.update(schoolYears).set({ current: true }).where(eq(schoolYears.id, hit.yearId));
}

async function writeSemesters(tx: Tx, orgId: string, yearId: string, body: SchoolYearSave): Promise<void> {
  await tx.delete(semesters).where(eq(semesters.schoolYearId, yearId));
  await tx.insert(semesters).values(
    SEMESTER_KEYS.map((key) => ({
      orgId,
      schoolYearId: yearId,
      code: SEMESTER_CODE[key],
      startDate: body[key].startDate,
      endDate: body[key].endDate,
      breakStart: body[key].breakStart ?? null,
      breakEnd: body[key].breakEnd ?? null,
    })),
  );
}

export async function createSchoolYear(tx: Tx, actor: Actor, body: SchoolYearSave, now: Date): Promise<SchoolYearDetail> {
  const startYear = await assertFits(tx, actor, body);
  const [row] = await tx.insert(schoolYears).values({ orgId: actor.tenantOrgId, academicYear: body.academicYear, startYear }).returning({ id: schoolYears.id });
  await writeSemesters(tx, actor.tenantOrgId, row.id, body);
  await refreshCurrent(tx, actor.tenantOrgId, now);
  return schoolYearById(tx, actor, row.id, now);
}

export async function updateSchoolYear(tx: Tx, actor: Actor, id: string, body: SchoolYearSave, now: Date): Promise<Change<SchoolYearDetail>> {
  const before = await schoolYearById(tx, actor, id, now);
  await lockVersion(tx, schoolYears, id, eq(schoolYears.orgId, actor.tenantOrgId), body.version ?? -1);
  const startYear = await assertFits(tx, actor, body, id);
  await tx.update(schoolYears).set({ academicYear: body.academicYear, startYear, version: nextVersion(schoolYears.version) }).where(eq(schoolYears.id, id));
  await writeSemesters(tx, actor.tenantOrgId, id, body);
  await refreshCurrent(tx, actor.tenantOrgId, now);
  return { before, after: await schoolYearById(tx, actor, id, now) };
}

/** Deletes a year without test plans or results (docs/product-rules.md#school-years). */
export async function deleteSchoolYear(tx: Tx, actor: Actor, id: string, now: Date): Promise<SchoolYearDetail> {
  const before = await schoolYearById(tx, actor, id, now);
  await assertUnused([
    { what: 'school:entity.testPlans', count: () => tx.$count(testPlans, eq(testPlans.schoolYearId, id)) },
    {
      what: 'school:entity.results',
      count: () => tx.$count(physiqueResults, inArray(physiqueResults.planId, tx.select({ id: testPlans.id }).from(testPlans).where(eq(testPlans.schoolYearId, id)))),
    },
  ]);
  await tx.delete(schoolYears).where(and(eq(schoolYears.id, id), eq(schoolYears.orgId, actor.tenantOrgId)));
  await refreshCurrent(tx, actor.tenantOrgId, now);
  return before;
}
