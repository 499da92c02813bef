import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { AppIdentity, IngestSummary } from '@/domain/activities/ingest';
import type { TokenData } from '@/domain/auth/types';
import type { AppConsent, ConsentChange, ConsentCoverage, ConsentPurpose, ConsentRow } from '@/domain/consent/consent';
import type { HeartRateBatchResult } from '@/domain/lesson-load/ingest';
import type { MeetBoardAnswer } from '@/domain/data-center/types';
import type { MeetBoardView } from '@/domain/meets/board';
import type { EntryRow } from '@/domain/meets/entries';
import type { ResultRow } from '@/domain/meets/results';
import type { FacePhotoApplied } from '@/domain/people/face-photos';
import { filePaths, type StoredFile } from '@/domain/uploads/stored-file';
import type { ScreenLinkCreated } from '@/domain/wall/wall';
import enConsent from '../../../locales/en_us/consent.json';
import { users } from '../../../server/db/schema/auth';
import { consentChanges, studentConsents } from '../../../server/db/schema/consent';
import { orgSecuritySettings } from '../../../server/db/schema/security';
import { classes, parentStudents, parents, students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { sha256Hex } from '../../../server/lib/password';
import { hashSecret } from '../../../server/lib/tokens';
import { appParentAccount, appStudentAccount } from '../../../server/seed/app-demo';
import { DEMO_PASSWORD } from '../../../server/seed/demo-accounts';
import { giveConsent } from '../../support/consent';
import { createMeet, createStudent, DEMO, dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';
import { multipartBody, padded, PDF_HEAD } from '../files/fixtures';

/**
 * The guardian consent register (docs/product-rules.md#consent) through HTTP: the school records signed forms, a
 * parent gives and withdraws in the app API, every change is kept, and each feature refuses or drops without consent
 * (with a translated message and a count), and public boards mask the names.
 */

let t: TestApp;
let schoolId: string;
const BASE = '/api/busi/web/k12/system/consent';
const en = (account = 'school01') => t.as(account, { language: 'en-US' });

const signIn = (account: string, password = DEMO_PASSWORD) => t.app.inject({ method: 'POST', url: '/api/v1/app/login', payload: { account, password: sha256Hex(password) } });
const tokenOf = async (account: string) => {
  const res = await signIn(account);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<TokenData>>().data.access_token;
};
const app = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
  t.request({ method, url: `/api/v1/app/${url}`, token, payload, headers: { 'accept-language': 'en-US' } });

/** A signed form's scan in the file store (the upload kit), as the school's screen uploads it. */
async function formScan(account = 'school01'): Promise<string> {
  const body = multipartBody('同意书.pdf', padded(PDF_HEAD, 2000));
  return dataOf(await t.as(account).post<StoredFile>(`${filePaths.upload}?purpose=attachment`, body.payload, { headers: { 'content-type': body.contentType } })).id;
}

async function versionOf(studentId: string, purpose: ConsentPurpose): Promise<number> {
  const [row] = await t.db.select({ v: studentConsents.version }).from(studentConsents).where(and(eq(studentConsents.studentId, studentId), eq(studentConsents.purpose, purpose)));
  return row?.v ?? 0;
}

/** The school records a signed form for one purpose. */
async function record(studentId: string, purpose: ConsentPurpose, state: 'given' | 'withdrawn') {
  const res = await en().put(`${BASE}/${studentId}/record`, { purpose, state, formFileId: await formScan(), note: '', version: await versionOf(studentId, purpose) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { loginPerMinute: 1_000_000, captchaPerMinute: 1_000_000 } });
  schoolId = (await orgOf(t, DEMO.school)).orgId;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('the register', () => {
  it('a new student has no consent; the school records a signed form (scan required), a stale form is refused, every change kept', async () => {
    const s = await createStudent(t);
    const row = dataOf(await t.as('school01').get<ConsentRow>(`${BASE}/${s.id}`));
    expect(row.consents).toEqual({ facePhoto: 'none', video: 'none', heartRate: 'none', publicName: 'none', appAccount: 'none' });

    // Without the scan: refused, naming the field, nothing written.
    const noForm = await en().put(`${BASE}/${s.id}/record`, { purpose: 'facePhoto', state: 'given', formFileId: '', note: '', version: 0 });
    expect(noForm.status).toBe(400);
    expect(noForm.body).toMatchObject({ msg: enConsent.formRequired, data: { field: 'formFileId' } });
    expect(await t.db.$count(consentChanges, eq(consentChanges.studentId, s.id))).toBe(0);

    await record(s.id, 'facePhoto', 'given');
    // A form opened before that change is stale.
    const stale = await en().put(`${BASE}/${s.id}/record`, { purpose: 'facePhoto', state: 'withdrawn', formFileId: await formScan(), note: '', version: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toBe(enConsent.stale);
    await record(s.id, 'facePhoto', 'withdrawn');

    const history = dataOf(await t.as('school01').get<ConsentChange[]>(`${BASE}/${s.id}/history`));
    expect(history.map((h) => [h.purpose, h.state, h.channel])).toEqual([
      ['facePhoto', 'withdrawn', 'school'],
      ['facePhoto', 'given', 'school'],
    ]);
    expect(history.every((h) => h.formFileId && h.changedByName)).toBe(true);
    expect(dataOf(await t.as('school01').get<ConsentRow>(`${BASE}/${s.id}`)).consents.facePhoto).toBe('withdrawn');
  });

  it('lists the students whose consent is missing by class and purpose, and the coverage per class', async () => {
    const s = await createStudent(t);
    await giveConsent(t, [s.id], ['video']);
    const missing = dataOf(await t.as('school01').get<Page<ConsentRow>>(`${BASE}/page?classId=${s.classId}&purpose=facePhoto&status=none`));
    expect(missing.records.map((r) => r.id)).toEqual([s.id]);
    expect(dataOf(await t.as('school01').get<Page<ConsentRow>>(`${BASE}/page?classId=${s.classId}&purpose=video&status=none`)).total).toBe(0);
    const coverage = dataOf(await t.as('school01').get<ConsentCoverage>(`${BASE}/coverage?classId=${s.classId}`));
    expect(coverage.classes).toEqual([expect.objectContaining({ classId: s.classId, students: 1, given: { facePhoto: 0, video: 1, heartRate: 0, publicName: 0, appAccount: 0 } })]);
    // The demo school recorded nearly everyone: its coverage is high but not complete.
    const all = dataOf(await t.as('school01').get<ConsentCoverage>(`${BASE}/coverage`));
    expect(all.total.given.publicName).toBeGreaterThan(all.total.students * 0.9);
    expect(all.total.given.publicName).toBeLessThan(all.total.students);
    // Another school's student is not there.
    const [other] = await t.db
      .select({ id: students.id })
      .from(students)
      .where(eq(students.orgId, (await orgOf(t, DEMO.school2)).orgId))
      .limit(1);
    expect((await t.as('school01').get(`${BASE}/${other.id}/history`)).status).toBe(404);
    expect((await t.as('school01').put(`${BASE}/${other.id}/record`, { purpose: 'video', state: 'given', formFileId: await formScan(), note: '', version: 0 })).status).toBe(404);
  });
});

describe('the parent in the app API', () => {
  let token: string;
  let child: { id: string; name: string };
  let otherChild: string;
  beforeAll(async () => {
    token = await tokenOf(appParentAccount(1));
    const [p] = await t.db.select({ id: parents.id }).from(parents).innerJoin(users, eq(users.id, parents.userId)).where(eq(users.accountNum, appParentAccount(1)));
    const [c] = await t.db.select({ id: students.id, name: students.name }).from(parentStudents).innerJoin(students, eq(students.id, parentStudents.studentId)).where(eq(parentStudents.parentId, p.id)).limit(1);
    child = c;
    const [o] = await t.db
      .select({ id: students.id })
      .from(students)
      .where(and(eq(students.orgId, schoolId), ne(students.id, c.id), eq(students.status, 'studying')))
      .limit(1);
    otherChild = o.id;
  }, 120_000);

  it("reads the child's consents, withdraws and gives again; the history keeps who and how", async () => {
    const list = (await app('GET', 'consents', token)).json<Envelope<AppConsent[]>>().data;
    const mine = list.find((c) => c.studentId === child.id)!;
    expect(mine.purposes.find((p) => p.purpose === 'publicName')).toMatchObject({ status: 'given', channel: 'school' });

    const withdrawn = await app('PUT', `consents/${child.id}/publicName`, token, { state: 'withdrawn' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json<Envelope<AppConsent>>().data.purposes.find((p) => p.purpose === 'publicName')).toMatchObject({ status: 'withdrawn', channel: 'app' });
    expect((await app('PUT', `consents/${child.id}/publicName`, token, { state: 'given' })).statusCode).toBe(200);

    const history = dataOf(await t.as('school01').get<ConsentChange[]>(`${BASE}/${child.id}/history`)).filter((h) => h.purpose === 'publicName');
    expect(history.map((h) => [h.state, h.channel])).toEqual([
      ['given', 'app'],
      ['withdrawn', 'app'],
      ['given', 'school'],
    ]);
    expect(history[0].changedByName).toBeTruthy();
    expect(history[0].formFileId).toBeNull();
  });

  it("cannot read or change another family's child (404, nothing written); a bad purpose or state is refused", async () => {
    const before = await t.db.$count(consentChanges, eq(consentChanges.studentId, otherChild));
    expect((await app('PUT', `consents/${otherChild}/publicName`, token, { state: 'withdrawn' })).statusCode).toBe(404);
    expect(await t.db.$count(consentChanges, eq(consentChanges.studentId, otherChild))).toBe(before);
    expect((await app('GET', 'consents', token)).json<Envelope<AppConsent[]>>().data.map((c) => c.studentId)).not.toContain(otherChild);
    expect((await app('PUT', `consents/${child.id}/nonsense`, token, { state: 'withdrawn' })).statusCode).toBe(400);
    expect((await app('PUT', `consents/${child.id}/video`, token, { state: 'maybe' })).statusCode).toBe(400);
  });
});

describe('features without consent', () => {
  it('face photos: a batch with a student without consent is refused naming how many, nothing stored; with consent it is stored', async () => {
    const s = await createStudent(t);
    const photo = await sharp({ create: { width: 120, height: 160, channels: 3, background: '#c89' } }).jpeg().toBuffer();
    const body = multipartBody('face.jpg', photo);
    const file = dataOf(await t.as('school01').post<StoredFile>(`${filePaths.upload}?purpose=face`, body.payload, { headers: { 'content-type': body.contentType } }));
    const apply = () => en().post<FacePhotoApplied>('/api/busi/web/k12/user/student/facePhotos/apply', { items: [{ personId: s.id, fileId: file.id }] });
    const refused = await apply();
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(`The guardians of 1 students have not consented to face photos (${s.name}); no photo was saved`);
    const [row] = await t.db.select({ photo: students.photoFileId }).from(students).where(eq(students.id, s.id));
    expect(row.photo).toBeNull();
    // The student form refuses a photo the same way.
    const form = await en().put(`/api/busi/web/k12/user/student/${s.id}`, {
      name: s.name,
      regNo: s.regNo,
      studentNo: '',
      classId: s.classId,
      gender: s.gender,
      birthDate: '2013-05-01',
      ethnicity: '01',
      status: 'studying',
      photoFileId: file.id,
      parents: [],
      newParents: [],
      version: s.version,
    });
    expect(form.status).toBe(400);
    expect(form.body).toMatchObject({ msg: enConsent.photoNeedsConsent, data: { field: 'photoFileId' } });

    await record(s.id, 'facePhoto', 'given');
    expect((await apply()).body.data).toEqual({ applied: 1, replaced: 0 });
  });

  it('videos: a student without consent cannot start an upload, and a record naming a video is rejected once consent is withdrawn', async () => {
    const token = await tokenOf(appStudentAccount(7));
    const me = (await app('GET', 'me', token)).json<Envelope<AppIdentity>>().data;
    const studentId = me.students[0].id;
    const tus = { 'tus-resumable': '1.0.0' };
    const create = (length: number) =>
      t.request({ method: 'POST', url: '/api/v1/app/videos', token, headers: { ...tus, 'accept-language': 'en-US', 'upload-length': String(length), 'upload-metadata': `filename ${Buffer.from('run.mp4').toString('base64')}` } });
    const video = Buffer.alloc(50_000, 7);
    video.writeUInt32BE(24, 0);
    video.write('ftypmp42', 4, 'ascii');
    const created = await create(video.length);
    expect(created.statusCode, created.body).toBe(201);
    const done = await t.request({ method: 'PATCH', url: String(created.headers.location), token, headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, payload: video });
    expect(done.statusCode, done.body).toBe(200);
    const fileId = done.json<Envelope<{ id: string }>>().data.id;

    await record(studentId, 'video', 'withdrawn');
    const refused = await create(video.length);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Envelope<null>>().msg).toContain('have not consented to videos');
    const batch = await app('POST', 'records', token, {
      records: [
        { clientId: 'consent-v1', kind: 'exercise', item: 'running', value: 3000, durationS: 1200, measuredAt: new Date(t.clock.now().getTime() - 3_600_000).toISOString(), videoFileId: fileId },
        { clientId: 'consent-v2', kind: 'exercise', item: 'running', value: 2000, durationS: 900, measuredAt: new Date(t.clock.now().getTime() - 7_200_000).toISOString() },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const summary = batch.json<Envelope<IngestSummary>>().data;
    expect(summary.results.map((r) => r.status)).toEqual(['rejected', 'accepted']);
    expect(summary.results[0]).toMatchObject({ code: 'consent:refused.videoRecord', reason: enConsent.refused.videoRecord });
    expect(summary.rejected).toBe(1);
  });

  it('heart rate: samples of a student without consent are dropped and counted as `consent`; the others are stored', async () => {
    const [{ id: classId }] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, schoolId)).orderBy(asc(classes.code)).limit(1);
    const kids = await t.db
      .select({ id: students.id })
      .from(students)
      .where(and(eq(students.classId, classId), eq(students.status, 'studying'), eq(students.enabled, true), isNotNull(students.regNo)))
      .orderBy(asc(students.regNo))
      .limit(2);
    const SECRET = 'consent-secret';
    const device = (serialNo: string, kind: 'terminal' | 'hub' | 'band') => ({ orgId: schoolId, name: serialNo, serialNo, kind, status: 'online' as const, activatedAt: new Date(), secretHash: hashSecret(SECRET) });
    await t.db.insert(devices).values([device('CS-TERM', 'terminal'), device('CS-HUB', 'hub'), device('CS-BAND-0', 'band'), device('CS-BAND-1', 'band')]);
    const call = (serial: string, method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url: `/api/v1/device/${url}`, headers: { authorization: `Basic ${Buffer.from(`${serial}:${SECRET}`).toString('base64')}`, 'accept-language': 'en-US' }, payload });
    const start = Math.floor((t.clock.now().getTime() - 10 * 60_000) / 60_000) * 60_000;
    const opened = await call('CS-TERM', 'POST', 'lessons', { clientId: 'consent-lesson', type: 'practise', classId, items: ['rope1min'], startedAt: new Date(start).toISOString() });
    expect(opened.statusCode, opened.body).toBe(200);
    const lessonId = opened.json<Envelope<{ id: string }>>().data.id;
    const lent = await call('CS-HUB', 'PUT', `lessons/${lessonId}/bands`, { bindings: [{ band: 'CS-BAND-0', studentId: kids[0].id }, { band: 'CS-BAND-1', studentId: kids[1].id }] });
    expect(lent.statusCode, lent.body).toBe(200);

    await record(kids[1].id, 'heartRate', 'withdrawn');
    const samples = [0, 1, 2].flatMap((i) => ['CS-BAND-0', 'CS-BAND-1'].map((band) => ({ band, at: new Date(start + 60_000 + i * 1000).toISOString(), bpm: 120 })));
    const res = await call('CS-HUB', 'POST', `lessons/${lessonId}/heart-rate`, { samples });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Envelope<HeartRateBatchResult>>().data).toMatchObject({ accepted: 3, dropped: { consent: 3 } });
  });

  it("app accounts: a student's account is not given without consent, and a withdrawn one cannot sign in", async () => {
    const s = await createStudent(t);
    const refused = await en().post(`/api/busi/web/k12/user/student/${s.id}/app-account`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(`The guardians of 1 students have not consented to an app account (${s.name})`);
    await record(s.id, 'appAccount', 'given');
    expect((await en().post(`/api/busi/web/k12/user/student/${s.id}/app-account`)).status).toBe(200);

    const account = appStudentAccount(8);
    const token = await tokenOf(account);
    const me = (await app('GET', 'me', token)).json<Envelope<AppIdentity>>().data;
    await record(me.students[0].id, 'appAccount', 'withdrawn');
    // The session in hand stops working, and a new sign-in is refused naming why.
    expect((await app('GET', 'me', token)).statusCode).toBe(403);
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/app/login', headers: { 'accept-language': 'en-US' }, payload: { account, password: sha256Hex(DEMO_PASSWORD) } });
    expect(again.statusCode).toBe(403);
    expect(again.json<Envelope<null>>().msg).toBe(enConsent.refused.appSignIn);
  });
});

describe('names on public boards', () => {
  let meetId: string;
  let token: string;
  const names = ['张明远', '欧阳春晓', '李华'];
  let athletes: { id: string; classId: string }[];
  const board = async () => {
    t.clock.advance(3_000); // past the board cache
    const res = await t.request({ url: `/api/screen/${token}/scene/meetBoard` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<MeetBoardAnswer>>().data.board.latest[0].results;
  };
  const shown = async () => Object.fromEntries((await board()).map((r) => [r.className + '|' + r.mark, r.name]));

  beforeAll(async () => {
    const base = '/api/busi/web/k12/sportsMeet';
    const made = await createMeet(t, {
      name: '同意运动会',
      entries: 3,
      groups: [{ name: '初中男子组', gender: 'male', bibStart: 1001, gradeIds: [], events: [{ name: '60米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 }] }],
    });
    meetId = made.id;
    athletes = made.athletes;
    for (const [i, a] of athletes.entries()) await t.db.update(students).set({ name: names[i] }).where(eq(students.id, a.id));
    const me = t.as('school01');
    const entries = dataOf(await me.get<Page<EntryRow>>(`${base}/${meetId}/entries?size=80`)).records;
    await me.post(`${base}/${meetId}/entries/review`, { ids: entries.map((e) => e.id), status: 'approved' });
    await me.post(`${base}/${meetId}/draw`, { mode: 'random', seed: 7 });
    expect((await me.post(`${base}/${meetId}/schedule`, {})).status).toBe(200);
    const arr = dataOf(await me.get<{ heats: { id: string }[] }>(`${base}/${meetId}/arrangement`));
    const heatId = arr.heats[0].id;
    const rows = dataOf(await me.get<ResultRow[]>(`${base}/${meetId}/heats/${heatId}/results`));
    await me.put(`${base}/${meetId}/heats/${heatId}/results`, { results: rows.map((r, i) => ({ id: r.id, mark: 8.1 + i / 10 })) });
    expect((await me.post(`${base}/${meetId}/results/step`, { step: 'confirm', heatIds: [heatId] })).status).toBe(200);
    expect((await me.post(`${base}/${meetId}/results/step`, { step: 'publish', heatIds: [heatId] })).status).toBe(200);
    token = dataOf(await me.post<ScreenLinkCreated>(`${base}/${meetId}/boardLinks`, { name: '同意大屏' })).token;
  }, 180_000);

  it('shows the full name only with display consent: none and withdrawn show surname + * (compound surnames kept), the class beside it', async () => {
    await record(athletes[0].id, 'publicName', 'given');
    await record(athletes[2].id, 'publicName', 'given');
    await record(athletes[2].id, 'publicName', 'withdrawn');
    const results = await board();
    const byName = results.map((r) => r.name).sort();
    expect(byName).toEqual(['张明远', '李*', '欧阳*'].sort());
    expect(results.every((r) => r.className)).toBe(true);
    // The signed-in score screen shows the same names.
    const screen = dataOf(await t.as('school01').get<MeetBoardView>(`/api/busi/web/k12/sportsMeet/${meetId}/board`));
    expect(screen.latest[0].results.map((r) => r.name).sort()).toEqual(byName);
  });

  it("the school's masked form applies to everyone, consent or not", async () => {
    await t.db
      .insert(orgSecuritySettings)
      .values({ orgId: schoolId, value: { maskStudentNames: true } })
      .onConflictDoUpdate({ target: orgSecuritySettings.orgId, set: { value: { maskStudentNames: true } } });
    expect(Object.values(await shown()).sort()).toEqual(['张*', '李*', '欧阳*'].sort());
    await t.db.delete(orgSecuritySettings).where(eq(orgSecuritySettings.orgId, schoolId));
    expect(Object.values(await shown())).toContain('张明远');
  });
});
