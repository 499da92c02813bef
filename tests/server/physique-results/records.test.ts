import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { scoreStudent } from '@/domain/physique/score';
import { localDate } from '@/domain/dates';
import type { ChangedCount, SyncSummary, TestRecordRow } from '@/domain/physique-results/types';
import { engineInputOf } from '@/domain/physique-results/wide-row';
import { auditLogs } from '../../../server/db/schema/audit';
import { physiqueResultLogs, physiqueResults, testRecords } from '../../../server/db/schema/physique';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { rawOf } from '../../../server/modules/physique-results/physique-results.sql';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { createPlan, demoOrgs, someStudents } from './physique-fixtures';

let t: TestApp;
const tokens: Record<string, string> = {};
let org: { bureau: string; k12: string; uni: string };

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  for (const account of ['school01', 'college01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  org = await demoOrgs(t.db);
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string, family = 'k12') => `/api/busi/web/${family}/${path}`;
const get = async <T>(path: string, account = 'school01', family = 'k12') => {
  const res = await t.request({ url: api(path, family), token: tokens[account] });
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json<Envelope<T>>().data;
};
const post = (path: string, payload?: Record<string, unknown>, account = 'school01', family = 'k12') =>
  t.request({ method: 'POST', url: api(path, family), token: tokens[account], payload });

describe('test records', () => {
  it('lists the seeded device records with filters and paging', async () => {
    const page = await get<Page<TestRecordRow>>('selfTest/testRecord/page?size=20');
    expect(page.total).toBeGreaterThan(500);
    expect(page.records).toHaveLength(20);
    expect(page.records.every((r) => r.orgId === org.k12)).toBe(true);
    // Newest first.
    expect(page.records.map((r) => r.testedAt)).toEqual([...page.records.map((r) => r.testedAt)].sort().reverse());
    const r = page.records[0];
    const byItem = await get<Page<TestRecordRow>>(`selfTest/testRecord/page?item=${r.item}&size=50`);
    expect(byItem.records.every((x) => x.item === r.item)).toBe(true);
    const day = localDate(new Date(r.testedAt));
    const byDay = await get<Page<TestRecordRow>>(`selfTest/testRecord/page?from=${day}&to=${day}&keyword=${encodeURIComponent(r.regNo)}&size=50`);
    expect(byDay.records.map((x) => x.id)).toContain(r.id);
    expect(byDay.records.every((x) => localDate(new Date(x.testedAt)) === day && x.regNo === r.regNo)).toBe(true);
    const byGrade = await get<Page<TestRecordRow>>(`selfTest/testRecord/page?gradeNo=${r.gradeNo}&gender=${r.gender}&size=50`);
    expect(byGrade.records.every((x) => x.gradeNo === r.gradeNo && x.gender === r.gender)).toBe(true);
    const autumn = await get<Page<TestRecordRow>>('selfTest/testRecord/page?semesterCode=13');
    const spring = await get<Page<TestRecordRow>>('selfTest/testRecord/page?semesterCode=11');
    expect(autumn.total).toBe(page.total);
    expect(spring.total).toBe(0);
    // The bureau reads both schools' records.
    const all = await get<Page<TestRecordRow>>('selfTest/testRecord/page', 'district01', 'admin');
    expect(all.total).toBeGreaterThan(page.total);
  });

  it('sets records invalid and valid again, only the caller’s own', async () => {
    const page = await get<Page<TestRecordRow>>('selfTest/testRecord/page?invalid=false&size=10');
    const ids = page.records.slice(0, 3).map((r) => r.id);
    expect((await post('selfTest/testRecord/invalid', { ids })).json<Envelope<ChangedCount>>().data).toEqual({ changed: 3 });
    const invalid = await get<Page<TestRecordRow>>('selfTest/testRecord/page?invalid=true&size=80');
    expect(ids.every((id) => invalid.records.some((r) => r.id === id && r.invalidAt !== null))).toBe(true);
    expect((await post('selfTest/testRecord/valid', { ids }, 'college01', 'gx')).json<Envelope<ChangedCount>>().data).toEqual({ changed: 0 });
    expect((await post('selfTest/testRecord/valid', { ids })).json<Envelope<ChangedCount>>().data).toEqual({ changed: 3 });
    expect((await post('selfTest/testRecord/invalid', { ids: [] })).statusCode).toBe(400);
    // One operation-log row per record changed, each way; the other school's no-op left none.
    const logged = await t.db.select({ id: auditLogs.entityId, action: auditLogs.action }).from(auditLogs).where(and(eq(auditLogs.entity, 'testRecord'), inArray(auditLogs.entityId, ids)));
    expect(logged.filter((r) => r.action === 'invalid').map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(logged.filter((r) => r.action === 'valid').map((r) => r.id).sort()).toEqual([...ids].sort());
  });

  it('exports the filtered records', async () => {
    const res = await t.request({ url: api('selfTest/testRecord/export?item=run50m'), token: tokens.school01 });
    expect(res.statusCode).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual(['姓名', '学籍号', '班级', '性别', '测试项目', '成绩', '来源', '设备序列号', '测试时间', '有效性']);
    const page = await get<Page<TestRecordRow>>('selfTest/testRecord/page?item=run50m');
    expect(rows.length - 1).toBe(page.total);
    expect(rows.slice(1).every((r) => r[4] === '50米跑')).toBe(true);
  });
});

describe('physique sync', () => {
  it('writes each student’s latest valid record per item within the plan’s dates and rescores', async () => {
    const planId = await createPlan(t.db, org.k12, { startInDays: -10 });
    const [a, b] = await someStudents(t.db, org.k12, [8], 2);
    const now = Date.now();
    const at = (daysAgo: number) => new Date(now - daysAgo * 86_400_000);
    await t.db.insert(testRecords).values([
      { orgId: org.k12, studentId: a.id, classId: a.classId, item: 'run50m', raw: 9.9, source: 'device', testedAt: at(5) },
      { orgId: org.k12, studentId: a.id, classId: a.classId, item: 'run50m', raw: 8.1, source: 'device', testedAt: at(3) },
      // The latest is invalid, so 8.1 wins.
      { orgId: org.k12, studentId: a.id, classId: a.classId, item: 'run50m', raw: 7.0, source: 'device', testedAt: at(1), invalid: true },
      // Before the plan started: ignored.
      { orgId: org.k12, studentId: a.id, classId: a.classId, item: 'sitAndReach', raw: 30, source: 'device', testedAt: at(40) },
      { orgId: org.k12, studentId: a.id, classId: a.classId, item: 'heightCm', raw: 160, source: 'class', testedAt: at(2) },
      { orgId: org.k12, studentId: a.id, classId: a.classId, item: 'weightKg', raw: 50, source: 'class', testedAt: at(2) },
      { orgId: org.k12, studentId: b.id, classId: b.classId, item: 'standingLongJump', raw: 201, source: 'self', testedAt: at(2) },
    ]);
    const res = await post(`organizeTest/testManage/sync/${planId}`);
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json<Envelope<SyncSummary>>().data;
    expect(summary.students).toBeGreaterThanOrEqual(2);

    const [ra] = await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.planId, planId), eq(physiqueResults.studentId, a.id)));
    expect(ra).toMatchObject({ run50m: 8.1, sitAndReach: null, heightCm: 160, weightKg: 50, source: 'sync', complete: false });
    const expected = scoreStudent({ grade: a.grade, gender: a.gender, results: engineInputOf(rawOf(ra)) });
    expect(ra.run50mScore).toBe(expected.items.run50m?.score);
    expect(ra.bmi).toBe(expected.items.bmi?.value);
    const [rb] = await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.planId, planId), eq(physiqueResults.studentId, b.id)));
    expect(rb.standingLongJump).toBe(201);
    const logs = await t.db.select().from(physiqueResultLogs).where(eq(physiqueResultLogs.resultId, ra.id));
    expect(logs.map((l) => l.action)).toEqual(['sync']);

    // Syncing again rescores the same rows (no duplicates).
    expect((await post(`organizeTest/testManage/sync/${planId}`)).statusCode).toBe(200);
    expect(await t.db.$count(physiqueResults, and(eq(physiqueResults.planId, planId), eq(physiqueResults.studentId, a.id)))).toBe(1);
    // The bureau cannot sync (read-only family).
    expect((await post(`organizeTest/testManage/sync/${planId}`, undefined, 'district01', 'admin')).statusCode).toBe(404);
  });
});
