import { and, asc, eq, inArray } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { zoneAge } from '@/domain/lesson-load/zones';
import type { Db } from '../db/client';
import { orgs } from '../db/schema/orgs';
import { classes, grades, students } from '../db/schema/school';
import { devices } from '../db/schema/venue';
import { hashSecret, newToken } from '../lib/tokens';
import { createRandom } from '../seed/people';
import { fitnessOf } from './heart-rate';
import { emptyTally, sendPastLesson, type HeartRateClass, type HeartRateTally } from './heart-rate-traffic';
import { DAY, type DeviceCredentials, type Send } from './traffic';

const CHINA = 8 * 3600_000;

/**
 * The classes the simulated hubs teach (not the demo seed's own: server/seed/lesson-load-demo.ts): 七年级4班 at the K12
 * school at 15:00, a university first-year class at 16:00, China time.
 */
const CLASSES = [
  { orgType: ORG_TYPE.k12, gradeNo: 7, code: 4, time: '15:00', minutes: 40 },
  { orgType: ORG_TYPE.university, gradeNo: 13, code: 2, time: '16:00', minutes: 45 },
] as const;

/** A demo school's hub with a fresh API secret (only its hash is stored), its bands and a class's students. */
export async function hubOf(db: Db, orgId: string, now: Date): Promise<{ credentials: DeviceCredentials; bands: string[] } | null> {
  const [hub] = await db
    .select({ id: devices.id, serialNo: devices.serialNo })
    .from(devices)
    .where(and(eq(devices.orgId, orgId), eq(devices.kind, 'hub')))
    .orderBy(asc(devices.serialNo))
    .limit(1);
  if (!hub) return null;
  const secret = newToken();
  await db.update(devices).set({ secretHash: hashSecret(secret), secretIssuedAt: now }).where(eq(devices.id, hub.id));
  const bands = (await db.select({ serialNo: devices.serialNo }).from(devices).where(and(eq(devices.parentId, hub.id), eq(devices.kind, 'band'))).orderBy(asc(devices.serialNo))).map((b) => b.serialNo);
  return { credentials: { serialNo: hub.serialNo, secret }, bands };
}

/** A class's studying students in roster order, with their age on `day` and a fitness stable per student. */
export async function heartRateClass(db: Db, classId: string, gradeNo: number, day: string, bands: string[]): Promise<HeartRateClass> {
  const rows = await db
    .select({ id: students.id, regNo: students.regNo, birthDate: students.birthDate })
    .from(students)
    .where(and(eq(students.classId, classId), eq(students.status, 'studying'), eq(students.enabled, true)))
    .orderBy(asc(students.regNo));
  const typical = gradeNo <= 12 ? 5 + gradeNo : 19;
  return { classId, bands, students: rows.map((s) => ({ id: s.id, regNo: s.regNo, age: zoneAge(s.birthDate, typical, day), fitness: fitnessOf(s.id) })) };
}

/**
 * Heart-rate lessons of the last `days` days through the device API (server/simulate/heart-rate-traffic.ts): on each
 * school day, each demo school's hub runs a lesson of its class (CLASSES) that is over by `now`: mostly good lessons,
 * now and then one of explaining and queueing or a light one, some with a band going silent, a student above the
 * danger threshold, or an implausible value. Deterministic for a seed, apart from the clock.
 */
export async function simulateHeartRate(db: Db, send: Send, opts: { days: number; now?: Date; seed?: number; log?: (line: string) => void }): Promise<HeartRateTally> {
  const rnd = createRandom(opts.seed ?? 20_261_201);
  const now = opts.now ?? new Date();
  const tally = emptyTally();
  for (const plan of CLASSES) {
    const [school] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, plan.orgType)).orderBy(asc(orgs.code)).limit(1);
    if (!school) continue;
    const hub = await hubOf(db, school.id, now);
    const [cls] = await db
      .select({ id: classes.id })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, school.id), inArray(grades.gradeNo, [plan.gradeNo]), eq(classes.code, plan.code)))
      .orderBy(asc(classes.classNo))
      .limit(1);
    if (!hub || !cls) continue;
    for (let back = opts.days - 1; back >= 0; back--) {
      const day = new Date(now.getTime() + CHINA - back * DAY).toISOString().slice(0, 10);
      const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      const startedAt = Date.parse(`${day}T${plan.time}:00+08:00`);
      if (startedAt + plan.minutes * 60_000 > now.getTime()) continue;
      const group = await heartRateClass(db, cls.id, plan.gradeNo, day, hub.bands);
      const style = rnd.chance(0.75) ? 'good' : rnd.pick(['lowDensity', 'light'] as const);
      await sendPastLesson(
        send,
        hub.credentials,
        group,
        rnd,
        { clientId: `sim-hr-${day}-${plan.gradeNo}-${plan.code}`, startedAt, minutes: plan.minutes, style, danger: rnd.chance(0.2), silentBand: rnd.chance(0.2), artefacts: rnd.chance(0.5) },
        tally,
      );
      opts.log?.(`heart-rate lessons: ${tally.lessons} (${day})`);
    }
  }
  opts.log?.(
    `heart-rate: ${tally.lessons} lessons, ${tally.batches} batches, ${tally.accepted} samples accepted, ${tally.duplicates} duplicates, dropped ${JSON.stringify(tally.dropped)}`,
  );
  return tally;
}
