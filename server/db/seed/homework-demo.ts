import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { activityRecords } from '../schema/activities';
import { files } from '../schema/files';
import { homeworkClasses, homeworkItems, homeworkReviews, homeworks } from '../schema/homework';
import { orgs } from '../schema/orgs';
import { classes, grades, students } from '../schema/school';
import { users } from '../schema/auth';
import { devices } from '../schema/venue';
import { insertActivityRecords, type SeedRecord } from './activity-records';
import { createRandom } from './people';

const SEED = 20_261_125;
const DAY = 86_400_000;

/** A calendar day `n` days from `day` (YYYY-MM-DD). */
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
/** An instant on a day in China (UTC+8) at hh:mm. */
const at = (day: string, hh: number, mm: number) => new Date(`${day}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00+08:00`);

/**
 * Sports homework of the demo K12 school (docs/product-rules.md#demo-data): teacher01's daily rope-skipping homework to
 * four classes of grade 7, running since five days before `today`, with submissions from the rope-skipping device and
 * a few with a video (two waiting for review, one judged invalid); a weekly homework that ended early; one that starts
 * next week. Video files are rows of the file store without bytes (the demo has no video to play; the review works).
 */
export async function seedHomeworkDemo(db: DbOrTx, today: string): Promise<void> {
  const rnd = createRandom(SEED);
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
  const [ropeDevice] = await db.select({ id: devices.id }).from(devices).where(and(eq(devices.orgId, school.id), eq(devices.name, '智能跳绳主机')));

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

  const kids = await db
    .select({ id: students.id, classId: students.classId })
    .from(students)
    .where(and(inArray(students.classId, classIds), eq(students.status, 'studying')))
    .orderBy(asc(students.studentNo));
  const records: SeedRecord[] = [];
  const sender = ropeDevice ? { deviceId: ropeDevice.id } : { submittedBy: teacher.id, source: 'console' as const };
  for (const kid of kids) {
    // Close to half do it every day and reach the targets; the rest now and then.
    const diligent = rnd.chance(0.45);
    const keen = rnd.next();
    for (let d = 0; d <= 5; d++) {
      if (!diligent && rnd.next() > keen) continue;
      const day = shift(start, d);
      const rope = diligent ? rnd.int(140, 185) : rnd.int(105, 170);
      const jacks = diligent ? rnd.int(50, 70) : rnd.int(35, 65);
      records.push({ studentId: kid.id, kind: 'homework', refId: daily.id, item: 'rope1min', value: rope, measuredAt: at(day, 18, rnd.int(0, 59)), ...sender });
      records.push({ studentId: kid.id, kind: 'homework', refId: daily.id, item: 'jumpingJack', value: jacks, measuredAt: at(day, 18, rnd.int(0, 59)), ...sender });
    }
    if (classIds.slice(0, 2).includes(kid.classId) && rnd.chance(0.7)) {
      records.push({ studentId: kid.id, kind: 'homework', refId: weekly.id, item: 'sitUp1min', value: rnd.int(25, 50), measuredAt: at(shift(today, -6), 10, rnd.int(0, 59)), ...sender });
    }
  }
  await insertActivityRecords(db, records);

  // Submissions from home with a video: two waiting for review, one already judged invalid.
  const withVideo = kids.slice(0, 3);
  const videos = await db
    .insert(files)
    .values(withVideo.map((_, i) => ({ orgId: school.id, purpose: 'video', name: `跳绳打卡${i + 1}.mp4`, hash: 'demo-homework-video-' + i, size: 2_400_000 + i * 1000, mime: 'video/mp4', createdBy: teacher.id, createdAt: at(shift(today, -1), 19, 10 + i) })))
    .returning({ id: files.id });
  const ids = await insertActivityRecords(
    db,
    withVideo.map((kid, i) => ({
      studentId: kid.id,
      kind: 'homework' as const,
      refId: daily.id,
      item: 'rope1min',
      value: [152, 146, 190][i],
      measuredAt: at(shift(today, -1), 19, 5 + i),
      source: 'console' as const,
      submittedBy: teacher.id,
      videoFileId: videos[i].id,
      invalid: i === 2,
    })),
  );
  await db.insert(homeworkReviews).values({ recordId: ids[2], homeworkId: daily.id, verdict: 'invalid', reason: '视频中计数与上报成绩不符', reviewedBy: teacher.id, reviewedAt: at(today, 8, 20) });
  await db.update(activityRecords).set({ invalidReason: '视频中计数与上报成绩不符', invalidAt: at(today, 8, 20), invalidBy: teacher.id }).where(eq(activityRecords.id, ids[2]));
}
