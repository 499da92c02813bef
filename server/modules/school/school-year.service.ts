import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { SEMESTER } from '@/domain/constants';
import {
  overlaps,
  SEMESTER_CODE,
  SEMESTER_KEYS,
  semesterSpan,
  startYearOf,
  type SchoolYearSave,
} from '@/domain/school/school-years';
import type { SchoolYearDetail } from '@/domain/school/types';
import type { DbOrTx, Tx } from '../../db/client';
import { schoolRollovers, schoolYears, semesters } from '../../db/schema/school';
import { physiqueResults } from '../../db/schema/physique';
import { testPlans } from '../../db/schema/test-plans';
import { fieldError } from '../../lib/app-error';
import { paginate } from '../../lib/paginate';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { localDate } from '@/domain/dates';

/** Today as an ISO date in the server's clock. */

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

/**
 * The semester that is current for an organisation (docs/product-rules.md#year-rollover): the one containing today,
 * unless the last rollover (not undone) moved the school ahead to a year whose first semester has not started yet:
 * then that one, as the rollover set it. The school-year list and the stored flags (read by plans and imports) both
 * follow this one rule.
 */
async function currentSemesterId(db: DbOrTx, orgId: string, today: string): Promise<string | null> {
  const [last] = await db
    .select({ toYearId: schoolRollovers.toYearId, undoneAt: schoolRollovers.undoneAt })
    .from(schoolRollovers)
    .where(eq(schoolRollovers.orgId, orgId))
    .orderBy(desc(schoolRollovers.createdAt))
    .limit(1);
  if (last && !last.undoneAt && last.toYearId) {
    const [ahead] = await db
      .select({ id: semesters.id })
      .from(semesters)
      .where(and(eq(semesters.schoolYearId, last.toYearId), eq(semesters.code, SEMESTER.autumn), sql`${semesters.startDate} > ${today}`));
    if (ahead) return ahead.id;
  }
  // One at most, even if old data overlaps: the latest start wins.
  const [hit] = await db
    .select({ id: semesters.id })
    .from(semesters)
    .where(and(eq(semesters.orgId, orgId), sql`${semesters.startDate} <= ${today}`, sql`coalesce(${semesters.breakEnd}, ${semesters.endDate}) >= ${today}`))
    .orderBy(desc(semesters.startDate))
    .limit(1);
  return hit?.id ?? null;
}

/** A year with its semesters, `current` marking the organisation's current semester and its year. */
function withCurrent<Y extends { id: string }>(y: Y, terms: Awaited<ReturnType<typeof semestersOf>>, currentId: string | null) {
  const own = terms.filter((s) => s.schoolYearId === y.id).map(({ schoolYearId: _y, ...s }) => s);
  return { ...y, current: own.some((s) => s.id === currentId), semesters: own.map((s) => ({ ...s, current: s.id === currentId })) };
}

/** School years of the tenant, newest first, each with its semesters; `current` marks the current semester. */
export async function schoolYearPage(db: DbOrTx, actor: Actor, q: { current: number; size: number; startYear?: number }, now: Date): Promise<Page<SchoolYearDetail>> {
  const query = db
    .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, startYear: schoolYears.startYear, version: schoolYears.version })
    .from(schoolYears)
    .where(and(eq(schoolYears.orgId, actor.tenantOrgId), q.startYear === undefined ? undefined : eq(schoolYears.startYear, q.startYear)))
    .orderBy(desc(schoolYears.startYear), asc(schoolYears.id))
    .$dynamic();
  const page = await paginate(db, query, q);
  const terms = await semestersOf(db, page.records.map((r) => r.id));
  const currentId = await currentSemesterId(db, actor.tenantOrgId, localDate(now));
  return { ...page, records: page.records.map((y) => withCurrent(y, terms, currentId)) };
}

export async function schoolYearById(db: DbOrTx, actor: Actor, id: string, now: Date): Promise<SchoolYearDetail> {
  const [y] = await db
    .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, startYear: schoolYears.startYear, version: schoolYears.version })
    .from(schoolYears)
    .where(and(eq(schoolYears.id, id), eq(schoolYears.orgId, actor.tenantOrgId)));
  if (!y) throw notFound();
  return withCurrent(y, await semestersOf(db, [id]), await currentSemesterId(db, actor.tenantOrgId, localDate(now)));
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

/** Keeps the stored current flags (read by plans and imports) on the current semester (`currentSemesterId`). */
async function refreshCurrent(tx: Tx, orgId: string, now: Date): Promise<void> {
  const currentId = await currentSemesterId(tx, orgId, localDate(now));
  await tx.update(semesters).set({ current: false }).where(and(eq(semesters.orgId, orgId), eq(semesters.current, true)));
  await tx.update(schoolYears).set({ current: false }).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true)));
  if (!currentId) return;
  const [hit] = await tx.update(semesters).set({ current: true }).where(eq(semesters.id, currentId)).returning({ yearId: semesters.schoolYearId });
  await tx.update(schoolYears).set({ current: true }).where(eq(schoolYears.id, hit.yearId));
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
