import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { ORG_TYPE } from '../../../src/domain/constants';
import { ACTIVITY_ITEMS, type ActivityItemKey, type ActivitySource } from '../../../src/domain/activities/items';
import type { ContestLevel } from '../../../src/domain/activities/contests';
import type { DbOrTx } from '../client';
import { activityRecords } from '../schema/activities';
import { users } from '../schema/auth';
import { contests } from '../schema/contests';
import { orgs } from '../schema/orgs';
import { classes, grades, students } from '../schema/school';
import { devices } from '../schema/venue';
import { createRandom } from './people';

const SEED = 20_261_125;
const DAY = 86_400_000;
const CHUNK = 1000;

/** A record the demo writes (docs/product-rules.md#activities): as a device (when the school has one) or the console. */
export interface DemoRecord {
  studentId: string;
  classId: string;
  orgId: string;
  kind: 'exercise' | 'contest';
  refId: string | null;
  item: ActivityItemKey;
  value: number;
  durationS: number | null;
  measuredAt: Date;
  source: ActivitySource;
}

/**
 * Writes activity records the way an ingestion would (one client id per record, sender = device or console user), in
 * chunks. The simulator replaces this for live data; the demo uses it so the screens have data on first start.
 */
export async function insertDemoRecords(db: DbOrTx, records: readonly DemoRecord[], sender: { deviceId: string | null; userId: string }, prefix: string): Promise<void> {
  for (let i = 0; i < records.length; i += CHUNK) {
    await db.insert(activityRecords).values(
      records.slice(i, i + CHUNK).map((r, j) => ({
        ...r,
        deviceId: r.source === 'device' ? sender.deviceId : null,
        submittedBy: r.source === 'device' && sender.deviceId ? null : sender.userId,
        source: r.source === 'device' && !sender.deviceId ? ('console' as const) : r.source,
        clientId: `${prefix}-${i + j}`,
      })),
    );
  }
}

const at = (day: string, hour: number, minute: number) => new Date(Date.parse(`${day}T00:00:00+08:00`) + (hour * 60 + minute) * 60_000);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const round = (v: number, step: number) => Math.round(v / step) * step;

/** A plausible value of an item: typical values in its range, a few strong ones. */
function valueOf(item: ActivityItemKey, rnd: ReturnType<typeof createRandom>): number {
  const typical: Partial<Record<ActivityItemKey, [number, number, number]>> = {
    rope1min: [90, 200, 1],
    standingLongJump: [150, 260, 1],
    running: [1200, 5000, 10],
    walking: [3000, 12000, 1],
    ropeFree: [200, 1200, 1],
    jumpingJack: [40, 200, 1],
    plank: [30, 240, 1],
    sitUp1min: [25, 60, 1],
  };
  const [lo, hi, step] = typical[item] ?? [ACTIVITY_ITEMS.get(item)!.min, ACTIVITY_ITEMS.get(item)!.max, 1];
  return round(lo + (hi - lo) * Math.pow(rnd.next(), 1.4), step);
}

interface SchoolPeople {
  orgId: string;
  students: { id: string; classId: string; gradeNo: number }[];
  deviceId: string | null;
  userId: string;
}

async function schoolPeople(db: DbOrTx, orgId: string): Promise<SchoolPeople | null> {
  const list = await db
    .select({ id: students.id, classId: students.classId, gradeNo: grades.gradeNo })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(students.orgId, orgId), eq(grades.graduated, false)))
    .orderBy(asc(students.regNo));
  if (list.length === 0) return null;
  const [device] = await db.select({ id: devices.id }).from(devices).where(and(eq(devices.orgId, orgId), isNotNull(devices.activatedAt))).orderBy(asc(devices.serialNo)).limit(1);
  const [user] = await db.select({ id: users.id }).from(users).orderBy(asc(users.createdAt)).limit(1);
  return { orgId, students: list, deviceId: device?.id ?? null, userId: user.id };
}

/**
 * Contests and exercise sessions of the demo (docs/product-rules.md#contests, #exercise-records), relative to the
 * demo's today: at the K12 school a running rope-skipping contest for grades 7–8 and an ended running contest (sum of
 * distances); at the university a running standing-long-jump obstacle challenge; two weeks of exercise sessions at
 * both. A few entries are invalid, as a teacher would have marked them.
 */
export async function seedContestsDemo(db: DbOrTx, today: string): Promise<void> {
  const rnd = createRandom(SEED);
  const schools = await db.select({ id: orgs.id, type: orgs.type }).from(orgs).where(inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university])).orderBy(asc(orgs.code));
  const k12 = schools.find((s) => s.type === ORG_TYPE.k12);
  const uni = schools.find((s) => s.type === ORG_TYPE.university);
  for (const school of [k12, uni]) {
    if (!school) continue;
    const people = await schoolPeople(db, school.id);
    if (!people) continue;
    const records: DemoRecord[] = [];
    const entry = (s: SchoolPeople['students'][number], kind: DemoRecord['kind'], refId: string | null, item: ActivityItemKey, day: string) =>
      records.push({
        studentId: s.id,
        classId: s.classId,
        orgId: school.id,
        kind,
        refId,
        item,
        value: valueOf(item, rnd),
        durationS: kind === 'exercise' ? rnd.int(5, 60) * 60 : null,
        measuredAt: at(day, rnd.int(7, 19), rnd.int(0, 59)),
        source: rnd.chance(0.7) ? 'device' : 'app',
      });

    if (school === k12) {
      const [rope] = await db
        .insert(contests)
        .values({ orgId: school.id, type: 'rank', name: '冬季跳绳排名赛', startDate: addDays(today, -7), endDate: addDays(today, 20), gradeNos: [7, 8], items: ['rope1min'], rule: 'best', prizes: '一等奖 3 名：奖状和跳绳\n二等奖 10 名：奖状' })
        .returning({ id: contests.id });
      const [run] = await db
        .insert(contests)
        .values({ orgId: school.id, type: 'rank', name: '秋季长跑累计赛', startDate: addDays(today, -50), endDate: addDays(today, -20), items: ['running'], rule: 'sum', prizes: '累计前 20 名获“长跑之星”' })
        .returning({ id: contests.id });
      const g78 = people.students.filter((s) => s.gradeNo === 7 || s.gradeNo === 8);
      for (const s of g78) if (rnd.chance(0.45)) for (let d = -7; d <= 0; d += 1) if (rnd.chance(0.35)) entry(s, 'contest', rope.id, 'rope1min', addDays(today, d));
      for (const s of people.students) if (rnd.chance(0.15)) for (let d = -50; d <= -20; d += 1) if (rnd.chance(0.2)) entry(s, 'contest', run.id, 'running', addDays(today, d));
    } else {
      const levels: ContestLevel[] = [
        { name: '青铜', threshold: 200 },
        { name: '白银', threshold: 230 },
        { name: '黄金', threshold: 255 },
      ];
      const [jump] = await db
        .insert(contests)
        .values({ orgId: school.id, type: 'challenge', name: '立定跳远闯关赛', startDate: addDays(today, -5), endDate: addDays(today, 25), items: ['standingLongJump'], rule: 'best', levels, passLevels: 2, prizes: '通关即获电子证书' })
        .returning({ id: contests.id });
      for (const s of people.students) if (rnd.chance(0.2)) for (let d = -5; d <= 0; d += 1) if (rnd.chance(0.3)) entry(s, 'contest', jump.id, 'standingLongJump', addDays(today, d));
    }
    const everyday: ActivityItemKey[] = ['running', 'walking', 'ropeFree', 'jumpingJack', 'plank'];
    for (const s of people.students) if (rnd.chance(0.12)) for (let d = -13; d <= 0; d += 1) if (rnd.chance(0.25)) entry(s, 'exercise', null, rnd.pick(everyday), addDays(today, d));
    await insertDemoRecords(db, records, people, `demo-${school.type}`);
    // A few entries a teacher found doubtful (e.g. someone else skipped for the student).
    const doubtful = records.filter(() => rnd.chance(0.01)).map((r) => r.studentId);
    if (doubtful.length)
      await db
        .update(activityRecords)
        .set({ invalid: true, invalidReason: '非本人完成', invalidAt: at(today, 9, 0), invalidBy: people.userId })
        .where(and(eq(activityRecords.orgId, school.id), inArray(activityRecords.studentId, doubtful.slice(0, 8)), eq(activityRecords.kind, 'exercise')));
  }
}
