import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { IngestSummary } from '@/domain/activities/ingest';
import type { LessonDetail, LessonRow } from '@/domain/lessons/lessons';
import { ORG_TYPE } from '@/domain/constants';
import { activityRecords } from '../../../server/db/schema/activities';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { hashSecret } from '../../../server/lib/tokens';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let auth: string;
let classId: string;
let otherClassStudent: string;
let kids: { id: string; name: string }[];

beforeAll(async () => {
  t = await createTestApp();
  const [k12] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code), asc(orgs.createdAt)).limit(1);
  const [device] = await t.db.select().from(devices).where(and(eq(devices.orgId, k12.id), isNotNull(devices.activatedAt), ne(devices.status, 'disabled'))).limit(1);
  await t.db.update(devices).set({ secretHash: hashSecret('lesson-secret') }).where(eq(devices.id, device.id));
  auth = `Basic ${Buffer.from(`${device.serialNo}:lesson-secret`).toString('base64')}`;
  [{ id: classId }] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12.id)).limit(1);
  kids = await t.db
    .select({ id: students.id, name: students.name })
    .from(students)
    .where(and(eq(students.classId, classId), eq(students.status, 'studying'), eq(students.enabled, true)))
    .orderBy(asc(students.regNo))
    .limit(6);
  [{ id: otherClassStudent }] = await t.db
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.orgId, k12.id), ne(students.classId, classId), eq(students.status, 'studying')))
    .limit(1);
});
afterAll(async () => {
  await t?.close();
});

const device = (method: 'POST' | 'GET', url: string, payload?: unknown) => t.app.inject({ method, url: `/api/v1/device/${url}`, headers: { authorization: auth }, payload: payload as object });
const web = (method: 'GET' | 'DELETE', url: string, account = 'school01') => t.as(account).request(method, `/api/busi/web/${url}`).then((a) => a.res);
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;
const at = (minutes: number) => new Date(t.clock.now().getTime() - 120 * 60_000 + minutes * 60_000).toISOString();
let seq = 0;
const value = (lessonId: string, studentId: string, item: string, v: number, minute = 10) => ({ clientId: `l-${++seq}`, studentId, kind: 'lesson', refId: lessonId, item, value: v, measuredAt: at(minute) });

async function open(body: Record<string, unknown>) {
  const res = await device('POST', 'lessons', { startedAt: at(0), classId, items: ['rope1min', 'run50m'], ...body });
  expect(res.statusCode, res.body).toBe(200);
  return data<{ id: string }>(res).id;
}

describe('lessons through the device API', () => {
  it('opens a practice lesson once per client id, takes its values and refuses values that do not belong to it', async () => {
    const id = await open({ clientId: 'practise-1', type: 'practise' });
    expect(await open({ clientId: 'practise-1', type: 'practise' })).toBe(id);
    const [a, b, c] = kids;
    const s = data<IngestSummary>(
      await device('POST', 'records', {
        records: [
          value(id, a.id, 'rope1min', 150),
          value(id, a.id, 'rope1min', 170),
          value(id, b.id, 'rope1min', 170),
          value(id, c.id, 'rope1min', 120),
          value(id, a.id, 'run50m', 8.1),
          value(id, b.id, 'run50m', 7.6),
          value(id, otherClassStudent, 'rope1min', 100),
          value(id, a.id, 'sitUp1min', 30),
          value('00000000-0000-4000-8000-00000000abcd', a.id, 'rope1min', 100),
        ],
      }),
    );
    expect(s.results.map((r) => r.code ?? r.status)).toEqual([
      'accepted',
      'accepted',
      'accepted',
      'accepted',
      'accepted',
      'accepted',
      'lessons:rules.notInLesson',
      'lessons:rules.itemNotInLesson',
      'lessons:rules.unknown',
    ]);
    expect((await device('POST', `lessons/${id}/close`, { endedAt: at(45) })).statusCode).toBe(200);
    const late = data<IngestSummary>(await device('POST', 'records', { records: [value(id, c.id, 'run50m', 9, 40), value(id, c.id, 'run50m', 9.5, 90)] }));
    expect(late.results.map((r) => r.code ?? r.status)).toEqual(['accepted', 'lessons:rules.outsideLesson']);

    const page = data<Page<LessonRow>>(await web('GET', 'k12/class/practise/page'));
    const row = page.records.find((r) => r.id === id)!;
    expect(row).toMatchObject({ studentCount: 3, recordCount: 7, type: 'practise' });
    const detail = data<LessonDetail>(await web('GET', `k12/class/practise/${id}`));
    const rope = detail.items.find((i) => i.item === 'rope1min')!;
    expect(rope.students.map((r) => [r.studentId, r.best, r.rank, r.attempts])).toEqual(
      [
        [a.id, 170, 1, 2],
        [b.id, 170, 1, 1],
        [c.id, 120, 3, 1],
      ].sort((x, y) => (x[2] as number) - (y[2] as number) || kids.find((k) => k.id === x[0])!.name.localeCompare(kids.find((k) => k.id === y[0])!.name, 'zh-CN')),
    );
    expect(rope.average).toBeCloseTo(153.33, 2);
    const run = detail.items.find((i) => i.item === 'run50m')!;
    expect(run.students[0]).toMatchObject({ studentId: b.id, best: 7.6, rank: 1 });

    // The district sees its school's lessons; the test list does not show practice; another school gets 404.
    expect(data<Page<LessonRow>>(await web('GET', 'admin/class/practise/page', 'district01')).records.map((r) => r.id)).toContain(id);
    expect(data<Page<LessonRow>>(await web('GET', 'k12/class/test/page')).records.map((r) => r.id)).not.toContain(id);
    expect((await web('GET', `k12/class/practise/${id}`, 'school02')).statusCode).toBe(404);
    expect((await web('DELETE', `k12/class/practise/${id}`, 'school02')).statusCode).toBe(404);

    const exported = await web('GET', 'k12/class/practise/export');
    expect(exported.statusCode).toBe(200);
    const sheet = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(exported.rawPayload).Sheets[XLSX.read(exported.rawPayload).SheetNames[0]], { header: 1 });
    expect(sheet[0]).toContain('班级');
    expect(sheet.length).toBeGreaterThanOrEqual(2);
    // Columns the list hides (teacher, venue, end, counts) are left out, the rest in the list's order; the school stays.
    const shown = await web('GET', 'k12/class/practise/export?columns=startedAt,className,items');
    const head = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(shown.rawPayload).Sheets[XLSX.read(shown.rawPayload).SheetNames[0]], { header: 1 })[0];
    expect(head).toEqual(['学校', '开始时间', '班级', '项目']);

    expect((await web('DELETE', `k12/class/practise/${id}`)).statusCode).toBe(200);
    expect(await t.db.$count(activityRecords, eq(activityRecords.refId, id))).toBe(0);
    expect((await web('GET', `k12/class/practise/${id}`)).statusCode).toBe(404);
  });

  it('a match: teams of the class, team averages per item and the winner', async () => {
    const [a, b, c, d] = kids;
    const bad = await device('POST', 'lessons', { clientId: 'match-bad', type: 'match', classId, items: ['rope1min'], startedAt: at(0), teams: [{ name: '红队', studentIds: [a.id] }, { name: '蓝队', studentIds: [otherClassStudent] }] });
    expect(bad.statusCode).toBe(400);
    expect((await device('POST', 'lessons', { clientId: 'match-none', type: 'match', classId, items: ['rope1min'], startedAt: at(0) })).statusCode).toBe(400);
    const id = await open({ clientId: 'match-1', type: 'match', teams: [{ name: '红队', studentIds: [a.id, b.id] }, { name: '蓝队', studentIds: [c.id, d.id] }] });
    await device('POST', 'records', {
      records: [
        value(id, a.id, 'rope1min', 160),
        value(id, b.id, 'rope1min', 140),
        value(id, c.id, 'rope1min', 130),
        value(id, d.id, 'rope1min', 150),
        value(id, a.id, 'run50m', 8.0),
        value(id, c.id, 'run50m', 7.5),
      ],
    });
    const detail = data<LessonDetail>(await web('GET', `k12/class/match/${id}`));
    const rope = detail.items.find((i) => i.item === 'rope1min')!;
    expect(rope.teams).toEqual([
      { name: '红队', members: 2, average: 150 },
      { name: '蓝队', members: 2, average: 140 },
    ]);
    expect(rope.winner).toBe('红队');
    expect(detail.items.find((i) => i.item === 'run50m')!.winner).toBe('蓝队');
    expect(detail.winner).toBeNull();
  });
});
