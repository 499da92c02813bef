/**
 * The live monitor's cost per update (docs/decisions/053-live-monitor-updates.md): one poll of a lesson in progress
 * with `--students` students (40 by default) and `--minutes` minutes of 1 Hz samples (40) behind it — the read the
 * teacher's phone makes every MONITOR_POLL_MS: raising due alerts, the tiles and their 5-minute trends, the running
 * figures and the alerts — on PGlite, after a new batch (the running figures computed again) and with none (kept),
 * beside a floor measured in the same run (the lesson's row read once by its key).
 * Prints numbers; asserts nothing.
 *
 *   npx tsx tests/bench/lesson-monitor.ts [--students 40] [--minutes 40] [--iterations 40]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { desc, eq, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { migrateDb, openDb } from '../../server/db/client';
import { users } from '../../server/db/schema/auth';
import { lessonBands } from '../../server/db/schema/lesson-load';
import { lessons } from '../../server/db/schema/lessons';
import { orgs } from '../../server/db/schema/orgs';
import { classes, students } from '../../server/db/schema/school';
import { devices } from '../../server/db/schema/venue';
import { raiseAlerts } from '../../server/modules/lesson-load/alerts.service';
import { ensureDayPartitions, utcDay } from '../../server/modules/lesson-load/heart-rate-partitions';
import { minuteRowsOf, writeSamples } from '../../server/modules/lesson-load/lesson-load.store';
import { lessonLoad } from '@/domain/lesson-load/summary';
import { liveView } from '../../server/modules/lesson-load/monitor.service';
import { seedDemo } from '../../server/seed/demo';
import type { Actor } from '../../server/plugins/tenant';
import { percentile, timeRuns } from './lib/timing';

const { values: args } = parseArgs({
  options: { students: { type: 'string', default: '40' }, minutes: { type: 'string', default: '40' }, iterations: { type: 'string', default: '40' } },
});
const n = Number(args.students);
const minutes = Number(args.minutes);

const dir = await mkdtemp(join(tmpdir(), 'tiyu-bench-monitor-'));
const handle = await openDb({ pgliteDir: dir });
try {
  const { db } = handle;
  await migrateDb(handle);
  await seedDemo(db);
  const [school] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).limit(1);
  const [cls] = await db
    .select({ id: classes.id, size: sql<number>`(select count(*)::int from students s where s.class_id = ${classes.id})` })
    .from(classes)
    .where(eq(classes.orgId, school.id))
    .orderBy(desc(sql`2`))
    .limit(1);
  const roster = (await db.select({ id: students.id }).from(students).where(eq(students.classId, cls.id)).limit(n)).map((s) => s.id);
  const now = new Date();
  const start = now.getTime() - minutes * 60_000;
  const [lesson] = await db.insert(lessons).values({ orgId: school.id, type: 'practise', classId: cls.id, clientId: 'bench-monitor', items: ['rope'], startedAt: new Date(start) }).returning({ id: lessons.id });
  const bands = await db
    .insert(devices)
    .values(roster.map((_, i) => ({ orgId: school.id, name: `手环 ${i + 1}`, serialNo: `HR-BENCH-${i + 1}`, kind: 'band' as const })))
    .returning({ id: devices.id });
  await db.insert(lessonBands).values(roster.map((studentId, i) => ({ lessonId: lesson.id, studentId, deviceId: bands[i].id })));
  await ensureDayPartitions(db, [utcDay(start), utcDay(now.getTime())]);
  const t0 = performance.now();
  for (let m = 0; m < minutes; m++) {
    const batch = roster.flatMap((studentId, i) =>
      Array.from({ length: 60 }, (_, s) => ({ studentId, at: Math.floor(start / 1000) * 1000 + (m * 60 + s) * 1000, bpm: Math.round(110 + 40 * Math.sin((m * 60 + s) / 300 + i)), intensity: null, age: 13 })),
    );
    await db.transaction((tx) => writeSamples(tx, lesson.id, batch));
  }
  console.log(`  ${(n * minutes * 60).toLocaleString('en')} samples written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await db.execute(sql`analyze heart_rate_samples`);
  await db.execute(sql`analyze heart_rate_minutes`);
  const [user] = await db.select({ id: users.id }).from(users).limit(1);
  const actor = { tenantOrgId: school.id, userId: user.id, dataScope: 'org' } as Actor;
  const view = await liveView(db, actor, lesson.id, now);
  const bytes = Buffer.byteLength(JSON.stringify(view));
  console.log(`\npglite: a lesson of ${roster.length} students, ${minutes} min at 1 Hz; one answer is ${(bytes / 1024).toFixed(1)} kB of JSON`);
  // After a new batch (one more second of every student, as a hub posts it): the stamp changed, so the read raises
  // alerts and computes the running figures again. The batch's write is not timed.
  let second = minutes * 60;
  const afterBatch: number[] = [];
  for (let i = 0; i < 3 + Number(args.iterations); i++) {
    const at = Math.floor(start / 1000) * 1000 + second++ * 1000;
    await db.transaction((tx) => writeSamples(tx, lesson.id, roster.map((studentId) => ({ studentId, at, bpm: 120, intensity: null, age: 13 }))));
    const t = performance.now();
    await liveView(db, actor, lesson.id, now);
    if (i >= 3) afterBatch.push(performance.now() - t);
  }
  afterBatch.sort((a, b) => a - b);
  console.log(`  ${'live view after a new batch (figures computed)'.padEnd(52)} p50 ${percentile(afterBatch, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(afterBatch, 95).toFixed(1).padStart(7)} ms`);
  for (const [name, fn] of [
    ['live view, no new batch (figures kept)', () => liveView(db, actor, lesson.id, now)],
    ['  of which: raising alerts', () => db.transaction((tx) => raiseAlerts(tx, lesson.id, now))],
    ['  of which: the running figures (minutes, lessonLoad)', async () => lessonLoad(await minuteRowsOf(db, lesson.id), start, null, now.getTime())],
    ['floor: the lesson row by its key', () => db.select({ id: lessons.id }).from(lessons).where(eq(lessons.id, lesson.id))],
  ] as const) {
    const r = await timeRuns(fn, Number(args.iterations));
    console.log(`  ${name.padEnd(52)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms`);
  }
} finally {
  await handle.close();
  await rm(dir, { recursive: true, force: true });
}
