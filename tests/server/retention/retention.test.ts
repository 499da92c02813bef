import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditChainReport } from '@/domain/platform/logs';
import type { RetentionRunRow, RetentionSchedule } from '@/domain/retention/retention';
import { LOG_MIN_DAYS, RETENTION_DEFAULTS } from '@/domain/retention/retention';
import { accessLogArchives, accessLogs } from '../../../server/db/schema/access-log';
import { auditLogs } from '../../../server/db/schema/audit';
import { activityRecords } from '../../../server/db/schema/activities';
import { files } from '../../../server/db/schema/files';
import { physiqueResults } from '../../../server/db/schema/physique';
import { signInLogs } from '../../../server/db/schema/platform';
import { retentionRuns } from '../../../server/db/schema/retention';
import { schoolRollovers, students } from '../../../server/db/schema/school';
import { verifyArchivedRows, type ArchivedAuditRow } from '../../../server/lib/audit-chain';
import { localStorage } from '../../../server/lib/storage/local';
import type { Storage } from '../../../server/lib/storage/storage';
import { runRetention } from '../../../server/modules/retention/retention.service';
import { insertActivityRecords } from '../../../server/seed/activity-records';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** The retention schedule and its run (docs/product-rules.md#retention). */
const DAY = 86_400_000;
const SCHEDULE = (family: string) => `/api/busi/web/${family}/system/retention/schedule`;
const RUNS = (family: string) => `/api/busi/web/${family}/system/retention/runs`;
let t: TestApp;
let dir: string;
let storage: Storage;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-retention-'));
  t = await createTestApp({ env: { STORAGE_DIR: dir } });
  storage = await localStorage(dir);
});
afterAll(async () => {
  await t?.close();
  await storage?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the schedule', () => {
  it('shows the defaults to everyone who may open the screen; only a platform operator saves, within bounds, audited', async () => {
    const school = dataOf<RetentionSchedule>(await t.as(DEMO.school).get(SCHEDULE('k12')));
    expect(school).toEqual({ durations: RETENTION_DEFAULTS, version: 0, canEdit: false });
    const body = { ...RETENTION_DEFAULTS, graduates: 4, version: 0 };
    // A school's family has no save at all: the schedule is the platform's.
    expect((await t.as(DEMO.school).put(SCHEDULE('k12'), body)).status).toBe(404);

    const op = t.as(DEMO.district);
    expect(dataOf<RetentionSchedule>(await op.get(SCHEDULE('admin'))).canEdit).toBe(true);
    // The logs' minimum is a rule: 179 days is refused and nothing changes.
    const short = await op.put(SCHEDULE('admin'), { ...body, auditLog: LOG_MIN_DAYS - 1 });
    expect(short.status).toBe(400);
    expect(short.body.data).toMatchObject({ field: 'auditLog' });
    expect((await op.put(SCHEDULE('admin'), { ...body, signInLogs: LOG_MIN_DAYS - 1 })).status).toBe(400);
    expect(dataOf<RetentionSchedule>(await op.get(SCHEDULE('admin'))).version).toBe(0);

    expect(dataOf<RetentionSchedule>(await op.put(SCHEDULE('admin'), body))).toMatchObject({ durations: { graduates: 4 }, version: 1 });
    // A form loaded before that save is stale.
    expect((await op.put(SCHEDULE('admin'), { ...body, graduates: 5 })).status).toBe(409);
    const [row] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'platformSetting'), eq(auditLogs.entityId, 'retention')));
    expect(row.after).toMatchObject({ durations: { graduates: 4 }, version: 1 });
    // Everyone reads the same schedule.
    expect(dataOf<RetentionSchedule>(await t.as(DEMO.school).get(SCHEDULE('k12'))).durations.graduates).toBe(4);
    // Back to the defaults for the run below.
    dataOf(await op.put(SCHEDULE('admin'), { ...RETENTION_DEFAULTS, version: 1 }));
  });
});

describe('a run', () => {
  // Far enough ahead that everything the demo seed wrote is past every duration.
  const now = new Date(Date.now() + 400 * DAY);
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  const seen: Record<string, string[]> = {};
  let runId: string;
  let graduateDue: string;
  let graduateKept: string;
  let resultsBefore: number;

  beforeAll(async () => {
    // Sign-in log: one day inside the 180 days, one day past.
    const logs = await t.db
      .insert(signInLogs)
      .values([
        { at: ago(LOG_MIN_DAYS - 1), account: 'kept-signin', result: 'success' },
        { at: ago(LOG_MIN_DAYS + 1), account: 'gone-signin', result: 'failure' },
      ])
      .returning({ id: signInLogs.id });
    seen.signIn = logs.map((l) => l.id);

    // Homework videos: uploaded one month and a day ago (due), and one month less a day ago (kept).
    const month = (days: number) => {
      const x = new Date(now);
      x.setUTCMonth(x.getUTCMonth() - RETENTION_DEFAULTS.homeworkVideos);
      return new Date(x.getTime() + days * DAY);
    };
    const { rows: hws } = await t.db.execute<{ id: string; org_id: string; student_id: string; created_by: string }>(sql`
      select h.id, h.org_id, s.id as student_id, h.created_by from homeworks h join homework_classes hc on hc.homework_id = h.id
        join students s on s.class_id = hc.class_id and s.status = 'studying' limit 2`);
    expect(hws).toHaveLength(2);
    const video = async (orgId: string, createdAt: Date) =>
      (await t.db.insert(files).values({ orgId, purpose: 'video', name: 'rope.mp4', hash: 'a'.repeat(64), size: 1000, mime: 'video/mp4', createdAt }).returning({ id: files.id }))[0].id;
    seen.videos = await insertActivityRecords(
      t.db,
      await Promise.all(
        hws.map(async (h, i) => ({ studentId: h.student_id, kind: 'homework' as const, refId: h.id, item: 'rope1min', value: 120, measuredAt: now, submittedBy: h.created_by, videoFileId: await video(h.org_id, month(i === 0 ? -1 : 1)) })),
      ),
    );

    // Raw heart-rate samples: 29 and 31 days old.
    const [lesson] = (await t.db.execute<{ id: string }>(sql`select id from lessons limit 1`)).rows;
    const [kid] = await t.db.select({ id: students.id }).from(students).limit(1);
    await t.db.execute(sql`insert into heart_rate_samples_default (lesson_id, student_id, at, bpm) values
      (${lesson.id}, ${kid.id}, ${ago(29).toISOString()}, 101), (${lesson.id}, ${kid.id}, ${ago(31).toISOString()}, 102)`);

    // Graduates: graduated by a rollover three years and a day ago (due), and three years less a day ago (kept).
    const { orgId } = await orgOf(t, DEMO.school);
    const two = await t.db
      .select({ id: students.id })
      .from(students)
      .where(and(eq(students.orgId, orgId), eq(students.status, 'studying'), sql`exists (select 1 from physique_results r where r.student_id = ${students.id})`))
      .limit(2);
    [graduateDue, graduateKept] = two.map((s) => s.id);
    await t.db.update(students).set({ status: 'graduated', birthDate: '2008-05-01', address: '北京市海淀区' }).where(inArray(students.id, [graduateDue, graduateKept]));
    const years = (d: Date, days: number) => {
      const x = new Date(d);
      x.setUTCFullYear(x.getUTCFullYear() - RETENTION_DEFAULTS.graduates);
      return new Date(x.getTime() + days * DAY);
    };
    const rollover = (id: string, at: Date) => ({
      orgId,
      fromStartYear: 2020,
      toStartYear: 2021,
      createdAt: at,
      changes: { createdYear: false, previousCurrentYearId: null, previousCurrentSemesterId: null, grades: [], classes: [], students: [{ id, before: { status: 'studying' as const }, version: 2 }], createdGrades: [], createdClasses: [] },
    });
    await t.db.insert(schoolRollovers).values([rollover(graduateDue, years(now, -1)), rollover(graduateKept, years(now, 1))]);
    resultsBefore = await t.db.$count(physiqueResults, eq(physiqueResults.studentId, graduateDue));

    // Operation log: one row a day past the 180 days, one a day inside (and everything the seed wrote, far older).
    const [due, kept] = await t.db
      .insert(auditLogs)
      .values([
        { orgId, at: ago(LOG_MIN_DAYS + 1), action: 'update', entity: 'class', entityId: 'retention-due', entityName: '七年级9班' },
        { orgId, at: ago(LOG_MIN_DAYS - 1), action: 'update', entity: 'class', entityId: 'retention-kept', entityName: '七年级9班' },
      ])
      .returning({ id: auditLogs.id });
    seen.audit = [due.id, kept.id];

    // Access log: one request a day past the 180 days, one a day inside.
    const access = await t.db
      .insert(accessLogs)
      .values([
        { at: ago(LOG_MIN_DAYS + 1), kind: 'console', orgId, method: 'GET', route: '/retention-due', status: 200, durationMs: 3 },
        { at: ago(LOG_MIN_DAYS - 1), kind: 'console', orgId, method: 'GET', route: '/retention-kept', status: 200, durationMs: 3 },
      ])
      .returning({ id: accessLogs.id });
    seen.access = access.map((a) => String(a.id));

    runId = (await runRetention(t.db, now, { storage, force: true }))!;
    expect(runId).toBeTruthy();
  });

  it('removes sign-in attempts past 180 days and keeps those a day inside', async () => {
    const left = await t.db.select({ account: signInLogs.account }).from(signInLogs).where(inArray(signInLogs.id, seen.signIn));
    expect(left.map((l) => l.account)).toEqual(['kept-signin']);
  });

  it('ends homework videos a month after upload, not a day before', async () => {
    const rows = await t.db.select({ id: activityRecords.id, video: activityRecords.videoFileId }).from(activityRecords).where(inArray(activityRecords.id, seen.videos));
    const byId = new Map(rows.map((r) => [r.id, r.video]));
    expect(byId.get(seen.videos[0])).toBeNull();
    expect(byId.get(seen.videos[1])).not.toBeNull();
  });

  it('removes raw heart-rate samples past 30 days', async () => {
    const { rows } = await t.db.execute<{ bpm: number }>(sql`select bpm from heart_rate_samples where bpm in (101, 102)`);
    expect(rows.map((r) => Number(r.bpm))).toEqual([101]);
  });

  it("anonymises graduates past the years after graduation, keeping their results; a day before, nothing changes", async () => {
    const [due] = await t.db.select().from(students).where(eq(students.id, graduateDue));
    expect(due.name).toMatch(/^.\*$/);
    expect(due).toMatchObject({ birthDate: null, address: null, photoFileId: null });
    expect(await t.db.$count(physiqueResults, eq(physiqueResults.studentId, graduateDue))).toBe(resultsBefore);
    const [kept] = await t.db.select().from(students).where(eq(students.id, graduateKept));
    expect(kept.name).not.toMatch(/\*$/);
    expect(kept).toMatchObject({ birthDate: '2008-05-01', address: '北京市海淀区' });
  });

  it('archives the operation log past 180 days to a file, removes it, and the chain still verifies', async () => {
    const left = await t.db.select({ entityId: auditLogs.entityId, seq: auditLogs.seq, prevHash: auditLogs.prevHash }).from(auditLogs).where(inArray(auditLogs.id, seen.audit));
    expect(left.map((l) => l.entityId)).toEqual(['retention-kept']);
    const report = dataOf<AuditChainReport>(await t.as(DEMO.school).get('/api/busi/web/k12/system/operationLog/verify'));
    expect(report.breaks).toEqual([]);

    const runs = dataOf<{ records: RetentionRunRow[] }>(await t.as(DEMO.school).get(RUNS('k12'))).records;
    const run = runs.find((r) => r.id === runId)!;
    expect(run.items.map((i) => i.category)).toEqual(['homeworkVideos', 'heartRateRaw', 'graduates', 'signInLogs', 'auditLog', 'accessLog']);
    expect(run.items.every((i) => i.error === null && i.rows > 0)).toBe(true);
    // A school sees its own chain's archives only.
    const { orgId } = await orgOf(t, DEMO.school);
    expect(run.archives.length).toBeGreaterThan(0);
    expect(run.archives.every((a) => a.orgId === orgId)).toBe(true);

    const archive = run.archives[run.archives.length - 1];
    const res = await t.request({ url: `/api/busi/web/k12/system/retention/archives/${archive.id}`, token: await t.as(DEMO.school).token() });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\n').map((l) => JSON.parse(l) as ArchivedAuditRow & { row: unknown[] });
    expect(lines.some((l) => l.row.includes('retention-due'))).toBe(true);
    expect(verifyArchivedRows(lines)).toBeNull();
    // The first kept row follows the archive's last row.
    const last = lines[lines.length - 1];
    expect(left[0]).toMatchObject({ seq: last.seq + 1, prevHash: last.hash });
    // Another school's administrator cannot download it.
    const other = await t.request({ url: `/api/busi/web/k12/system/retention/archives/${archive.id}`, token: await t.as(DEMO.school2).token() });
    expect(other.statusCode).toBe(404);
  });

  it('archives the access log past 180 days to a file of the rows as stored, then removes them; a day inside stays', async () => {
    const ids = seen.access.map(Number);
    const left = await t.db.select({ route: accessLogs.route }).from(accessLogs).where(inArray(accessLogs.id, ids));
    expect(left.map((l) => l.route)).toEqual(['/retention-kept']);
    const archives = await t.db.select().from(accessLogArchives).where(eq(accessLogArchives.runId, runId));
    // A day's archive spans that day's ids, which interleave with rows kept elsewhere (the default partition): the
    // archive holding the row is the one whose ids and period both cover it.
    const at = ago(LOG_MIN_DAYS + 1).getTime();
    const holding = archives.find((a) => a.fromId <= ids[0] && ids[0] <= a.toId && a.periodFrom!.getTime() <= at && at <= a.periodTo!.getTime());
    expect(holding).toBeDefined();
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.readBlob(holding!.hash)) chunks.push(chunk as Buffer);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: number; route: string; at: string });
    expect(lines).toHaveLength(holding!.rows);
    expect(lines.find((l) => l.id === ids[0])).toMatchObject({ route: '/retention-due', at: ago(LOG_MIN_DAYS + 1).toISOString() });
    expect(lines.some((l) => l.route === '/retention-kept')).toBe(false);
  });

  it('does not run again within a day unless asked, and a second run finds nothing more due', async () => {
    expect(await runRetention(t.db, new Date(now.getTime() + 60_000), { storage })).toBeNull();
    const again = await runRetention(t.db, new Date(now.getTime() + 60_000), { storage, force: true });
    const [row] = await t.db.select().from(retentionRuns).where(eq(retentionRuns.id, again!));
    expect(row.items.find((i) => i.category === 'graduates')?.rows).toBe(0);
    expect(row.items.find((i) => i.category === 'auditLog')?.error).toBeNull();
    // What was kept a day inside its duration is still kept a minute later.
    expect(await t.db.$count(signInLogs, inArray(signInLogs.id, seen.signIn))).toBe(1);
    expect(await t.db.$count(auditLogs, inArray(auditLogs.id, seen.audit))).toBe(1);
  });
});
