import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { graduationStartYear } from '@/domain/graduation/graduation';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { physiqueResults } from '../db/schema/physique';
import { physiqueExemptions } from '../db/schema/physique-year';
import { classes, grades, schoolYears, students } from '../db/schema/school';
import { testPlans } from '../db/schema/test-plans';

/**
 * The graduation demo (docs/product-rules.md#physique-year: Graduation). The physique demo (physique-demo.ts) already
 * gives the K12 school's graduating junior (grade 9) and senior (grade 12) cohorts results in each of their three
 * school years; this adds what the graduation list must show besides: in the senior cohort one student exempt in a
 * middle year (left out of the mean) and one exempt in the graduation year (免测). The students below 50 come from the
 * physique demo's weakest students (about one in a hundred). Approved requests of the first K12 school, as a school's
 * approval would leave them; a request another seed made for the same student and year is kept.
 */
export async function seedGraduationDemo(db: DbOrTx, opts: { currentStartYear: number; today: string }): Promise<{ exemptions: number }> {
  const [school] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code)).limit(1);
  if (!school) return { exemptions: 0 };
  const cohorts = await db.select({ id: grades.id, stage: grades.stage, enrolYear: grades.enrolYear }).from(grades).where(and(eq(grades.orgId, school.id), eq(grades.stage, 'senior'), eq(grades.graduated, false)));
  const senior = cohorts.find((c) => graduationStartYear(c.stage, c.enrolYear) === opts.currentStartYear);
  if (!senior) return { exemptions: 0 };
  const years = new Map(
    (await db.select({ id: schoolYears.id, startYear: schoolYears.startYear }).from(schoolYears).where(eq(schoolYears.orgId, school.id))).map((y) => [y.startYear, y.id]),
  );
  const middle = years.get(opts.currentStartYear - 1);
  const last = years.get(opts.currentStartYear);
  if (!middle || !last) return { exemptions: 0 };
  const kids = await db
    .select({ id: students.id })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(classes.gradeId, senior.id), eq(students.status, 'studying')))
    .orderBy(asc(classes.code), asc(students.regNo))
    .limit(40);
  // Students without a result in the exempt year: an exempt year is one the student was not tested in.
  const testedIn = async (yearId: string) =>
    new Set(
      (
        await db
          .select({ id: physiqueResults.studentId })
          .from(physiqueResults)
          .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
          .where(and(eq(testPlans.schoolYearId, yearId), isNull(testPlans.retestOfPlanId), inArray(physiqueResults.studentId, kids.map((k) => k.id))))
      ).map((r) => r.id),
    );
  const [middleTested, lastTested] = [await testedIn(middle), await testedIn(last)];
  const middleKid = kids.find((k) => !middleTested.has(k.id)) ?? kids[0];
  const lastKid = kids.find((k) => k.id !== middleKid?.id && !lastTested.has(k.id)) ?? kids.find((k) => k.id !== middleKid?.id);
  if (!middleKid || !lastKid) return { exemptions: 0 };
  const decidedAt = new Date(`${opts.today}T02:00:00Z`);
  // Asked and approved by the school's administrator, like the exemption demo's console requests.
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
  const by = { requestedBy: admin?.id ?? null, decidedBy: admin?.id ?? null };
  const made = await db
    .insert(physiqueExemptions)
    .values([
      { orgId: school.id, studentId: middleKid.id, schoolYearId: middle, kind: 'exempt', reason: '膝关节术后康复期，遵医嘱免予执行', status: 'approved', ...by, requestedAt: new Date(`${opts.currentStartYear}-03-02T01:00:00Z`), decidedAt: new Date(`${opts.currentStartYear}-03-05T01:00:00Z`) },
      { orgId: school.id, studentId: lastKid.id, schoolYearId: last, kind: 'exempt', reason: '先天性心脏病，医院证明不宜参加剧烈运动', status: 'approved', ...by, requestedAt: new Date(`${opts.currentStartYear}-09-10T01:00:00Z`), decidedAt },
    ])
    .onConflictDoNothing()
    .returning({ id: physiqueExemptions.id });
  return { exemptions: made.length };
}
