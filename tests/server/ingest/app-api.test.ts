import { and, eq, isNotNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { AppIdentity, AppRecordRow, AppSelfTestRow, IngestSummary } from '@/domain/activities/ingest';
import type { TokenData } from '@/domain/auth/types';
import { UPLOAD_LIMIT } from '@/domain/constants';
import { activityRecords } from '../../../server/db/schema/activities';
import { users } from '../../../server/db/schema/auth';
import { homeworkClasses, homeworkItems, homeworks } from '../../../server/db/schema/homework';
import { testRecords } from '../../../server/db/schema/physique';
import { parentStudents, parents, students } from '../../../server/db/schema/school';
import { appStudentAccount } from '../../../server/seed/app-demo';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { sha256Hex } from '../../../server/lib/password';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let parentAccount: string;
let ownChild: string;
let otherChild: string;

beforeAll(async () => {
  t = await createTestApp();
  // A parent with an app account, one of its children, and a child of another family.
  const [p] = await t.db
    .select({ account: users.accountNum, parentId: parents.id })
    .from(parents)
    .innerJoin(users, eq(users.id, parents.userId))
    .where(isNotNull(parents.userId))
    .limit(1);
  parentAccount = p.account;
  [{ studentId: ownChild }] = await t.db.select({ studentId: parentStudents.studentId }).from(parentStudents).where(eq(parentStudents.parentId, p.parentId)).limit(1);
  const [other] = await t.db
    .select({ id: students.id })
    .from(students)
    .where(and(ne(students.id, ownChild), eq(students.status, 'studying')))
    .limit(1);
  otherChild = other.id;
});
afterAll(async () => {
  await t?.close();
});

const signIn = (account: string, password = DEMO_PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/v1/app/login', payload: { account, password: sha256Hex(password) } });
const tokenOf = async (account: string) => {
  const res = await signIn(account);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<TokenData>>().data.access_token;
};
const call = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown, lang = 'zh-CN') =>
  t.request({ method, url: `/api/v1/app/${url}`, token, payload: payload as object, headers: { 'accept-language': lang } });
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;

let seq = 0;
const minutesAgo = (m: number) => new Date(t.clock.now().getTime() - m * 60_000).toISOString();
const rec = (extra: Record<string, unknown> = {}) => ({ clientId: `app-${++seq}`, kind: 'exercise', item: 'running', value: 3000, durationS: 1200, measuredAt: minutesAgo(60), ...extra });

describe('app sign-in', () => {
  it("signs a student in with its own account, without a captcha; wrong passwords and a teacher's account are refused", async () => {
    const token = await tokenOf(appStudentAccount(1));
    const me = data<AppIdentity>(await call('GET', 'me', token));
    expect(me.identity).toBe('student');
    expect(me.students).toHaveLength(1);
    expect((await signIn(appStudentAccount(1), 'Wrong@123')).statusCode).toBe(400);
    const teacher = await signIn('teacher01');
    expect(teacher.statusCode).toBe(403);
  });

  it('writes every app sign-in to the sign-in log: success, and refusals with their reason', async () => {
    const account = appStudentAccount(4);
    await tokenOf(account);
    expect((await signIn(account, 'Wrong@123')).statusCode).toBe(400);
    expect((await signIn('teacher01')).statusCode).toBe(403);
    const district = (await t.login('district01')).access_token;
    const logOf = async (who: string) => {
      const res = await t.request({ method: 'GET', url: `/api/busi/web/admin/system/signInLog/page?account=${who}&size=50`, token: district });
      expect(res.statusCode, res.body).toBe(200);
      return data<Page<{ account: string; result: string; reason: string | null }>>(res).records.filter((r) => r.account === who);
    };
    expect((await logOf(account)).map((r) => [r.result, r.reason])).toEqual(
      expect.arrayContaining([
        ['success', null],
        ['failure', 'errors:badCredentials'],
      ]),
    );
    expect((await logOf('teacher01')).map((r) => [r.result, r.reason])).toContainEqual(['failure', 'activities:ingest.appNoIdentity']);
  });

  it('a console session cannot use the app API, an app session cannot use the console; sign-out ends the token', async () => {
    const consoleToken = (await t.login('school01')).access_token;
    expect((await call('GET', 'me', consoleToken)).statusCode).toBe(403);
    const token = await tokenOf(appStudentAccount(2));
    expect((await t.request({ method: 'GET', url: '/api/busi/web/k12/device/page', token })).statusCode).toBe(403);
    expect((await call('POST', 'logout', token)).statusCode).toBe(200);
    expect((await call('GET', 'me', token)).statusCode).toBe(401);
  });
});

describe('a student submits and reads its own results', () => {
  it('submits an exercise session and a self test for itself; a resend creates nothing; another student is refused', async () => {
    const token = await tokenOf(appStudentAccount(3));
    const me = data<AppIdentity>(await call('GET', 'me', token));
    const self = me.students[0].id;
    const batch = [rec(), rec({ kind: 'selfTest', item: 'sitUp1min', value: 42 })];
    const first = data<IngestSummary>(await call('POST', 'records', token, { records: batch }));
    expect(first).toMatchObject({ accepted: 2, duplicate: 0, rejected: 0 });
    expect(data<IngestSummary>(await call('POST', 'records', token, { records: batch }))).toMatchObject({ accepted: 0, duplicate: 2 });
    const [activity] = await t.db.select().from(activityRecords).where(eq(activityRecords.clientId, batch[0].clientId));
    expect(activity).toMatchObject({ studentId: self, source: 'app', deviceId: null, durationS: 1200 });
    const [test] = await t.db.select().from(testRecords).where(eq(testRecords.clientId, batch[1].clientId));
    expect(test).toMatchObject({ studentId: self, source: 'self', raw: 42 });

    const other = data<IngestSummary>(await call('POST', 'records', token, { records: [rec({ studentId: otherChild }), rec({ value: -5 })] }, 'en-US'));
    expect(other.results.map((r) => r.code)).toEqual(['activities:ingest.studentNotYours', 'activities:ingest.valueRange']);
    expect(other.results[0].reason).toBe('You can only submit records for yourself or your own children');

    const page = data<Page<AppRecordRow>>(await call('GET', 'records', token));
    expect(page.records.map((r) => r.clientId)).toContain(batch[0].clientId);
    const tests = data<Page<AppSelfTestRow>>(await call('GET', 'self-tests?item=sitUp1min', token));
    expect(tests.records.some((r) => r.value === 42 && r.source === 'self')).toBe(true);
    expect((await call('GET', `records?studentId=${otherChild}`, token)).statusCode).toBe(404);
  });

  it('refuses a batch whose measuredAt has no time-zone offset, naming the field, and stores nothing of it', async () => {
    const token = await tokenOf(appStudentAccount(3));
    const local = minutesAgo(30).replace(/Z$/, '');
    const batch = [rec(), rec({ measuredAt: local })];
    const res = await call('POST', 'records', token, { records: batch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: { field: 'records.1.measuredAt' }, msg: '测量时间（measuredAt）须带时区偏移，例如 2026-09-01T08:30:00+08:00' });
    expect((await call('POST', 'records', token, { records: [rec({ measuredAt: local.replace('T', ' ') })] }, 'en-US')).json().msg).toBe(
      'The measured time (measuredAt) needs a time-zone offset, e.g. 2026-09-01T08:30:00+08:00',
    );
    expect(await t.db.$count(activityRecords, eq(activityRecords.clientId, batch[0].clientId))).toBe(0);
    // The same instant with an explicit +08:00 offset is taken.
    const shanghai = new Date(new Date(minutesAgo(30)).getTime() + 8 * 3_600_000).toISOString().replace('Z', '+08:00');
    expect(data<IngestSummary>(await call('POST', 'records', token, { records: [rec({ measuredAt: shanghai })] }))).toMatchObject({ accepted: 1 });
  });

  it('refuses a homework or contest entry whose owner does not accept it, and one without its refId', async () => {
    const token = await tokenOf(appStudentAccount(4));
    const s = data<IngestSummary>(await call('POST', 'records', token, { records: [rec({ kind: 'homework', refId: '00000000-0000-4000-8000-0000000000aa' }), rec({ kind: 'contest' })] }));
    expect(s.rejected).toBe(2);
    expect(s.results[1].code).toBe('activities:ingest.refRequired');
  });
});

describe('videos (resumable, tus)', () => {
  const tus = { 'tus-resumable': '1.0.0' };
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const create = async (token: string, length: number, meta: Record<string, string> = { filename: 'run.mp4' }) =>
    t.request({
      method: 'POST',
      url: '/api/v1/app/videos',
      token,
      headers: { ...tus, 'upload-length': String(length), 'upload-metadata': Object.entries(meta).map(([k, v]) => `${k} ${b64(v)}`).join(',') },
    });
  const patch = (token: string, location: string, offset: number, bytes: Buffer) =>
    t.request({ method: 'PATCH', url: location, token, headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, payload: bytes });
  const head = (token: string, location: string) => t.request({ method: 'HEAD', url: location, token, headers: tus });
  const mp4 = (size: number) => {
    const out = Buffer.alloc(size, 7);
    out.writeUInt32BE(24, 0);
    out.write('ftypmp42', 4, 'ascii');
    return out;
  };

  it('an upload interrupted after its first chunk resumes from the server’s offset and ends in a valid homework submission', async () => {
    const account = appStudentAccount(5);
    const token = await tokenOf(account);
    const me = data<AppIdentity>(await call('GET', 'me', token));
    const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(t.clock.now().getTime() + ms));
    const [hw] = await t.db
      .insert(homeworks)
      .values({ orgId: me.students[0].orgId, name: '视频作业', cycle: 'daily', startDate: day(-86_400_000), endDate: day(86_400_000) })
      .returning({ id: homeworks.id });
    await t.db.insert(homeworkClasses).values({ homeworkId: hw.id, classId: me.students[0].classId });
    await t.db.insert(homeworkItems).values({ homeworkId: hw.id, item: 'rope1min', target: 120, intensity: 'medium', sort: 0 });

    const video = mp4(200_000);
    const created = await create(token, video.length, { filename: '跳绳.mp4' });
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    expect(location).toMatch(/^\/api\/v1\/app\/videos\/[0-9a-f]{32}$/);
    expect((await patch(token, location, 0, video.subarray(0, 80_000))).statusCode).toBe(204);
    // The connection dropped; the app asks where to go on from. Another user cannot see or continue the upload.
    const other = await tokenOf(appStudentAccount(6));
    expect((await head(other, location)).statusCode).toBe(404);
    expect((await patch(other, location, 80_000, video.subarray(80_000))).statusCode).toBe(404);
    const probe = await head(token, location);
    expect([probe.statusCode, probe.headers['upload-offset']]).toEqual([200, '80000']);
    const last = await patch(token, location, 80_000, video.subarray(80_000));
    expect(last.statusCode, last.body).toBe(200);
    const file = data<{ id: string; mime: string; size: number; name: string }>(last);
    expect(file).toMatchObject({ mime: 'video/mp4', size: video.length, name: '跳绳.mp4' });
    // A client whose last answer was lost reads the result of the finished upload.
    const uploadId = location.slice(location.lastIndexOf('/') + 1);
    expect(data<{ id: string }>(await call('GET', `uploads/${uploadId}`, token)).id).toBe(file.id);
    expect((await call('GET', `uploads/${uploadId}`, other)).statusCode).toBe(404);

    const s = data<IngestSummary>(await call('POST', 'records', token, { records: [rec({ kind: 'homework', refId: hw.id, item: 'rope1min', value: 130, durationS: 60, videoFileId: file.id })] }));
    expect(s).toMatchObject({ accepted: 1, rejected: 0 });
    const [stored] = await t.db.select().from(activityRecords).where(and(eq(activityRecords.refId, hw.id), eq(activityRecords.kind, 'homework')));
    expect(stored).toMatchObject({ videoFileId: file.id, studentId: me.students[0].id, source: 'app' });
    // Another user's video cannot be attached.
    const refused = data<IngestSummary>(await call('POST', 'records', other, { records: [rec({ videoFileId: file.id })] }));
    expect(refused.results[0].code).toBe('activities:ingest.videoUnknown');
  });

  it('refuses a PNG renamed .mp4 (by its content) and drops the upload; a video over the ceiling is refused up front', async () => {
    const token = await tokenOf(appStudentAccount(7));
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.alloc(2000)]);
    const created = await create(token, png.length, { filename: 'photo.mp4' });
    expect(created.statusCode).toBe(201);
    const location = String(created.headers.location);
    const res = await patch(token, location, 0, png);
    expect(res.statusCode).toBe(400);
    expect((await head(token, location)).statusCode).toBe(404);
    expect((await create(token, UPLOAD_LIMIT.video + 1)).statusCode).toBe(413);
  });

  it('documents the resumable upload in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, { description?: string }>> }>();
    expect(doc.paths['/api/v1/app/videos'].post.description).toContain('tus 1.0');
    expect(Object.keys(doc.paths['/api/v1/app/videos/{uploadId}']).sort()).toEqual(['delete', 'head', 'patch']);
    expect(doc.paths['/api/v1/app/uploads/{uploadId}'].get).toBeDefined();
  });

  it('a parent uploads for its own child only', async () => {
    const token = await tokenOf(parentAccount);
    expect((await create(token, 1000, { filename: 'a.mp4', studentId: ownChild })).statusCode).toBe(201);
    expect((await create(token, 1000, { filename: 'a.mp4', studentId: otherChild })).statusCode).toBe(404);
  });
});

describe('a parent acts for its own children only', () => {
  it("submits for its child; another family's child is refused and its records are not readable", async () => {
    const token = await tokenOf(parentAccount);
    const me = data<AppIdentity>(await call('GET', 'me', token));
    expect(me.identity).toBe('parent');
    expect(me.students.map((s) => s.id)).toContain(ownChild);
    expect(me.students.map((s) => s.id)).not.toContain(otherChild);

    const before = await t.db.$count(activityRecords, eq(activityRecords.studentId, otherChild));
    const s = data<IngestSummary>(await call('POST', 'records', token, { records: [rec({ studentId: ownChild }), rec({ studentId: otherChild }), rec()] }));
    expect(s.results.map((r) => r.status)).toEqual(['accepted', 'rejected', 'rejected']);
    expect(s.results[1].code).toBe('activities:ingest.studentNotYours');
    expect(s.results[2].code).toBe('activities:ingest.studentRequired');
    expect(await t.db.$count(activityRecords, eq(activityRecords.studentId, otherChild))).toBe(before);

    expect((await call('GET', `records?studentId=${ownChild}`, token)).statusCode).toBe(200);
    expect((await call('GET', `records?studentId=${otherChild}`, token)).statusCode).toBe(404);
    expect((await call('GET', `self-tests?studentId=${otherChild}`, token)).statusCode).toBe(404);
  });
});

describe('OpenAPI document', () => {
  it('documents both APIs from the route schemas at /api/docs', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, { security?: unknown; requestBody?: unknown }>>; components: { securitySchemes: Record<string, unknown> } }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/device/records', '/api/v1/device/students', '/api/v1/device/lessons', '/api/v1/app/login', '/api/v1/app/records', '/api/v1/app/me']),
    );
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/v1/'))).toBe(true);
    expect(doc.components.securitySchemes).toHaveProperty('device');
    expect(JSON.stringify(doc.paths['/api/v1/device/records'].post.requestBody)).toContain('clientId');
    // The offset rule is in the document, on the field and in both record routes' descriptions.
    expect(JSON.stringify(doc.paths['/api/v1/device/records'].post.requestBody)).toContain('without an offset the batch is refused');
    for (const path of ['/api/v1/device/records', '/api/v1/app/records']) expect(JSON.stringify(doc.paths[path].post)).toContain('time-zone offset');
    const page = await t.app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
