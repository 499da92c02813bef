import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { pageAccess } from '@/domain/menus/access';
import type { ParentRecord } from '@/domain/people/parents';
import type { PersonOption, StudentRecord } from '@/domain/people/students';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, membershipRoles, menus, roleMenus, roles, users } from '../../../server/db/schema/auth';
import { classes, parents, parentStudents, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { orgOf } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let uniId: string;
let kids: { id: string; name: string; regNo: string; classId: string }[];

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  k12Id = (await orgOf(t, 'school01')).orgId;
  uniId = (await orgOf(t, 'college01')).orgId;
  kids = await t.db.select({ id: students.id, name: students.name, regNo: students.regNo, classId: students.classId }).from(students).where(eq(students.orgId, k12Id)).orderBy(asc(students.regNo)).limit(3);
});
afterAll(async () => {
  await t?.close();
});


let seq = 0;
const mobile = () => `138${String(Date.now() + ++seq).slice(-8)}`;

/** A parent of the K12 school with the first demo child (through the student form, as the screens add them). */
async function parentOf(childIndex = 0, name = '测试家长'): Promise<ParentRecord> {
  const m = mobile();
  const [p] = await t.db.insert(parents).values({ orgId: k12Id, name, gender: 'female', mobile: m }).returning();
  await t.db.insert(parentStudents).values({ parentId: p.id, studentId: kids[childIndex].id, relation: 'mother' });
  return (await t.as('school01').get<ParentRecord>(`/api/busi/web/k12/user/parent/${p.id}`)).body.data;
}
const save = (p: ParentRecord, over: Record<string, unknown> = {}) => ({
  name: p.name,
  gender: p.gender,
  mobile: p.mobile,
  children: p.children.map((c) => ({ studentId: c.studentId, relation: c.relation })),
  version: p.version,
  ...over,
});

describe('parents', () => {
  it('the demo school has parents of two children and students suspended or transferred out', async () => {
    const p = (await t.as('school01').get<Page<ParentRecord>>('/api/busi/web/k12/user/parent/page?size=80')).body.data;
    expect(p.total).toBeGreaterThan(200);
    const [{ n }] = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from (select parent_id from parent_students group by parent_id having count(*) > 1) x`).then((r) => r.rows);
    expect(n).toBeGreaterThan(10);
    for (const status of ['suspended', 'transferred'] as const) expect(await t.db.$count(students, and(eq(students.orgId, k12Id), eq(students.status, status)))).toBeGreaterThan(3);
  });

  it('lists by name or mobile and by a child, with the children', async () => {
    const p = await parentOf(0, '列表家长甲');
    const byName = (await t.as('school01').get<Page<ParentRecord>>(`/api/busi/web/k12/user/parent/page?keyword=${encodeURIComponent('列表家长甲')}`)).body.data;
    expect(byName.records.map((r) => r.id)).toEqual([p.id]);
    expect(byName.records[0].children).toEqual([expect.objectContaining({ studentId: kids[0].id, name: kids[0].name, relation: 'mother' })]);
    expect((await t.as('school01').get<Page<ParentRecord>>(`/api/busi/web/k12/user/parent/page?keyword=${p.mobile}`)).body.data.records.map((r) => r.id)).toEqual([p.id]);
    const byChild = (await t.as('school01').get<Page<ParentRecord>>(`/api/busi/web/k12/user/parent/page?size=80&studentKeyword=${kids[0].regNo}`)).body.data;
    expect(byChild.records.map((r) => r.id)).toContain(p.id);
    expect(byChild.records.every((r) => r.children.some((c) => c.studentId === kids[0].id))).toBe(true);
    const all = (await t.as('school01').get<Page<ParentRecord>>('/api/busi/web/k12/user/parent/page')).body.data;
    expect(all.total).toBe(await t.db.$count(parents, eq(parents.orgId, k12Id)));
  });

  it('edits name, mobile and children (several children), audited with before and after', async () => {
    const p = await parentOf(0, '改前');
    const options = (await t.as('school01').get<PersonOption[]>(`/api/busi/web/k12/user/parent/student-options?keyword=${kids[1].regNo}`)).body.data;
    expect(options.map((o) => o.id)).toEqual([kids[1].id]);
    const m = mobile();
    const res = await t.as('school01').put<ParentRecord>(`/api/busi/web/k12/user/parent/${p.id}`, save(p, { name: '改后', mobile: m, children: [{ studentId: kids[0].id, relation: 'guardian' }, { studentId: kids[1].id, relation: 'guardian' }] }));
    expect(res.status, res.res.body).toBe(200);
    const after = res.body.data;
    expect(after).toMatchObject({ name: '改后', mobile: m, version: 2 });
    expect(after.children.map((c) => c.studentId).sort()).toEqual([kids[0].id, kids[1].id].sort());
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, p.id), eq(auditLogs.action, 'update')));
    expect(log).toMatchObject({ entity: 'parent', before: expect.objectContaining({ name: '改前' }), after: expect.objectContaining({ name: '改后' }) });
    // The student's row lists the parent too.
    const kid = (await t.as('school01').get<StudentRecord>(`/api/busi/web/k12/user/student/${kids[1].id}`)).body.data;
    expect(kid.parents.map((x) => x.parentId)).toContain(p.id);
  });

  it('refuses each bad field with its message, naming the field, and writes nothing', async () => {
    const p = await parentOf();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', '请填写姓名'],
      [{ gender: '' }, 'gender', '请选择性别'],
      [{ mobile: '' }, 'mobile', '请填写家长联系方式'],
      [{ mobile: '1380000' }, 'mobile', '家长手机号码格式不正确'],
      [{ children: [] }, 'children', '请选择家长的孩子'],
      [{ children: [{ studentId: kids[0].id, relation: 'uncle' }] }, 'children.0.relation', '请选择与学生关系'],
    ];
    for (const [over, field, msg] of cases) {
      const res = await t.as('school01').put(`/api/busi/web/k12/user/parent/${p.id}`, save(p, over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body, JSON.stringify(over)).toMatchObject({ msg, data: { field } });
    }
    expect((await t.as('school01', { language: 'en-US' }).put(`/api/busi/web/k12/user/parent/${p.id}`, save(p, { children: [] }))).body.msg).not.toMatch(/[\u4e00-\u9fff]/);
    expect((await t.as('school01').get<ParentRecord>(`/api/busi/web/k12/user/parent/${p.id}`)).body.data).toEqual(p);
  });

  it('the mobile is unique in the organisation; children must be students of the organisation', async () => {
    const a = await parentOf();
    const b = await parentOf();
    expect((await t.as('school01').put(`/api/busi/web/k12/user/parent/${b.id}`, save(b, { mobile: a.mobile }))).body).toMatchObject({ msg: '该家长手机号码已存在', data: { field: 'mobile' } });
    const [uniKid] = await t.db.select({ id: students.id }).from(students).where(eq(students.orgId, uniId)).limit(1);
    expect((await t.as('school01').put(`/api/busi/web/k12/user/parent/${b.id}`, save(b, { children: [{ studentId: uniKid.id, relation: 'father' }] }))).body).toMatchObject({ code: '400', data: { field: 'children' } });
    expect(await t.db.$count(parentStudents, eq(parentStudents.studentId, uniKid.id))).toBe(0);
  });

  it('a stale save is 409; another organisation’s parent is 404; no add route', async () => {
    const p = await parentOf();
    expect((await t.as('school01').put(`/api/busi/web/k12/user/parent/${p.id}`, save(p, { name: '第一次' }))).status).toBe(200);
    expect((await t.as('school01').put(`/api/busi/web/k12/user/parent/${p.id}`, save(p, { name: '第二次' }))).status).toBe(409);
    const [uniParent] = await t.db.insert(parents).values({ orgId: uniId, name: '外校', gender: 'male', mobile: mobile() }).returning();
    expect((await t.as('school01').get(`/api/busi/web/k12/user/parent/${uniParent.id}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/user/parent/${uniParent.id}`, save(p, { mobile: mobile(), version: 1 }))).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/user/parent/${uniParent.id}`)).status).toBe(404);
    expect((await t.as('school01').post('/api/busi/web/k12/user/parent', save(p))).status).toBe(404);
  });

  it('deletes a parent and their links; the children stay; audited', async () => {
    const p = await parentOf();
    expect((await t.as('school01').delete(`/api/busi/web/k12/user/parent/${p.id}`)).status).toBe(200);
    expect(await t.db.$count(parents, eq(parents.id, p.id))).toBe(0);
    expect(await t.db.$count(students, eq(students.id, kids[0].id))).toBe(1);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, p.id), eq(auditLogs.action, 'delete')));
    expect(log.before).toMatchObject({ mobile: p.mobile });
  });

  it("a role scoped to 'classes' sees only parents of students in its classes", async () => {
    const [u] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'teacher01'));
    const [m] = await t.db
      .select({ roleId: membershipRoles.roleId })
      .from(memberships)
      .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
      .where(and(eq(memberships.userId, u.id), eq(membershipRoles.present, true)));
    const menuIds = await t.db.select({ menuId: menus.menuId }).from(menus).where(eq(menus.permission, pageAccess('k12.user.parent').view));
    await t.db.insert(roleMenus).values(menuIds.map((x) => ({ roleId: m.roleId, menuId: x.menuId }))).onConflictDoNothing();
    await t.db.update(roles).set({ dataScope: 'classes' }).where(eq(roles.id, m.roleId));
    const token = (await t.login('teacher01')).access_token;
    const [me] = await t.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.userId, u.id));
    const mine = [
      ...new Set([
        ...(await t.db.select({ id: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, me.id))).map((r) => r.id),
        ...(await t.db.select({ id: classes.id }).from(classes).where(or(eq(classes.headTeacherId, me.id), eq(classes.peTeacherId, me.id)))).map((r) => r.id),
      ]),
    ];
    expect(mine.length).toBeGreaterThan(0);
    const get = (url: string) => t.request({ url: `/api/busi/web/k12/${url}`, token });
    const page = (await get('user/parent/page?size=80')).json<Envelope<Page<ParentRecord>>>().data;
    expect(page.total).toBeGreaterThan(0);
    expect(page.total).toBeLessThan(await t.db.$count(parents, eq(parents.orgId, k12Id)));
    const inScope = new Set((await t.db.select({ id: students.id }).from(students).where(and(eq(students.orgId, k12Id), inArray(students.classId, mine)))).map((s) => s.id));
    for (const r of page.records) expect(r.children.some((c) => inScope.has(c.studentId))).toBe(true);
    const outside = kids.find((k) => !mine.includes(k.classId))!;
    const stranger = await parentOf(kids.indexOf(outside), '范围外家长');
    expect((await get(`user/parent/${stranger.id}`)).statusCode).toBe(404);
    await t.db.update(roles).set({ dataScope: 'org' }).where(eq(roles.id, m.roleId));
  });
});

describe('parents: export', () => {
  it('exports the list’s parents, one row per child, with the list’s filters', async () => {
    const page = (await t.as('school01').get<Page<ParentRecord>>('/api/busi/web/k12/user/parent/page?size=80')).body.data;
    const two = page.records.find((p) => p.children.length > 1)!;
    const res = await t.as('school01').get(`/api/busi/web/k12/user/parent/export?keyword=${encodeURIComponent(two.mobile)}`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-disposition']).toContain(encodeURIComponent('家长名单.xlsx'));
    const [header, ...rows] = (await readXlsxRows(res.res.rawPayload)).rows;
    expect(header).toEqual(['家长姓名', '性别', '手机号', '孩子姓名', '学籍号', '班级', '与学生关系']);
    expect(rows.map((r) => r[4]).sort()).toEqual(two.children.map((c) => c.regNo).sort());
    expect(rows.every((r) => r[0] === two.name && r[2] === two.mobile)).toBe(true);
    // The list's hidden columns (gender, children) are left out, as the list's column settings send them.
    const shown = await t.as('school01').get(`/api/busi/web/k12/user/parent/export?keyword=${encodeURIComponent(two.mobile)}&columns=mobile,name,appAccount,actions`);
    expect((await readXlsxRows(shown.res.rawPayload)).rows[0]).toEqual(['手机号', '家长姓名']);
    // A teacher without the export button is refused.
    expect((await t.as('teacher01').get('/api/busi/web/k12/user/parent/export')).status).toBe(403);
  });
});
