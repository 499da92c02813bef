import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { PersonOption, StudentDetail, StudentFormOptions, StudentRecord } from '@/domain/people/students';
import { pageAccess } from '@/domain/menus/access';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, membershipRoles, menus, roleMenus, roles, users } from '../../../server/db/schema/auth';
import { files } from '../../../server/db/schema/files';
import { physiqueResults } from '../../../server/db/schema/physique';
import { classes, parents, parentStudents, studentClassHistory, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { dataOf, orgOf } from '../../support/factories';
import { giveConsent } from '../../support/consent';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let uniId: string;
let k12Classes: { id: string; name: string }[];

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await orgOf(t, 'school01')).orgId;
  uniId = (await orgOf(t, 'college01')).orgId;
  k12Classes = await t.db.select({ id: classes.id, name: classes.name }).from(classes).where(eq(classes.orgId, k12Id)).orderBy(asc(classes.name)).limit(3);
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
/** A valid new student of the K12 school (a fresh registration number each call). */
const draft = (over: Record<string, unknown> = {}) => ({
  name: '测试学生',
  regNo: `T${Date.now()}${++seq}`,
  studentNo: '',
  classId: k12Classes[0].id,
  gender: 'female',
  birthDate: '2014-05-01',
  ethnicity: '01',
  status: 'studying',
  photoFileId: '',
  parents: [],
  newParents: [],
  ...over,
});
const mobile = () => `139${String(Date.now() + ++seq).slice(-8)}`;

async function create(over: Record<string, unknown> = {}) {
  const res = await t.as('school01').post<StudentRecord>('/api/busi/web/k12/user/student', draft(over));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('student fields', () => {
  it('adds a student with a new parent in one save, and both are audited', async () => {
    const m = mobile();
    const s = await create({ name: '林小雨', ethnicity: '03', newParents: [{ name: '林海', gender: 'male', mobile: m, relation: 'father' }] });
    expect(s).toMatchObject({ name: '林小雨', ethnicity: '03', status: 'studying', className: k12Classes[0].name, version: 1 });
    expect(s.parents).toEqual([expect.objectContaining({ name: '林海', mobile: m, relation: 'father' })]);
    const [parent] = await t.db.select().from(parents).where(and(eq(parents.orgId, k12Id), eq(parents.mobile, m)));
    expect(parent.name).toBe('林海');
    const logs = await t.db.select().from(auditLogs).where(inArray(auditLogs.entityId, [s.id, parent.id]));
    expect(logs.map((l) => `${l.entity}:${l.action}`).sort()).toEqual(['parent:create', 'student:create']);
  });

  it('refuses each bad field with its message, naming the field, and writes nothing', async () => {
    const before = await t.db.$count(students, eq(students.orgId, k12Id));
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', '请填写姓名'],
      [{ name: '张'.repeat(31) }, 'name', '姓名不能超过30个字符'],
      [{ regNo: '' }, 'regNo', '请填写学籍号'],
      [{ regNo: 'G-123' }, 'regNo', '学籍号只能包含字母和数字'],
      [{ classId: '' }, 'classId', '请选择班级'],
      [{ gender: 'x' }, 'gender', '请选择性别'],
      [{ birthDate: '2014-13-01' }, 'birthDate', '出生日期格式不正确'],
      [{ ethnicity: '57' }, 'ethnicity', '请选择民族'],
      [{ newParents: [{ name: '家长', gender: 'male', mobile: '12345', relation: 'father' }] }, 'newParents.0.mobile', '家长手机号码格式不正确'],
      [{ newParents: [{ name: '家长', gender: 'male', mobile: mobile(), relation: 'uncle' }] }, 'newParents.0.relation', '请选择与学生关系'],
    ];
    for (const [over, field, msg] of cases) {
      const res = await t.as('school01').post('/api/busi/web/k12/user/student', draft(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body, JSON.stringify(over)).toMatchObject({ msg, data: { field } });
    }
    const en = await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/user/student', draft({ regNo: '' }));
    expect(en.body.msg).not.toMatch(/[\u4e00-\u9fff]/);
    expect(await t.db.$count(students, eq(students.orgId, k12Id))).toBe(before);
  });

  it('refuses a class, photo or parent of another organisation', async () => {
    const [uniClass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    expect((await t.as('school01').post('/api/busi/web/k12/user/student', draft({ classId: uniClass.id }))).body).toMatchObject({ code: '400', data: { field: 'classId' } });
    const [uniParent] = await t.db.insert(parents).values({ orgId: uniId, name: '外校家长', gender: 'male', mobile: mobile() }).returning();
    expect((await t.as('school01').post('/api/busi/web/k12/user/student', draft({ parents: [{ parentId: uniParent.id, relation: 'father' }] }))).body).toMatchObject({ code: '400', data: { field: 'parents' } });
    const [uniPhoto] = await t.db.insert(files).values({ orgId: uniId, purpose: 'face', name: 'a.jpg', hash: 'x', size: 1, mime: 'image/jpeg' }).returning();
    expect((await t.as('school01').post('/api/busi/web/k12/user/student', draft({ photoFileId: uniPhoto.id }))).body).toMatchObject({ code: '400', data: { field: 'photoFileId' } });
    const [photo] = await t.db.insert(files).values({ orgId: k12Id, purpose: 'face', name: 'b.jpg', hash: 'y', size: 1, mime: 'image/jpeg' }).returning();
    // The school's own photo is stored once the guardian has consented (docs/product-rules.md#consent).
    const s = await create();
    await giveConsent(t, [s.id], ['facePhoto']);
    const saved = await t.as('school01').put<StudentRecord>(`/api/busi/web/k12/user/student/${s.id}`, draft({ regNo: s.regNo, photoFileId: photo.id, version: s.version }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.photoFileId).toBe(photo.id);
  });

  it("the registration number is unique in the organisation ('学籍号已注册'), not across organisations", async () => {
    const s = await create();
    const dup = await t.as('school01').post('/api/busi/web/k12/user/student', draft({ regNo: s.regNo }));
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ msg: '学籍号已注册', data: { field: 'regNo' } });
    // Full-width letters and digits are folded before the check.
    const wide = s.regNo.replace(/[A-Za-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    expect((await t.as('school01').post('/api/busi/web/k12/user/student', draft({ regNo: wide }))).body.msg).toBe('学籍号已注册');
    const [uniStudent] = await t.db.select({ regNo: students.regNo }).from(students).where(eq(students.orgId, uniId)).limit(1);
    expect((await t.as('school01').post('/api/busi/web/k12/user/student', draft({ regNo: uniStudent.regNo }))).status).toBe(200);
  });

  it("a new parent's mobile must be free in the organisation", async () => {
    const [taken] = await t.db.select({ mobile: parents.mobile }).from(parents).where(eq(parents.orgId, k12Id)).limit(1);
    const res = await t.as('school01').post('/api/busi/web/k12/user/student', draft({ newParents: [{ name: '重复', gender: 'female', mobile: taken.mobile, relation: 'mother' }] }));
    expect(res.body).toMatchObject({ code: '400', msg: '该家长手机号码已存在', data: { field: 'newParents.0.mobile' } });
  });

  it('links an existing parent; one parent may have several children', async () => {
    const [p] = await t.db.select({ id: parents.id, name: parents.name }).from(parents).where(eq(parents.orgId, k12Id)).limit(1);
    const options = dataOf(await t.as('school01').get<PersonOption[]>(`/api/busi/web/k12/user/student/parent-options?keyword=${encodeURIComponent(p.name)}`));
    expect(options.map((o) => o.id)).toContain(p.id);
    const a = await create({ parents: [{ parentId: p.id, relation: 'guardian' }] });
    const b = await create({ parents: [{ parentId: p.id, relation: 'guardian' }] });
    expect(a.parents[0]).toMatchObject({ parentId: p.id, relation: 'guardian' });
    expect(await t.db.$count(parentStudents, eq(parentStudents.parentId, p.id))).toBeGreaterThanOrEqual(2);
    expect(b.parents.map((x) => x.parentId)).toEqual([p.id]);
  });
});

describe('list, edit, delete', () => {
  it('filters by keyword, grade, class and status; rows carry class and parents', async () => {
    const s = await create({ name: '筛选测试生', status: 'suspended', newParents: [{ name: '筛选家长', gender: 'female', mobile: mobile(), relation: 'mother' }] });
    const p = dataOf(await t.as('school01').get<Page<StudentRecord>>(`/api/busi/web/k12/user/student/page?keyword=${encodeURIComponent('筛选测试')}&status=suspended`));
    expect(p.records.map((r) => r.id)).toEqual([s.id]);
    expect(p.records[0]).toMatchObject({ className: k12Classes[0].name, parents: [expect.objectContaining({ name: '筛选家长' })] });
    expect(dataOf(await t.as('school01').get<Page<StudentRecord>>(`/api/busi/web/k12/user/student/page?keyword=${encodeURIComponent('筛选测试')}&status=studying`)).total).toBe(0);
    const byGrade = dataOf(await t.as('school01').get<Page<StudentRecord>>(`/api/busi/web/k12/user/student/page?size=80&gradeId=${s.gradeId}`));
    expect(byGrade.records.every((r) => r.gradeId === s.gradeId)).toBe(true);
    expect((await t.as('school01').get('/api/busi/web/k12/user/student/page?status=left')).status).toBe(400);
    const options = dataOf(await t.as('school01').get<StudentFormOptions>('/api/busi/web/k12/user/student/options'));
    expect(options.classes.map((c) => c.id)).toContain(k12Classes[0].id);
  });

  it('edits with the version; a stale save is 409 and changes nothing; the audit keeps before and after', async () => {
    const s = await create({ name: '旧名字' });
    const ok = await t.as('school01').put<StudentRecord>(`/api/busi/web/k12/user/student/${s.id}`, draft({ regNo: s.regNo, name: '新名字', status: 'graduated', version: s.version }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ name: '新名字', status: 'graduated', version: 2 });
    const stale = await t.as('school01').put(`/api/busi/web/k12/user/student/${s.id}`, draft({ regNo: s.regNo, name: '又一个', version: s.version }));
    expect(stale.status).toBe(409);
    expect(dataOf(await t.as('school01').get<StudentDetail>(`/api/busi/web/k12/user/student/${s.id}`)).name).toBe('新名字');
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, s.id), eq(auditLogs.action, 'update')));
    expect(log.before).toMatchObject({ name: '旧名字' });
    expect(log.after).toMatchObject({ name: '新名字' });
  });

  it("another organisation's student is 404 on read, edit, delete and transfer", async () => {
    const [uni] = await t.db.select({ id: students.id }).from(students).where(eq(students.orgId, uniId)).limit(1);
    expect((await t.as('school01').get(`/api/busi/web/k12/user/student/${uni.id}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/user/student/${uni.id}`, draft({ version: 1 }))).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/user/student/${uni.id}`)).status).toBe(404);
    expect((await t.as('school01').post('/api/busi/web/k12/user/student/transfer', { studentIds: [uni.id], classId: k12Classes[1].id })).status).toBe(404);
    expect(await t.db.$count(students, eq(students.id, uni.id))).toBe(1);
    // The university reads its students through its own family.
    expect((await t.as('college01').get(`/api/busi/web/gx/user/student/${uni.id}`)).status).toBe(200);
  });

  it('deletes a student without results (links to parents go, the parents stay) and audits it', async () => {
    const m = mobile();
    const s = await create({ newParents: [{ name: '留下的家长', gender: 'male', mobile: m, relation: 'father' }] });
    const res = await t.as('school01').delete(`/api/busi/web/k12/user/student/${s.id}`);
    expect(res.status).toBe(200);
    expect(await t.db.$count(students, eq(students.id, s.id))).toBe(0);
    expect(await t.db.$count(parents, eq(parents.mobile, m))).toBe(1);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, s.id), eq(auditLogs.action, 'delete')));
    expect(log.before).toMatchObject({ regNo: s.regNo });
  });

  it('refuses deleting a student with physique results (409 naming them, suggesting a status change)', async () => {
    const [r] = await t.db.select({ studentId: physiqueResults.studentId }).from(physiqueResults).innerJoin(students, eq(students.id, physiqueResults.studentId)).where(eq(students.orgId, k12Id)).limit(1);
    const res = await t.as('school01').delete(`/api/busi/web/k12/user/student/${r.studentId}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/^该学生已有体测成绩（\d+条），不能删除；请将学生状态改为“转出”或“毕业”$/);
    expect((await t.as('school01', { language: 'en-US' }).delete(`/api/busi/web/k12/user/student/${r.studentId}`)).body.msg).toMatch(/physique results .*Transferred out/i);
    expect(await t.db.$count(students, eq(students.id, r.studentId))).toBe(1);
  });
});

describe('student changes (docs/product-rules.md#student-changes)', () => {
  it('refuses a gender change of a student with physique results, naming the field; a student without results may change it', async () => {
    const [r] = await t.db.select({ studentId: physiqueResults.studentId }).from(physiqueResults).innerJoin(students, eq(students.id, physiqueResults.studentId)).where(eq(students.orgId, k12Id)).limit(1);
    const s = dataOf(await t.as('school01').get<StudentDetail>(`/api/busi/web/k12/user/student/${r.studentId}`));
    const flipped = s.gender === 'male' ? 'female' : 'male';
    const form = { ...draft({ regNo: s.regNo, name: s.name, classId: s.classId, birthDate: s.birthDate ?? '', ethnicity: s.ethnicity }), gender: flipped, version: s.version };
    const res = await t.as('school01').put(`/api/busi/web/k12/user/student/${s.id}`, form);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: '该学生已有体测成绩或测试记录（按原性别评分），不能修改性别' });
    expect(JSON.stringify(res.body)).toContain('gender');
    expect((await t.db.select().from(students).where(eq(students.id, s.id)))[0].gender).toBe(s.gender);
    // Without results the same change is saved.
    const fresh = await create({ gender: 'female' });
    const ok = await t.as('school01').put<StudentRecord>(`/api/busi/web/k12/user/student/${fresh.id}`, draft({ regNo: fresh.regNo, gender: 'male', version: fresh.version }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.gender).toBe('male');
  });
});

describe('transfer', () => {
  it('moves students to another class and keeps their class history', async () => {
    const a = await create();
    const b = await create();
    const res = await t.as('school01').post('/api/busi/web/k12/user/student/transfer', { studentIds: [a.id, b.id], classId: k12Classes[1].id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ moved: 2 });
    const detail = dataOf(await t.as('school01').get<StudentDetail>(`/api/busi/web/k12/user/student/${a.id}`));
    expect(detail.classId).toBe(k12Classes[1].id);
    expect(detail.version).toBe(2);
    expect(detail.history.map((h) => [h.className, h.reason, h.until === null])).toEqual([
      [k12Classes[1].name, 'transfer', true],
      [k12Classes[0].name, 'enrol', false],
    ]);
    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'transfer'), inArray(auditLogs.entityId, [a.id, b.id])));
    expect(logs).toHaveLength(2);
    expect(logs[0].after).toEqual({ classId: k12Classes[1].id });
    // Editing the class in the form is a transfer too.
    await t.as('school01').put(`/api/busi/web/k12/user/student/${b.id}`, draft({ regNo: b.regNo, classId: k12Classes[2].id, version: 2 }));
    expect(await t.db.$count(studentClassHistory, eq(studentClassHistory.studentId, b.id))).toBe(3);
  });

  it("refuses a class of another organisation, and needs the page's edit permission", async () => {
    const a = await create();
    const [uniClass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    expect((await t.as('school01').post('/api/busi/web/k12/user/student/transfer', { studentIds: [a.id], classId: uniClass.id })).body).toMatchObject({ code: '400', data: { field: 'classId' } });
    expect((await t.as('teacher01').post('/api/busi/web/k12/user/student/transfer', { studentIds: [a.id], classId: k12Classes[1].id })).status).toBe(403);
    expect((await t.as('school01').post('/api/busi/web/k12/user/student/transfer', { studentIds: [], classId: k12Classes[1].id })).status).toBe(400);
  });
});

describe('data scope', () => {
  it("a role scoped to 'classes' lists and reads only the students of its holder's classes (others 404)", async () => {
    const [u] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'teacher01'));
    const [m] = await t.db
      .select({ roleId: membershipRoles.roleId })
      .from(memberships)
      .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
      .where(and(eq(memberships.userId, u.id), eq(membershipRoles.present, true)));
    const access = pageAccess('k12.user.student');
    const codes = [access.view, access.buttons.edit!, access.buttons.add!];
    const menuIds = await t.db.select({ menuId: menus.menuId }).from(menus).where(inArray(menus.permission, codes));
    await t.db.insert(roleMenus).values(menuIds.map((x) => ({ roleId: m.roleId, menuId: x.menuId }))).onConflictDoNothing();
    await t.db.update(roles).set({ dataScope: 'classes' }).where(eq(roles.id, m.roleId));
    const [me] = await t.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.userId, u.id));
    const mine = new Set([
      ...(await t.db.select({ id: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.id),
      ...(await t.db.select({ id: classes.id }).from(classes).where(eq(classes.headTeacherId, me.id))).map((r) => r.id),
      ...(await t.db.select({ id: classes.id }).from(classes).where(eq(classes.peTeacherId, me.id))).map((r) => r.id),
    ]);
    expect(mine.size).toBeGreaterThan(0);
    const teacher = t.as('teacher01');
    const page = dataOf(await teacher.get<Page<StudentRecord>>('/api/busi/web/k12/user/student/page?size=80'));
    expect(page.total).toBe(await t.db.$count(students, and(eq(students.orgId, k12Id), inArray(students.classId, [...mine]))));
    expect(page.records.every((r) => mine.has(r.classId))).toBe(true);
    const [outside] = await t.db.select({ id: students.id, classId: students.classId }).from(students).where(eq(students.orgId, k12Id)).limit(200);
    const other = (await t.db.select({ id: students.id, classId: students.classId }).from(students).where(eq(students.orgId, k12Id)).limit(2000)).find((s) => !mine.has(s.classId)) ?? outside;
    expect((await teacher.get(`/api/busi/web/k12/user/student/${other.id}`)).status).toBe(404);
    expect((await teacher.get(`/api/busi/web/k12/user/student/${page.records[0].id}`)).status).toBe(200);
    const options = dataOf(await teacher.get<StudentFormOptions>('/api/busi/web/k12/user/student/options'));
    expect(options.classes.every((c) => mine.has(c.id))).toBe(true);
    await t.db.update(roles).set({ dataScope: 'org' }).where(eq(roles.id, m.roleId));
  });
});
