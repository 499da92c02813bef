import { and, asc, desc, eq, isNull, lte, gte } from 'drizzle-orm';
import { localDate } from '@/domain/dates';
import type { ResultKey } from '@/domain/physique/national-template';
import type { ItemKey } from '@/domain/physique/standard';
import { fieldsOfItem } from '@/domain/test-day/entries';
import type { DbOrTx } from '../db/client';
import { memberships, users } from '../db/schema/auth';
import { physiqueResults } from '../db/schema/physique';
import { teachers } from '../db/schema/school';
import { testDayCheckIns, testDayEntries, testDayStationDevices, testDayStations, testDayStationTeachers } from '../db/schema/test-day';
import { testPlans } from '../db/schema/test-plans';
import { devices, venues } from '../db/schema/venue';
import { itemsFor, loadPlanContext, planScopeStudents, writeResultInTx } from '../modules/physique-results/physique-write';
import { testDay } from '../modules/physique-results/physique-import.service';

/** The stations of the demo's test day: name, items (kept to the plan's), the share of students done and waiting. */
const STATIONS: readonly { name: string; items: ItemKey[]; done: number; waiting: number }[] = [
  { name: '身高体重', items: ['bmi'], done: 0.85, waiting: 0.05 },
  { name: '50米跑', items: ['run50m'], done: 0.7, waiting: 0.1 },
  { name: '立定跳远', items: ['standingLongJump'], done: 0.45, waiting: 0.15 },
  { name: '坐位体前屈', items: ['sitAndReach'], done: 0, waiting: 0 },
];
/** Classes of the scope the day has reached so far (half a grade's). */
const CLASSES = 3;

/**
 * A test day in progress on the K12 demo school's current plan (docs/product-rules.md#physique-year, test day): four
 * stations with a venue, devices and teachers; in three classes most students confirmed at the first stations, some
 * checked in and waiting, one appeal open. Confirmed values are written through the results' own writer
 * (writeResultInTx), with the values the students' results already hold, so scores and rollups stay as they are.
 */
export async function seedTestDayDemo(tx: DbOrTx, now: Date): Promise<void> {
  const [admin] = await tx
    .select({ userId: users.id, orgId: memberships.tenantOrgId })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.accountNum, 'school01'))
    .limit(1);
  const [teacher] = await tx.select({ userId: users.id }).from(users).where(eq(users.accountNum, 'teacher01')).limit(1);
  if (!admin || !teacher) return;
  const today = localDate(now);
  const [plan] = await tx
    .select()
    .from(testPlans)
    .where(and(eq(testPlans.orgId, admin.orgId), lte(testPlans.startDate, today), gte(testPlans.endDate, today), isNull(testPlans.endedAt), isNull(testPlans.deletedAt)))
    .orderBy(desc(testPlans.startDate))
    .limit(1);
  if (!plan) return;
  const ctx = await loadPlanContext(tx, plan);
  const scope = await planScopeStudents(tx, ctx);
  // Classes whose students are tested on every station's items (a junior-school grade: the long jump is theirs).
  const everyItem = (s: (typeof scope)[number]) => STATIONS.every((st) => st.items.every((i) => itemsFor(ctx, s.grade, s.gender).includes(i)));
  const classIds = [...new Set(scope.filter(everyItem).map((s) => s.classId))].sort().slice(0, CLASSES);
  const pupils = scope.filter((s) => classIds.includes(s.classId)).sort((a, b) => a.regNo.localeCompare(b.regNo));
  const venueRows = await tx.select({ id: venues.id }).from(venues).where(eq(venues.orgId, admin.orgId)).orderBy(asc(venues.code)).limit(STATIONS.length);
  const deviceRows = await tx.select({ id: devices.id }).from(devices).where(eq(devices.orgId, admin.orgId)).orderBy(asc(devices.serialNo)).limit(STATIONS.length);
  const teacherRows = await tx.select({ id: teachers.id }).from(teachers).where(eq(teachers.orgId, admin.orgId)).orderBy(asc(teachers.name)).limit(STATIONS.length * 2);
  const stored = new Map(
    (await tx.select().from(physiqueResults).where(eq(physiqueResults.planId, plan.id))).map((r) => [r.studentId, r as unknown as Record<string, number | null>]),
  );
  const testedOn = testDay(plan, now);
  let minute = 0;
  const at = () => new Date(now.getTime() - (240 - (minute++ % 240)) * 60_000);
  let appealed = false;

  for (const [i, spec] of STATIONS.entries()) {
    const [station] = await tx
      .insert(testDayStations)
      .values({ orgId: admin.orgId, planId: plan.id, name: spec.name, items: spec.items, venueId: venueRows[i]?.id ?? null, createdAt: new Date(now.getTime() - 86_400_000 + i * 1000) })
      .returning({ id: testDayStations.id });
    if (deviceRows[i]) await tx.insert(testDayStationDevices).values({ stationId: station.id, deviceId: deviceRows[i].id });
    for (const t of teacherRows.slice(i * 2, i * 2 + 2)) await tx.insert(testDayStationTeachers).values({ stationId: station.id, teacherId: t.id });

    const doneUpTo = Math.round(pupils.length * spec.done);
    const waitUpTo = doneUpTo + Math.round(pupils.length * spec.waiting);
    for (const [k, s] of pupils.slice(0, waitUpTo).entries()) {
      const mine = new Set(itemsFor(ctx, s.grade, s.gender));
      const fields: ResultKey[] = spec.items.filter((item) => mine.has(item)).flatMap(fieldsOfItem);
      const values = stored.get(s.id);
      if (fields.length === 0 || !values || fields.some((f) => values[f] == null)) continue;
      const checkedInAt = at();
      await tx.insert(testDayCheckIns).values({ stationId: station.id, planId: plan.id, studentId: s.id, classId: s.classId, checkedInBy: teacher.userId, checkedInAt });
      const done = k < doneUpTo;
      for (const field of fields) {
        // The first confirmed jump is under appeal (the student says the mark was read short).
        const appeal = done && !appealed && field === 'standingLongJump';
        await tx.insert(testDayEntries).values({
          orgId: admin.orgId,
          planId: plan.id,
          stationId: station.id,
          studentId: s.id,
          classId: s.classId,
          field,
          value: values[field]!,
          status: appeal ? 'appealed' : done ? 'confirmed' : 'entered',
          source: 'typed',
          enteredBy: teacher.userId,
          enteredAt: checkedInAt,
          confirmedBy: done ? teacher.userId : null,
          confirmedAt: done ? new Date(checkedInAt.getTime() + 30_000) : null,
          appealNote: appeal ? '学生认为落地点读数偏短，申请复核' : null,
          appealedBy: appeal ? teacher.userId : null,
          appealedAt: appeal ? new Date(checkedInAt.getTime() + 60_000) : null,
          version: appeal ? 3 : done ? 2 : 1,
        });
        if (appeal) appealed = true;
      }
      if (done) {
        const results = Object.fromEntries(fields.map((f) => [f, values[f]!]));
        await writeResultInTx(tx, ctx, { studentId: s.id, classId: s.classId, grade: s.grade, gender: s.gender, results }, { userId: teacher.userId, now: checkedInAt, testedOn });
      }
    }
  }
}
