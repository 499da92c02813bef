import { and, asc, desc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import { SEMESTER } from '@/domain/constants';
import type { SchoolFamily } from '@/domain/menus/access';
import { K12_STAGES, STAGE_GRADES, type GradeStage } from '@/domain/school/grades';
import {
  classNameInGrade,
  cohortYear,
  graduatesNext,
  UNIVERSITY_DEFAULT_LENGTH,
  universityClassGraduates,
  type RolloverCommit,
  type RolloverEntering,
  type RolloverGraduation,
  type RolloverMove,
  type RolloverPreview,
  type RolloverSummary,
} from '@/domain/school/rollover';
import type { DbOrTx, Tx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { physiqueResults, testRecords } from '../../db/schema/physique';
import {
  classes,
  grades,
  majors,
  schoolRollovers,
  schoolYears,
  semesters,
  students,
  teacherClasses,
  type RolloverChanges,
} from '../../db/schema/school';
import { testPlans, testPlanScopes } from '../../db/schema/test-plans';
import { AppError, fieldError, type MessageKey } from '../../lib/app-error';
import type { Actor } from '../../plugins/tenant';
import { createSchoolYear } from './school-year.service';
import { isoInstant } from '../../lib/iso';

/**
 * Year rollover of a school (docs/product-rules.md#year-rollover): preview, commit in one transaction, and undo of the
 * last one from what it recorded in school_rollovers. Grades are enrolment cohorts, so classes keep their ids,
 * students and results; reports of earlier years read the grade and class stored with each result.
 */

const academicYearOf = (startYear: number) => `${startYear}-${startYear + 1}`;

interface Cohort {
  id: string;
  stage: GradeStage;
  gradeNo: number;
  enrolYear: number;
  version: number;
}

interface Plan {
  preview: RolloverPreview;
  toYearId: string | null;
  moving: Cohort[];
  /** Cohorts that leave whole (their grade is marked graduated); the others move up one grade. */
  leaving: ReadonlySet<string>;
}

/** The stages a family's rollover moves: a school's three, a university's one. */
const stagesOf = (family: SchoolFamily): readonly GradeStage[] => (family === 'gx' ? ['university'] : K12_STAGES);

/** The grade a cohort moves to: the next one, within its stage (a university's 5th year stays in the last grade). */
const nextGrade = (c: Cohort) => Math.min(c.gradeNo + 1, STAGE_GRADES[c.stage][1]);

/** The most frequent school year the cohorts' grade numbers describe (hand-edited cohorts may disagree; the earlier year wins a tie). */
function yearOfCohorts(cohorts: readonly Cohort[]): number {
  const counts = new Map<number, number>();
  for (const c of cohorts) {
    const y = cohortYear(c.stage, c.enrolYear, c.gradeNo);
    counts.set(y, (counts.get(y) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
}

/** What a rollover of the tenant would do now; 409 when no cohort is in school. */
async function planOf(db: DbOrTx, actor: Actor, family: SchoolFamily): Promise<Plan> {
  const inSchool: Cohort[] = await db
    .select({ id: grades.id, stage: grades.stage, gradeNo: grades.gradeNo, enrolYear: grades.enrolYear, version: grades.version })
    .from(grades)
    .where(and(eq(grades.orgId, actor.tenantOrgId), eq(grades.graduated, false), inArray(grades.stage, [...stagesOf(family)])))
    .orderBy(asc(grades.gradeNo), desc(grades.enrolYear));
  if (inSchool.length === 0) throw new AppError(409, 'people:rollover.errors.nothing');
  const from = yearOfCohorts(inSchool);
  const to = from + 1;
  // A cohort entered for the new year ahead of the rollover is not moved: it is that year's entering grade already.
  const moving = inSchool.filter((c) => c.enrolYear <= from);
  const ids = moving.map((c) => c.id);
  const classRows = ids.length
    ? await db
        .select({
          id: classes.id,
          gradeId: classes.gradeId,
          code: classes.code,
          name: classes.name,
          schoolLength: sql<number>`coalesce(${majors.schoolLength}, ${UNIVERSITY_DEFAULT_LENGTH})::int`,
          students: sql<number>`(select count(*)::int from ${students} where ${students.classId} = "classes"."id")`,
        })
        .from(classes)
        .leftJoin(majors, eq(majors.id, classes.majorId))
        .where(and(eq(classes.orgId, actor.tenantOrgId), inArray(classes.gradeId, ids)))
        .orderBy(asc(classes.code), asc(classes.name))
    : [];

  const moves: RolloverMove[] = [];
  const graduating: RolloverGraduation[] = [];
  const leaving = new Set<string>();
  for (const c of moving) {
    const own = classRows.filter((r) => r.gradeId === c.id);
    // A school cohort leaves whole from the last grade; a university class leaves when its major's years are over.
    const leaves =
      c.stage === 'university' ? own.filter((r) => universityClassGraduates(from, c.enrolYear, Number(r.schoolLength))) : graduatesNext(c.stage, c.gradeNo) ? own : [];
    const wholeCohort = leaves.length === own.length && (own.length > 0 || graduatesNext(c.stage, c.gradeNo));
    if (wholeCohort) leaving.add(c.id);
    if (leaves.length > 0 || wholeCohort)
      graduating.push({
        gradeId: c.id,
        wholeCohort,
        stage: c.stage,
        gradeNo: c.gradeNo,
        enrolYear: c.enrolYear,
        classes: leaves.map((r) => ({ id: r.id, name: r.name })),
        students: leaves.reduce((n, r) => n + Number(r.students), 0),
      });
    if (wholeCohort) continue;
    const to = nextGrade(c);
    for (const r of own)
      if (!leaves.includes(r))
        moves.push({ classId: r.id, gradeId: c.id, stage: c.stage, name: r.name, newName: classNameInGrade(r.name, c.gradeNo, to), fromGrade: c.gradeNo, toGrade: to, students: Number(r.students) });
  }

  // Each stage the school teaches gets an entering cohort, with the classes of its present first grade by default.
  const entering: RolloverEntering[] = [];
  for (const stage of K12_STAGES) {
    if (!moving.some((c) => c.stage === stage)) continue;
    if (inSchool.some((c) => c.stage === stage && c.enrolYear === to)) continue;
    const first = STAGE_GRADES[stage][0];
    const firstCohort = moving.find((c) => c.stage === stage && c.gradeNo === first);
    const defaults = firstCohort ? classRows.filter((r) => r.gradeId === firstCohort.id).map((r) => ({ code: r.code, name: r.name })) : [];
    entering.push({ stage, gradeNo: first, enrolYear: to, classes: defaults });
  }

  const [year] = await db.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, actor.tenantOrgId), eq(schoolYears.startYear, to)));
  const terms = year
    ? await db
        .select({ code: semesters.code, startDate: semesters.startDate, endDate: semesters.endDate, breakStart: semesters.breakStart, breakEnd: semesters.breakEnd })
        .from(semesters)
        .where(eq(semesters.schoolYearId, year.id))
        .orderBy(asc(semesters.startDate))
    : [];
  return {
    preview: {
      from: { startYear: from, academicYear: academicYearOf(from) },
      to: { startYear: to, academicYear: academicYearOf(to), exists: Boolean(year), semesters: terms },
      moves,
      graduating,
      entering,
    },
    toYearId: year?.id ?? null,
    moving,
    leaving,
  };
}

export async function rolloverPreview(db: DbOrTx, actor: Actor, family: SchoolFamily): Promise<RolloverPreview> {
  return (await planOf(db, actor, family)).preview;
}

/** One rollover at a time per organisation: the organisation's row is locked for the transaction. */
async function lockOrg(tx: Tx, orgId: string): Promise<void> {
  await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, orgId)).for('update');
}

async function currentFlags(tx: Tx, orgId: string) {
  const [year] = await tx.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true)));
  const [term] = await tx.select({ id: semesters.id }).from(semesters).where(and(eq(semesters.orgId, orgId), eq(semesters.current, true)));
  return { yearId: year?.id ?? null, semesterId: term?.id ?? null };
}

/** Moves the current flags (read by plans and imports) to one school year and semester, or clears them. */
async function setCurrent(tx: Tx, orgId: string, yearId: string | null, semesterId: string | null): Promise<void> {
  await tx.update(semesters).set({ current: false }).where(and(eq(semesters.orgId, orgId), eq(semesters.current, true)));
  await tx.update(schoolYears).set({ current: false }).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true)));
  if (yearId) await tx.update(schoolYears).set({ current: true }).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.id, yearId)));
  if (semesterId) await tx.update(semesters).set({ current: true }).where(and(eq(semesters.orgId, orgId), eq(semesters.id, semesterId)));
}

/**
 * The refusals of a rollover request against the plan as it is now: the route asks before it starts the job (so a bad
 * request answers at once) and the job asks again in its transaction (the school may have changed in between).
 */
export async function checkRollover(db: DbOrTx, actor: Actor, family: SchoolFamily, body: RolloverCommit): Promise<Plan> {
  const plan = await planOf(db, actor, family);
  const { preview } = plan;
  if (body.academicYear !== preview.to.academicYear) throw fieldError('academicYear', 'people:rollover.errors.notNext', { year: preview.to.academicYear });
  body.entering.forEach((e, i) => {
    if (!preview.entering.some((p) => p.stage === e.stage)) throw fieldError(`entering.${i}.stage`, 'people:rollover.errors.enteringExists');
  });
  if (!plan.toYearId && !body.year) throw fieldError('year', 'people:rollover.errors.yearRequired');
  return plan;
}

/** Commits a rollover in the caller's transaction; answers its summary. */
export async function commitRollover(tx: Tx, actor: Actor, family: SchoolFamily, body: RolloverCommit, now: Date): Promise<RolloverSummary> {
  const orgId = actor.tenantOrgId;
  await lockOrg(tx, orgId);
  const { preview, moving, leaving, toYearId: existingYearId } = await checkRollover(tx, actor, family, body);
  const previous = await currentFlags(tx, orgId);

  // checkRollover refused a missing year without dates.
  const toYearId = existingYearId ?? (await createSchoolYear(tx, actor, body.year!, now)).id;
  // Classes do not change here (cohorts move, classes stay in them), but any class change this transaction makes is a rollover's.
  await tx.execute(sql`select set_config('tiyu.class_change_reason', 'rollover', true)`);

  const graduatingClassIds = preview.graduating.flatMap((g) => g.classes.map((c) => c.id));
  const studentRows = graduatingClassIds.length
    ? await tx
        .update(students)
        .set({ status: 'graduated', version: sql`${students.version} + 1` })
        .where(and(eq(students.orgId, orgId), inArray(students.classId, graduatingClassIds), eq(students.status, 'studying')))
        .returning({ id: students.id, version: students.version })
    : [];

  const gradeChanges: RolloverChanges['grades'] = [];
  for (const c of moving) {
    const graduates = leaving.has(c.id);
    const [row] = await tx
      .update(grades)
      .set(graduates ? { graduated: true, version: sql`${grades.version} + 1` } : { gradeNo: nextGrade(c), version: sql`${grades.version} + 1` })
      .where(eq(grades.id, c.id))
      .returning({ version: grades.version });
    gradeChanges.push({ id: c.id, before: { gradeNo: c.gradeNo, graduated: false }, version: row.version, graduates });
  }

  const classChanges: RolloverChanges['classes'] = [];
  if (body.renameClasses) {
    for (const m of preview.moves) {
      if (m.newName === m.name) continue;
      const [row] = await tx.update(classes).set({ name: m.newName, version: sql`${classes.version} + 1` }).where(eq(classes.id, m.classId)).returning({ version: classes.version });
      classChanges.push({ id: m.classId, before: { name: m.name }, version: row.version });
    }
  }

  const createdGrades: string[] = [];
  const createdClasses: string[] = [];
  for (const e of body.entering) {
    const [g] = await tx
      .insert(grades)
      .values({ orgId, stage: e.stage, enrolYear: preview.to.startYear, gradeNo: STAGE_GRADES[e.stage][0], graduated: false })
      .returning({ id: grades.id });
    createdGrades.push(g.id);
    if (e.classes.length === 0) continue;
    const made = await tx
      .insert(classes)
      .values(e.classes.map((c) => ({ orgId, gradeId: g.id, code: c.code, name: c.name })))
      .returning({ id: classes.id });
    createdClasses.push(...made.map((r) => r.id));
  }

  // The new year becomes current from its first semester (autumn).
  const [autumn] = await tx.select({ id: semesters.id }).from(semesters).where(and(eq(semesters.schoolYearId, toYearId), eq(semesters.code, SEMESTER.autumn)));
  await setCurrent(tx, orgId, toYearId, autumn?.id ?? null);

  const changes: RolloverChanges = {
    createdYear: !existingYearId,
    previousCurrentYearId: previous.yearId,
    previousCurrentSemesterId: previous.semesterId,
    grades: gradeChanges,
    classes: classChanges,
    students: studentRows.map((r) => ({ id: r.id, before: { status: 'studying' }, version: r.version })),
    createdGrades,
    createdClasses,
  };
  const [saved] = await tx
    .insert(schoolRollovers)
    .values({ orgId, fromStartYear: preview.from.startYear, toStartYear: preview.to.startYear, toYearId, changes, createdBy: actor.userId, createdAt: now })
    .returning();
  return summaryOf(saved);
}

type RolloverRow = typeof schoolRollovers.$inferSelect;

function summaryOf(r: RolloverRow): RolloverSummary {
  const c = r.changes;
  return {
    id: r.id,
    fromYear: academicYearOf(r.fromStartYear),
    toYear: academicYearOf(r.toStartYear),
    createdAt: r.createdAt.toISOString(),
    undoneAt: isoInstant(r.undoneAt),
    moved: c.grades.filter((g) => !g.graduates).length,
    graduated: c.grades.filter((g) => g.graduates).length,
    graduatedStudents: c.students.length,
    enteringClasses: c.createdClasses.length,
  };
}

/** The tenant's last rollover, or null. */
export async function lastRollover(db: DbOrTx, actor: Actor): Promise<RolloverSummary | null> {
  const [row] = await db.select().from(schoolRollovers).where(eq(schoolRollovers.orgId, actor.tenantOrgId)).orderBy(desc(schoolRollovers.createdAt)).limit(1);
  return row ? summaryOf(row) : null;
}

interface Dependant {
  what: MessageKey;
  count(): Promise<number>;
}

/** 409 naming the first kind of data added since the rollover that depends on what it created or changed. */
async function assertNothingDepends(checks: readonly Dependant[], key: MessageKey): Promise<void> {
  for (const check of checks) {
    const n = await check.count();
    if (n > 0) throw new AppError(409, key, { what: check.what, count: n });
  }
}

/** Rows of `ids` whose version is no longer the one the rollover left. */
const changedSince = (rows: readonly { id: string; version: number }[], current: readonly { id: string; version: number }[]) => {
  const now = new Map(current.map((r) => [r.id, r.version]));
  return rows.filter((r) => now.get(r.id) !== r.version).length;
};

/** Undoes the tenant's last rollover, restoring what it changed and removing what it created; 409 when data depends on it. */
export async function undoRollover(tx: Tx, actor: Actor, now: Date): Promise<RolloverSummary> {
  const orgId = actor.tenantOrgId;
  await lockOrg(tx, orgId);
  const [last] = await tx.select().from(schoolRollovers).where(eq(schoolRollovers.orgId, orgId)).orderBy(desc(schoolRollovers.createdAt)).limit(1);
  if (!last || last.undoneAt) throw new AppError(409, 'people:rollover.errors.nothingToUndo');
  const c = last.changes;
  const made = c.createdClasses;
  const madeGrades = c.createdGrades;
  const none = async () => 0;

  await assertNothingDepends(
    [
      { what: 'school:entity.students', count: () => (made.length ? tx.$count(students, inArray(students.classId, made)) : none()) },
      { what: 'school:entity.classes', count: () => (madeGrades.length ? tx.$count(classes, and(inArray(classes.gradeId, madeGrades), made.length ? notInArray(classes.id, made) : undefined)) : none()) },
      {
        what: 'school:entity.testPlans',
        count: () =>
          last.toYearId
            ? tx.$count(testPlans, and(eq(testPlans.schoolYearId, last.toYearId), c.createdYear ? undefined : gt(testPlans.createdAt, last.createdAt)))
            : none(),
      },
      {
        what: 'school:entity.testPlans',
        count: () =>
          madeGrades.length || made.length
            ? tx.$count(testPlanScopes, sql`${madeGrades.length ? inArray(testPlanScopes.gradeId, madeGrades) : sql`false`} or ${made.length ? inArray(testPlanScopes.classId, made) : sql`false`}`)
            : none(),
      },
      { what: 'school:entity.results', count: () => (made.length ? tx.$count(physiqueResults, inArray(physiqueResults.classId, made)) : none()) },
      { what: 'school:entity.testRecords', count: () => (made.length ? tx.$count(testRecords, inArray(testRecords.classId, made)) : none()) },
      { what: 'school:entity.teachers', count: () => (made.length ? tx.$count(teacherClasses, inArray(teacherClasses.classId, made)) : none()) },
    ],
    'people:rollover.errors.undoInUse',
  );

  // What the rollover changed or created must be as it left it.
  const gradeIds = [...c.grades.map((g) => g.id), ...madeGrades];
  const classIds = [...c.classes.map((x) => x.id), ...made];
  const studentIds = c.students.map((s) => s.id);
  // One statement at a time: a transaction's connection runs them in turn anyway.
  const gradeNow = gradeIds.length ? await tx.select({ id: grades.id, version: grades.version }).from(grades).where(inArray(grades.id, gradeIds)) : [];
  const classNow = classIds.length ? await tx.select({ id: classes.id, version: classes.version }).from(classes).where(inArray(classes.id, classIds)) : [];
  const studentNow = studentIds.length ? await tx.select({ id: students.id, version: students.version }).from(students).where(inArray(students.id, studentIds)) : [];
  await assertNothingDepends(
    [
      { what: 'school:entity.grades', count: async () => changedSince([...c.grades, ...madeGrades.map((id) => ({ id, version: 1 }))], gradeNow) },
      { what: 'school:entity.classes', count: async () => changedSince([...c.classes, ...made.map((id) => ({ id, version: 1 }))], classNow) },
      { what: 'school:entity.students', count: async () => changedSince(c.students, studentNow) },
    ],
    'people:rollover.errors.undoChanged',
  );

  await tx.execute(sql`select set_config('tiyu.class_change_reason', 'rollover', true)`);
  if (studentIds.length) await tx.update(students).set({ status: 'studying', version: sql`${students.version} + 1` }).where(and(eq(students.orgId, orgId), inArray(students.id, studentIds)));
  for (const g of c.grades) await tx.update(grades).set({ gradeNo: g.before.gradeNo, graduated: g.before.graduated, version: sql`${grades.version} + 1` }).where(eq(grades.id, g.id));
  for (const x of c.classes) await tx.update(classes).set({ name: x.before.name, version: sql`${classes.version} + 1` }).where(eq(classes.id, x.id));
  if (made.length) await tx.delete(classes).where(and(eq(classes.orgId, orgId), inArray(classes.id, made)));
  if (madeGrades.length) await tx.delete(grades).where(and(eq(grades.orgId, orgId), inArray(grades.id, madeGrades)));
  await setCurrent(tx, orgId, c.previousCurrentYearId, c.previousCurrentSemesterId);
  if (c.createdYear && last.toYearId) await tx.delete(schoolYears).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.id, last.toYearId)));
  const [row] = await tx.update(schoolRollovers).set({ undoneAt: now }).where(eq(schoolRollovers.id, last.id)).returning();
  return summaryOf(row);
}
