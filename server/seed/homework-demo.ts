import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { homeworkClasses, homeworkItems, homeworks } from '../db/schema/homework';
import { orgs } from '../db/schema/orgs';
import { classes, grades } from '../db/schema/school';
import { users } from '../db/schema/auth';

const DAY = 86_400_000;

/** A calendar day `n` days from `day` (YYYY-MM-DD). */
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
/** An instant on a day in China (UTC+8) at hh:mm. */
const at = (day: string, hh: number, mm: number) => new Date(`${day}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00+08:00`);

/**
 * Sports homework of the demo K12 school (docs/product-rules.md#demo-data): teacher01's daily rope-skipping homework to
 * four classes of grade 7, running since five days before `today`; a weekly homework that ended early; one that starts
 * next week. The results (some with a video to review) arrive through the device and app API (server/simulate).
 */
export async function seedHomeworkDemo(db: DbOrTx, today: string): Promise<void> {
  const [school] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.name, '南京市江宁区实验学校'));
  const [teacher] = await db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'teacher01'));
  if (!school || !teacher) return;
  const grade7 = await db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, school.id), eq(grades.gradeNo, 7), eq(grades.graduated, false)))
    .orderBy(asc(classes.code));
  const classIds = grade7.slice(0, 4).map((c) => c.id);
  if (classIds.length === 0) return;

  const start = shift(today, -5);
  const [daily, weekly, later] = await db
    .insert(homeworks)
    .values([
      { orgId: school.id, name: '每日跳绳打卡', note: '每天完成1分钟跳绳和开合跳，可上传视频。', cycle: 'daily', startDate: start, endDate: shift(today, 9), createdBy: teacher.id, createdAt: at(shift(start, -1), 16, 30) },
      { orgId: school.id, name: '周末体能练习', note: '每周一次仰卧起坐。', cycle: 'weekly', startDate: shift(today, -20), endDate: shift(today, 20), endedAt: at(shift(today, -3), 17, 0), createdBy: teacher.id, createdAt: at(shift(today, -21), 9, 0) },
      { orgId: school.id, name: '寒假跑步计划', note: '', cycle: 'weekly', startDate: shift(today, 7), endDate: shift(today, 60), createdBy: teacher.id, createdAt: at(today, 8, 0) },
    ])
    .returning({ id: homeworks.id });
  await db.insert(homeworkClasses).values([
    ...classIds.map((classId) => ({ homeworkId: daily.id, classId })),
    ...classIds.slice(0, 2).map((classId) => ({ homeworkId: weekly.id, classId })),
    ...classIds.slice(2).map((classId) => ({ homeworkId: later.id, classId })),
  ]);
  await db.insert(homeworkItems).values([
    { homeworkId: daily.id, item: 'rope1min', target: 140, intensity: 'medium', sort: 0 },
    { homeworkId: daily.id, item: 'jumpingJack', target: 50, intensity: 'low', sort: 1 },
    { homeworkId: weekly.id, item: 'sitUp1min', target: 35, intensity: 'medium', sort: 0 },
    { homeworkId: later.id, item: 'running', target: 2000, intensity: 'medium', sort: 0 },
  ]);
}
