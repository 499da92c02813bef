import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { IMAGE_COMPRESS_ABOVE } from '@/domain/constants';
import { pageAccess } from '@/domain/menus/access';
import type { FacePhotoApplied, FacePhotoMatchResult } from '@/domain/people/face-photos';
import { filePaths, type StoredFile } from '@/domain/uploads/stored-file';
import enErrors from '../../../locales/en_us/errors.json';
import enPeople from '../../../locales/en_us/people.json';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, membershipRoles, menus, roleMenus, roles, users } from '../../../server/db/schema/auth';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { giveConsent } from '../../support/consent';
import { dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';
import { HTML, multipartBody, noisyJpeg, padded, PNG_HEAD } from '../files/fixtures';

let t: TestApp;
let dir: string;
let k12Id: string;
let k12Class: string;
let otherClass: string;

const STUDENT = 'k12/user/student/facePhotos';
const STAFF = 'k12/user/teacher/facePhotos';

/** Every request in English: the refusals' messages are compared with the en_us locale. */
const as = (account: string) => t.as(account, { language: 'en-US' });
const match = (account: string, url: string, names: string[]) => as(account).post<FacePhotoMatchResult>(`/api/busi/web/${url}/match`, { names });
const apply = (account: string, url: string, items: { personId: string; fileId: string; replace?: boolean }[]) => as(account).post<FacePhotoApplied>(`/api/busi/web/${url}/apply`, { items });

const upload = (account: string, name: string, bytes: Buffer) => {
  const body = multipartBody(name, bytes);
  return as(account).post<StoredFile>(`${filePaths.upload}?purpose=face`, body.payload, { headers: { 'content-type': body.contentType } });
};
const face = async (account = 'school01', name = 'face.jpg', bytes?: Buffer) => {
  const res = await upload(account, name, bytes ?? (await sharp({ create: { width: 120, height: 160, channels: 3, background: '#c89' } }).jpeg().toBuffer()));
  return dataOf(res);
};

async function addStudent(name: string, regNo: string, classId = k12Class) {
  const [row] = await t.db.insert(students).values({ orgId: k12Id, classId, name, regNo, gender: 'female' }).returning({ id: students.id });
  // The guardian consented to face photos (docs/product-rules.md#consent; refusals: tests/server/consent).
  await giveConsent(t, [row.id], ['facePhoto']);
  return row.id;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-faces-'));
  t = await createTestApp({ env: { STORAGE_DIR: dir } });
  k12Id = (await orgOf(t, 'school01')).orgId;
  const list = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, k12Id)).orderBy(asc(classes.name));
  [k12Class, otherClass] = [list[0].id, list[list.length - 1].id];
}, 60_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('matching file names', () => {
  it('matches students by registration number or name, folder and extension ignored, full-width and case folded', async () => {
    const a = await addStudent('照片甲同学', 'PHOTOA001');
    const b = await addStudent('照片乙同学', 'PHOTOB001');
    const { res, body } = await match('school01', STUDENT, ['班级照片/photoa001.JPG', '照片乙同学.png', 'ＰＨＯＴＯＸ９９９.jpeg']);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.data.matched.map((m) => [m.file, m.person.id])).toEqual([
      ['班级照片/photoa001.JPG', a],
      ['照片乙同学.png', b],
    ]);
    expect(body.data.matched[0].person).toMatchObject({ name: '照片甲同学', photoFileId: null });
    expect(body.data.matched[0].person.detail).toBeTruthy();
    expect(body.data.unmatched).toEqual(['ＰＨＯＴＯＸ９９９.jpeg']);
    expect(body.data.ambiguous).toEqual([]);
  });

  it('matches staff by mobile, name or work number', async () => {
    const [row] = await t.db
      .insert(teachers)
      .values({ orgId: k12Id, name: '照片老师', gender: 'male', mobile: '13912340001', workNo: 'PH-001' })
      .returning({ id: teachers.id });
    const { body } = await match('school01', STAFF, ['13912340001.jpg']);
    expect(body.data.matched.map((m) => m.person.id)).toEqual([row.id]);
    for (const name of ['照片老师.png', 'ph-001.jpeg']) expect((await match('school01', STAFF, [name])).body.data.matched.map((m) => m.person.id)).toEqual([row.id]);
    // Students are not staff.
    expect((await match('school01', STAFF, ['PHOTOA001.jpg'])).body.data.unmatched).toEqual(['PHOTOA001.jpg']);
  });

  it('a name two students share is ambiguous, listing both; two files for one person are ambiguous too', async () => {
    await addStudent('照片重名', 'PHOTOC001');
    await addStudent('照片重名', 'PHOTOC002', otherClass);
    const d = await addStudent('照片丁同学', 'PHOTOD001');
    const { body } = await match('school01', STUDENT, ['照片重名.jpg', '照片丁同学.jpg', 'PHOTOD001.png']);
    expect(body.data.matched).toEqual([]);
    const [twoPeople, ...onePerson] = body.data.ambiguous;
    expect(twoPeople).toMatchObject({ file: '照片重名.jpg', reason: 'people' });
    expect(twoPeople.candidates.map((c) => c.name)).toEqual(['照片重名', '照片重名']);
    expect(new Set(twoPeople.candidates.map((c) => c.detail)).size).toBe(2);
    expect(onePerson.map((o) => [o.file, o.reason, o.candidates[0].id])).toEqual([
      ['照片丁同学.jpg', 'files', d],
      ['PHOTOD001.png', 'files', d],
    ]);
  });

  it('refuses an empty or oversized batch with the message, and needs the page’s edit button', async () => {
    const empty = await match('school01', STUDENT, []);
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe(enPeople.photos.error.noFiles);
    const many = await match('school01', STUDENT, Array.from({ length: 1001 }, (_, i) => `${i}.jpg`));
    expect(many.body.msg).toBe(enPeople.photos.error.tooMany);
    // The demo PE teacher's role has no edit button on the student page.
    expect((await match('teacher01', STUDENT, ['x.jpg'])).status).toBe(403);
    // A university account on the K12 route.
    expect((await match('college01', STUDENT, ['x.jpg'])).status).toBe(403);
  });
});

describe('applying', () => {
  it('sets the matched photos in one transaction with one audit row; the photo is served to the school only', async () => {
    const a = await addStudent('照片戊同学', 'PHOTOE001');
    const b = await addStudent('照片己同学', 'PHOTOF001');
    const [fa, fb] = [await face('school01', 'PHOTOE001.jpg'), await face('school01', 'PHOTOF001.jpg')];
    const { res, body } = await apply('school01', STUDENT, [
      { personId: a, fileId: fa.id },
      { personId: b, fileId: fb.id },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.data).toEqual({ applied: 2, replaced: 0 });
    const rows = await t.db.select({ id: students.id, photo: students.photoFileId, version: students.version }).from(students).where(inArray(students.id, [a, b]));
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.photo, r.version]]))).toEqual({ [a]: [fa.id, 2], [b]: [fb.id, 2] });
    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'facePhotos'), eq(auditLogs.orgId, k12Id)));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ entity: 'student', before: [{ id: a, photoFileId: null }, { id: b, photoFileId: null }] });

    // Matching now shows the photo each person has.
    expect((await match('school01', STUDENT, ['PHOTOE001.jpg'])).body.data.matched[0].person.photoFileId).toBe(fa.id);
    // Signed-in users of the school see it; another school's user gets 404, signed out 401.
    for (const url of [filePaths.content(fa.id), filePaths.thumbnail(fa.id)]) {
      expect((await t.as('school01').get(url)).status).toBe(200);
      expect((await t.as('teacher01').get(url)).status).toBe(200);
      expect((await t.as('school02').get(url)).status).toBe(404);
      expect((await t.as('college01').get(url)).status).toBe(404);
      expect((await t.request({ url })).statusCode).toBe(401);
    }
  });

  it('never replaces a photo without the person confirming: 409 naming them and nothing written; with replace it is set', async () => {
    const a = await addStudent('照片庚同学', 'PHOTOG001');
    const b = await addStudent('照片辛同学', 'PHOTOH001');
    const old = await face();
    await apply('school01', STUDENT, [{ personId: a, fileId: old.id }]);
    const [fa, fb] = [await face(), await face()];
    const refused = await apply('school01', STUDENT, [
      { personId: b, fileId: fb.id },
      { personId: a, fileId: fa.id },
    ]);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(enPeople.photos.error.hasPhoto.replace('{{names}}', '照片庚同学'));
    const before = await t.db.select({ id: students.id, photo: students.photoFileId }).from(students).where(inArray(students.id, [a, b]));
    expect(Object.fromEntries(before.map((r) => [r.id, r.photo]))).toEqual({ [a]: old.id, [b]: null });

    const { body } = await apply('school01', STUDENT, [
      { personId: b, fileId: fb.id },
      { personId: a, fileId: fa.id, replace: true },
    ]);
    expect(body.data).toEqual({ applied: 2, replaced: 1 });
    const [after] = await t.db.select({ photo: students.photoFileId }).from(students).where(eq(students.id, a));
    expect(after.photo).toBe(fa.id);
  });

  it('one person twice in a batch is refused', async () => {
    const a = await addStudent('照片壬同学', 'PHOTOI001');
    const f = await face();
    const { res, body } = await apply('school01', STUDENT, [
      { personId: a, fileId: f.id },
      { personId: a, fileId: f.id },
    ]);
    expect(res.statusCode).toBe(400);
    expect(body.msg).toBe(enPeople.photos.error.personTwice);
  });

  it('another organisation’s person or file, or a file of another purpose, is 404 and nothing is written', async () => {
    const a = await addStudent('照片癸同学', 'PHOTOJ001');
    const uni = { id: (await orgOf(t, 'college01')).orgId };
    const [uniStudent] = await t.db.select({ id: students.id }).from(students).where(eq(students.orgId, uni.id)).limit(1);
    const own = await face();
    const foreign = await face('school02');
    const body = multipartBody('PHOTOJ001.jpg', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toBuffer());
    const image = dataOf(await t.as('school01').post<StoredFile>(`${filePaths.upload}?purpose=image`, body.payload, { headers: { 'content-type': body.contentType } }));
    expect((await apply('school01', STUDENT, [{ personId: a, fileId: foreign.id }])).status).toBe(404);
    expect((await apply('school01', STUDENT, [{ personId: a, fileId: image.id }])).status).toBe(404);
    expect((await apply('school01', STUDENT, [{ personId: uniStudent.id, fileId: own.id }])).status).toBe(404);
    const [row] = await t.db.select({ photo: students.photoFileId }).from(students).where(eq(students.id, a));
    expect(row.photo).toBeNull();
  });
});

describe('the files a batch uploads', () => {
  it('compresses a face photo over 100 KB', async () => {
    const original = await noisyJpeg();
    expect(original.length).toBeGreaterThan(IMAGE_COMPRESS_ABOVE);
    const file = await face('school01', 'PHOTOA001.jpg', original);
    expect(file.size).toBeLessThan(original.length);
    expect(file.mime).toBe('image/jpeg');
  });

  it('refuses a file over 10 MB and a page renamed .jpg', async () => {
    const big = await upload('school01', 'PHOTOA001.png', padded(PNG_HEAD, 10 * 1024 * 1024 + 1));
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe(enErrors.fileTooLarge);
    const page = await upload('school01', 'PHOTOA001.jpg', HTML);
    expect(page.status).toBe(400);
    expect(page.body.msg).toBe(enErrors.fileFormat);
  });
});

describe('data scope', () => {
  it('an actor scoped to their classes matches and sets only students and staff of those classes', async () => {
    // Give the demo PE teacher's role the student page's edit button and the "my classes" scope.
    const [teacher] = await t.db
      .select({ id: teachers.id, name: teachers.name, roleId: membershipRoles.roleId })
      .from(teachers)
      .innerJoin(users, eq(users.id, teachers.userId))
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
      .where(and(eq(users.accountNum, 'teacher01'), eq(teachers.orgId, k12Id)));
    const codes = ['k12.user.student', 'k12.user.teacher'].flatMap((key) => [pageAccess(key).view, pageAccess(key).need('edit')]);
    const wanted = await t.db.select({ menuId: menus.menuId }).from(menus).where(inArray(menus.permission, codes));
    await t.db.insert(roleMenus).values(wanted.map((m) => ({ roleId: teacher.roleId, menuId: m.menuId }))).onConflictDoNothing();
    await t.db.update(roles).set({ dataScope: 'classes' }).where(eq(roles.id, teacher.roleId));

    const taught = await t.db.select({ classId: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, teacher.id));
    const mine = taught[0].classId;
    const [notMine] = await t.db
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.orgId, k12Id), eq(classes.enabled, true)))
      .then((rows) => rows.filter((c) => !taught.some((x) => x.classId === c.id)));
    const inside = await addStudent('照片范围内', 'PHOTOK001', mine);
    const outside = await addStudent('照片范围外', 'PHOTOK002', notMine.id);

    const { res, body } = await match('teacher01', STUDENT, ['PHOTOK001.jpg', 'PHOTOK002.jpg']);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.data.matched.map((m) => m.person.id)).toEqual([inside]);
    expect(body.data.unmatched).toEqual(['PHOTOK002.jpg']);

    const f = await face('teacher01');
    expect((await apply('teacher01', STUDENT, [{ personId: outside, fileId: f.id }])).status).toBe(404);
    expect((await apply('teacher01', STUDENT, [{ personId: inside, fileId: f.id }])).status).toBe(200);

    // Staff: those teaching one of the actor's classes, and the actor; not the others.
    const [colleague, stranger] = await t.db
      .insert(teachers)
      .values([
        { orgId: k12Id, name: '照片同班老师', gender: 'female', workNo: 'PH-IN' },
        { orgId: k12Id, name: '照片别班老师', gender: 'male', workNo: 'PH-OUT' },
      ])
      .returning({ id: teachers.id });
    await t.db.insert(teacherClasses).values([
      { teacherId: colleague.id, classId: mine, subject: 'health' },
      { teacherId: stranger.id, classId: notMine.id, subject: 'pe' },
    ]);
    const staff = await match('teacher01', STAFF, ['PH-IN.jpg', 'PH-OUT.jpg', `${teacher.name}.jpg`]);
    expect(staff.status, staff.res.body).toBe(200);
    expect(staff.body.data.matched.map((m) => m.person.id).sort()).toEqual([colleague.id, teacher.id].sort());
    expect(staff.body.data.unmatched).toEqual(['PH-OUT.jpg']);
    // The whole school for an administrator.
    expect((await match('school01', STAFF, ['PH-OUT.jpg'])).body.data.matched).toHaveLength(1);
  });
});
