import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema/auth';
import { trainingPlanItems, trainingPlanStudents, trainingPlans } from '../db/schema/homework';
import { orgs } from '../db/schema/orgs';
import { insertActivityRecords, type SeedRecord } from './activity-records';

const DAY = 86_400_000;
/** A calendar day `n` days from `day` (YYYY-MM-DD). */
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
/** Students the demo plan trains. */
const STUDENTS = 24;

/**
 * The special-training plan of the demo K12 school (docs/product-rules.md#special-training, #activities "Demo dates"):
 * teacher01 trains the students whose rope-skipping failed in the school's test plan with the most results, daily from
 * ten days before `today` for a month, with their sessions of the days so far (from the app, or entered by the teacher
 * for students without an account). Values are deterministic: each student's baseline plus steady progress.
 */
export async function seedTrainingDemo(db: DbOrTx, today: string): Promise<void> {
  const [school] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.name, '南京市江宁区实验学校'));
  const [teacher] = await db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'teacher01'));
  if (!school || !teacher) return;
  const { rows: picked } = await db.execute<{ plan_id: string; student_id: string; class_id: string; user_id: string | null; raw: number }>(sql`
    with plan as (
      select r.plan_id from physique_results r join test_plans p on p.id = r.plan_id
      where p.org_id = ${school.id}::uuid group by r.plan_id order by count(*) desc, r.plan_id limit 1)
    select r.plan_id, s.id as student_id, s.class_id, s.user_id, r.rope_1min as raw
    from physique_results r join plan on plan.plan_id = r.plan_id join students s on s.id = r.student_id
    where r.rope_1min_level = 'fail' and not r.invalid and s.status = 'studying' and r.rope_1min is not null
    order by s.class_id, s.student_no, s.id limit ${STUDENTS}`);
  if (picked.length === 0) return;

  const start = shift(today, -10);
  const [plan] = await db
    .insert(trainingPlans)
    .values({
      orgId: school.id,
      name: '跳绳不及格专项训练',
      cycle: 'daily',
      startDate: start,
      endDate: shift(today, 20),
      sourcePlanId: picked[0].plan_id,
      sourceItem: 'rope1min',
      sourceLevel: 'fail',
      createdBy: teacher.id,
      createdAt: new Date(`${shift(start, -1)}T16:00:00+08:00`),
    })
    .returning({ id: trainingPlans.id });
  await db.insert(trainingPlanItems).values([
    { planId: plan.id, item: 'rope1min', target: 60, intensity: 'medium', sort: 0 },
    { planId: plan.id, item: 'jumpingJack', target: 60, intensity: 'low', sort: 1 },
  ]);
  await db.insert(trainingPlanStudents).values(picked.map((p) => ({ planId: plan.id, studentId: p.student_id, classId: p.class_id })));

  const sessions: SeedRecord[] = [];
  picked.forEach((p, i) => {
    for (let d = 10; d >= 1; d--) {
      // Most students train most days; every third one skips every other day.
      if (i % 3 === 0 && d % 2 === 0) continue;
      const day = shift(today, -d);
      const done = 10 - d;
      const measuredAt = new Date(`${day}T${String(17 + (i % 4)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}:00+08:00`);
      const who = p.user_id ? { source: 'app' as const } : { source: 'console' as const, submittedBy: teacher.id };
      sessions.push({ studentId: p.student_id, kind: 'training', refId: plan.id, item: 'rope1min', value: Math.round(p.raw + done * (3 + (i % 5))), measuredAt, durationS: 60, ...who });
      if (d % 2 === 1) sessions.push({ studentId: p.student_id, kind: 'training', refId: plan.id, item: 'jumpingJack', value: 35 + done * 2 + (i % 7), measuredAt: new Date(measuredAt.getTime() + 300_000), durationS: 60, ...who });
    }
  });
  await insertActivityRecords(db, sessions);
}

