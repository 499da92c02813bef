import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { ExerciseRecordRow } from '@/domain/activities/exercise-records';
import { activityRecords } from '../../../server/db/schema/activities';
import { auditLogs } from '../../../server/db/schema/audit';
import { users } from '../../../server/db/schema/auth';
import { students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { dataOf, orgOf } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { insertRecords } from './records';

let t: TestApp;
let k12Id: string;
let uniId: string;
/** A student of a class myclass01 teaches, and one of another class. */
let mineStudent: { id: string; classId: string; name: string };
let otherStudent: { id: string; classId: string; name: string };
let uniStudent: string;
let ids: string[];

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  k12Id = (await orgOf(t, 'school01')).orgId;
  uniId = (await orgOf(t, 'college01')).orgId;
  const [me] = await t.db.select({ id: teachers.id }).from(teachers).innerJoin(users, eq(users.id, teachers.userId)).where(eq(users.accountNum, 'myclass01'));
  const taught = (await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.classId);
  const k12Students = await t.db.select({ id: students.id, classId: students.classId, name: students.name }).from(students).where(eq(students.orgId, k12Id));
  mineStudent = k12Students.find((s) => taught.includes(s.classId))!;
  otherStudent = k12Students.find((s) => !taught.includes(s.classId))!;
  [{ id: uniStudent }] = await t.db.select({ id: students.id }).from(students).where(eq(students.orgId, uniId)).limit(1);
  ids = await insertRecords(t.db, [
    { studentId: mineStudent.id, item: 'running', value: 3200, source: 'device', measuredAt: new Date('2025-03-10T02:00:00Z') },
    { studentId: mineStudent.id, item: 'ropeFree', value: 640, source: 'app', measuredAt: new Date('2025-03-11T02:00:00Z') },
    { studentId: otherStudent.id, item: 'running', value: 5000, source: 'app', measuredAt: new Date('2025-03-12T02:00:00Z') },
    { studentId: uniStudent, item: 'running', value: 8000, source: 'device', measuredAt: new Date('2025-03-12T03:00:00Z') },
    // A contest entry is not an exercise record.
    { studentId: mineStudent.id, item: 'rope1min', value: 180, kind: 'contest', measuredAt: new Date('2025-03-12T04:00:00Z') },
  ]);
});
afterAll(async () => {
  await t?.close();
});

const B = '/api/busi/web';
const list = async (family: string, account: string, query = '') => dataOf(await t.as(account).get<Page<ExerciseRecordRow>>(`${B}/${family}/exerciseRecord/page?size=80${query}`));

describe('exercise records', () => {
  it('lists the school’s exercise sessions newest first with item, unit, source and class; contest entries are not exercise records', async () => {
    const p = await list('k12', 'school01', '&from=2025-03-10&to=2025-03-12');
    expect(p.records.map((r) => r.value)).toEqual([5000, 640, 3200]);
    expect(p.records[2]).toMatchObject({ name: mineStudent.name, item: 'running', unit: 'm', source: 'device', invalid: false });
    expect(p.total).toBe(3);
  });

  it('filters by item, source, day, class and student; a bad item is 400 naming the field', async () => {
    expect((await list('k12', 'school01', '&item=running&from=2025-03-10&to=2025-03-12')).records.map((r) => r.value)).toEqual([5000, 3200]);
    expect((await list('k12', 'school01', '&source=app&from=2025-03-10&to=2025-03-12')).records.map((r) => r.value)).toEqual([5000, 640]);
    // Days are China's calendar days: 2025-03-11T02:00Z is the 21st in Shanghai.
    expect((await list('k12', 'school01', '&from=2025-03-11&to=2025-03-11')).records.map((r) => r.value)).toEqual([640]);
    expect((await list('k12', 'school01', `&classId=${otherStudent.classId}&from=2025-03-10&to=2025-03-12`)).records.map((r) => r.value)).toEqual([5000]);
    expect((await list('k12', 'school01', `&keyword=${encodeURIComponent(mineStudent.name)}&from=2025-03-10&to=2025-03-12`)).records.every((r) => r.studentId === mineStudent.id || r.name.includes(mineStudent.name))).toBe(true);
    const bad = await t.as('school01', { language: 'en-US' }).get(`${B}/k12/exerciseRecord/page?item=swimming`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ msg: 'Choose a valid item', data: { field: 'item' } });
  });

  it('keeps to the data scope and the organisation: a class-scoped teacher sees only their classes, a university only its own, the district all its schools', async () => {
    const mine = await list('k12', 'myclass01', '&from=2025-03-10&to=2025-03-12');
    expect(mine.records.map((r) => r.value)).toEqual([640, 3200]);
    expect((await list('gx', 'college01', '&from=2025-03-10&to=2025-03-12')).records.map((r) => r.value)).toEqual([8000]);
    const district = await list('admin', 'district01', '&from=2025-03-10&to=2025-03-12');
    expect(district.records.map((r) => r.value).sort((a, b) => a - b)).toEqual([640, 3200, 5000, 8000]);
    expect((await list('admin', 'district01', `&from=2025-03-10&to=2025-03-12&orgId=${uniId}`)).records.map((r) => r.value)).toEqual([8000]);
  });

  it('sets records invalid with a reason and valid again, audited; out-of-scope ids change nothing', async () => {
    const teacher = t.as('myclass01');
    expect(dataOf(await teacher.post(`${B}/k12/exerciseRecord/invalid`, { ids: [ids[2]], reason: '代跑' }))).toEqual({ changed: 0 });
    expect((await t.db.select().from(activityRecords).where(eq(activityRecords.id, ids[2])))[0].invalid).toBe(false);
    expect(dataOf(await teacher.post(`${B}/k12/exerciseRecord/invalid`, { ids: [ids[0]], reason: '代跑' }))).toEqual({ changed: 1 });
    const row = (await list('k12', 'school01', '&from=2025-03-10&to=2025-03-12&invalid=true')).records;
    expect(row).toHaveLength(1);
    expect(row[0]).toMatchObject({ id: ids[0], invalid: true, invalidReason: '代跑' });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'exerciseRecord'), eq(auditLogs.action, 'invalid')));
    expect(log.after).toMatchObject({ ids: [ids[0]], reason: '代跑' });
    expect(dataOf(await t.as('school01').post(`${B}/k12/exerciseRecord/valid`, { ids: [ids[0]] }))).toEqual({ changed: 1 });
    expect((await list('k12', 'school01', '&from=2025-03-10&to=2025-03-12&invalid=true')).total).toBe(0);
    const long = await t.as('school01').post(`${B}/k12/exerciseRecord/invalid`, { ids: [ids[0]], reason: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ data: { field: 'reason' } });
  });

  it('exports the filtered records as a workbook in the request’s language', async () => {
    const { res, status } = await t.as('school01', { language: 'en-US' }).get(`${B}/k12/exerciseRecord/export?from=2025-03-10&to=2025-03-12&item=running`);
    expect(status).toBe(200);
    const { rows } = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toContain('Registration no.');
    expect(rows.slice(1).map((r) => r[4])).toEqual(['Running', 'Running']);
    // Columns the list hides (source, device, status) are left out, the rest in the list's order; the school stays.
    const shown = await t.as('school01', { language: 'en-US' }).get(`${B}/k12/exerciseRecord/export?from=2025-03-10&to=2025-03-12&item=running&columns=item,value,name,className,durationS,measuredAt,actions`);
    expect((await readXlsxRows(shown.res.rawPayload)).rows[0]).toEqual(['School', 'Item', 'Value', 'Unit', 'Name', 'Registration no.', 'Class', 'Duration (s)', 'Measured at']);
  });
});
